"""Policies trained by ``shadowtable train`` that ship with the package.

Each is ``<game>-<players>p.npz``: NumPy weights, played without PyTorch
(:mod:`shadowtable.learn.portable`).
"""
