"""The showdown: the highest card among the bettors wins; nobody wins if nobody bet."""

from __future__ import annotations

from typing import Any

from third_game.actions import BET
from third_game.state import State
from third_game.tasks import Showdown


def showdown(ctx: Any, s: State, task: Showdown) -> None:
    bettors = [seat for seat, b in enumerate(s.bets) if b == BET]
    best = max((s.cards[seat] for seat in bettors), default=-1)
    s.winners = [seat for seat in bettors if s.cards[seat] == best]
    s.over = True
