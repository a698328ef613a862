"""Policies trained by ``shadowtable train`` that ship with the package (``<game>-<players>p.pt``)."""
