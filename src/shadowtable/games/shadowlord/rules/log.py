"""The public log: the last lines of what happened, never naming a hidden value."""

from __future__ import annotations

from shadowtable.games.shadowlord.state import SLState

KEEP = 12
"""Lines kept in ``state.log``."""


def log(s: SLState, text: str, keep: int = KEEP) -> None:
    """Append a public log line (never hidden values)."""
    s.log.append(text)
    if len(s.log) > keep:
        del s.log[: len(s.log) - keep]
