"""The ``shadowtable`` command line: one module per command, each a thin wrapper over a library function.

Each command module turns its arguments into one typed settings object (a frozen dataclass) and
hands it to one function that does the work; :mod:`shadowtable.cli.entry` turns typed errors into
one ``error:`` line and exit status 2.
"""

from __future__ import annotations

from shadowtable.cli.application import app
from shadowtable.cli.entry import main, run

__all__ = ["app", "main", "run"]
