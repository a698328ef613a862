"""``summary(ctx, state)``: JSON facts about a (final) state for reports and golden records."""

from __future__ import annotations

from typing import Any

from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.endgame import end_reason, outcome
from shadowtable.games.shadow_planet.state import State


def summary(ctx: Context, state: State) -> dict[str, Any]:
    """End reason, rounds, indicator trajectory and, once over, seats, winners and why."""
    data: dict[str, Any] = {
        "end_reason": end_reason(state) if not state.stack else None,
        "rounds": state.round,
        "trajectory": [{"countdown": c, "repair": r, "threat": t} for c, r, t in state.trajectory],
    }
    if not state.stack:
        facts = outcome(ctx, state)
        data.update({"seats": facts["seats"], "winners": facts["winners"], "why": facts["why"]})
    return data
