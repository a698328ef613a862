"""Reading the :class:`~shadowtable.core.summary.Summary` games put in ``record.metadata``."""

from __future__ import annotations

from shadowtable.core.errors import RecordError
from shadowtable.core.record import GameRecord
from shadowtable.core.summary import Summary


def record_summary(record: GameRecord) -> Summary | None:
    """The record's summary, or ``None`` when its metadata is no summary."""
    try:
        return Summary.from_json(record.metadata)
    except RecordError:
        return None


def record_roles(record: GameRecord) -> list[str] | None:
    """One role name per seat, or ``None`` when the game names none."""
    summary = record_summary(record)
    roles = summary.roles() if summary is not None else None
    return roles if roles is not None and len(roles) == record.players else None


def record_trajectories(record: GameRecord) -> dict[str, list[float]]:
    """Indicator name -> one value per round (empty when the game records none)."""
    summary = record_summary(record)
    return summary.trajectories() if summary is not None else {}
