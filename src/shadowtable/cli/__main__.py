"""``python -m shadowtable.cli``: the same as the ``shadowtable`` console script."""

from __future__ import annotations

from shadowtable.cli.entry import run

if __name__ == "__main__":
    run()
