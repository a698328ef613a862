"""Reading the facts games put in ``record.metadata`` (their ``summary``), in either accepted form.

Roles: ``{"roles": [role per seat]}`` or ``{"seats": [{"objective": role}, ...]}``.
Indicator trajectories: ``{"trajectories": {name: [value per round]}}`` or
``{"trajectory": [{name: value}, ...]}`` (one dict per round).
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.record import GameRecord


def record_roles(record: GameRecord) -> list[str] | None:
    """One role name per seat, or ``None`` when the game names none."""
    meta = record.metadata
    roles = meta.get("roles")
    if roles is None and isinstance(meta.get("seats"), list):
        roles = [seat.get("objective", seat.get("role")) if isinstance(seat, dict) else None for seat in meta["seats"]]
    if isinstance(roles, list) and len(roles) == record.players and all(r is not None for r in roles):
        return [str(role) for role in roles]
    return None


def record_trajectories(record: GameRecord) -> dict[str, list[float]]:
    """Indicator name -> one value per round (empty when the game records none)."""
    meta: dict[str, Any] = record.metadata
    if isinstance(meta.get("trajectories"), dict):
        return {name: [float(v) for v in values] for name, values in meta["trajectories"].items()}
    rounds = meta.get("trajectory")
    if isinstance(rounds, list) and rounds and all(isinstance(r, dict) for r in rounds):
        names = sorted({name for r in rounds for name in r})
        return {name: [float(r[name]) for r in rounds if name in r] for name in names}
    return {}
