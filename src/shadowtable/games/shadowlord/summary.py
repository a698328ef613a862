"""``summarize(ctx, state)``: the :class:`Summary` of a (final) state, for reports."""

from __future__ import annotations

from typing import Any

from shadowtable.core.summary import SeatSummary, Summary
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import ACTIVE, CAPTIVE, REMOVED, State

NV = CARD_VALUES

END_REASON_WORDS = {
    "master_of_universe": "a Master of the Universe: the Shadowlord and every other Star Master defeated",
    "surrender": "a Master of the Universe: the others surrendered to the Power Stone's owner",
    "shadowlord_timer": "the Power Stone Timer reached the Starburst: the Shadowlord wins",
    "shadowlord_wins": "every Alliance defeated: the Shadowlord wins",
    "truncated": "the turn limit: nobody wins",
}
"""Each ``end_reason`` in words (the manifest's ``end_reasons``)."""


def summarize(ctx: Context, s: State) -> Summary:
    """End reason, turns played, winner seat, the Shadowlord's fate and per-seat facts."""
    seats = []
    for k in range(ctx.players):
        colours = ctx.seat_alliances[k]
        figs = [f for f in range(len(s.owner)) if s.owner[f] in colours]
        facts = {
            "alliances": [ctx.content.colours[a] for a in colours],
            "in_game": not s.seat_out[k],
            "characters": sum(1 for f in figs if s.status[f] == ACTIVE),
            "captives_lost": sum(1 for f in figs if s.status[f] == CAPTIVE),
            "space_ships": sum(s.ships[f] for f in figs if s.status[f] == ACTIVE),
            "attack_hand": sum(s.hand[k * NV : k * NV + NV]),
            "holds_power_stone": s.stone >= 0 and s.owner[s.stone] in colours,
        }
        seats.append(SeatSummary(seat=k, facts=facts))
    return Summary(
        end_reason=s.end or None,
        seats=tuple(seats),
        facts={
            "truncated": s.end == "truncated",
            "turns": s.turn + (1 if s.end else 0),
            "winner": s.winner if s.winner >= 0 else None,
            "shadowlord_defeated": s.status[ctx.lord] == REMOVED,
            "timer": s.timer,
        },
    )


def summary(ctx: Context, s: State) -> dict[str, Any]:
    """:func:`summarize` as JSON (``record.metadata``)."""
    return summarize(ctx, s).to_json()
