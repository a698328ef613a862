"""The showdown: the highest card among the bettors wins; nobody wins if nobody bet."""

from __future__ import annotations

from typing import Any

from shadowtable.core.events import note
from third_game.actions import BET
from third_game.state import State
from third_game.tasks import ShowCards


def showdown(ctx: Any, s: State, task: ShowCards) -> None:
    bettors = [seat for seat, b in enumerate(s.bets) if b == BET]
    best = max((s.cards[seat] for seat in bettors), default=-1)
    s.winners = [seat for seat in bettors if s.cards[seat] == best]
    s.over = True
    shown = ", ".join(f"seat {seat} {s.cards[seat]}" for seat in bettors) or "nobody bet"
    won = ", ".join(f"seat {seat}" for seat in s.winners) or "nobody"
    note(s, "showdown", f"showdown: {shown}; {won} wins", rule="bet", cards={str(k): s.cards[k] for k in bettors})
