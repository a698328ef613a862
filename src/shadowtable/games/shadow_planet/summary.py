"""``summarize(ctx, state)``: the :class:`Summary` of a (final) state, for reports and golden records."""

from __future__ import annotations

from typing import Any

from shadowtable.core.summary import SEAT_KEYS, SeatSummary, Summary
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.endgame import end_reason, outcome
from shadowtable.games.shadow_planet.state import State

END_REASON_WORDS = {
    "threat": "the Threat Indicator reached its end: the Guardian wins",
    "repair": "the Repair Indicator reached its end: the Alien and the Astronauts settle it",
    "countdown": "the Countdown ran out",
    "truncated": "cut off at the step limit: nobody wins",
}
"""Each ``end_reason`` in words (the manifest's ``end_reasons``)."""


def summarize(ctx: Context, state: State) -> Summary:
    """End reason, rounds, indicator trajectory and, once over, the seats (role: their
    Objective's side), winners and why."""
    facts: dict[str, Any] = {"rounds": state.round}
    seats = None
    if not state.stack:
        result = outcome(ctx, state)
        seats = tuple(
            SeatSummary(seat["seat"], seat["role"], seat["won"], {k: v for k, v in seat.items() if k not in SEAT_KEYS})
            for seat in result["seats"]
        )
        facts.update(winners=result["winners"], why=result["why"])
    return Summary(
        end_reason=end_reason(state) if not state.stack else None,
        seats=seats,
        trajectory=tuple({"countdown": c, "repair": r, "threat": t} for c, r, t in state.trajectory),
        facts=facts,
    )


def summary(ctx: Context, state: State) -> dict[str, Any]:
    """:func:`summarize` as JSON (``record.metadata``)."""
    return summarize(ctx, state).to_json()
