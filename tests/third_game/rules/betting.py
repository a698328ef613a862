"""Betting: each seat in turn passes (0) or bets (1)."""

from __future__ import annotations

from typing import Any

from third_game.actions import BET, PASS
from third_game.state import State
from third_game.tasks import PlaceBet


def bettor(task: PlaceBet) -> int:
    return task.seat


def bet_legal(ctx: Any, s: State, task: PlaceBet) -> list[int]:
    return [PASS, BET]


def bet(ctx: Any, s: State, task: PlaceBet, action: int) -> None:
    s.bets[task.seat] = action
