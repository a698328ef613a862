"""The report summary of a game."""

from __future__ import annotations

from typing import Any

from third_game.actions import BET
from third_game.state import State


def summary(s: State) -> dict[str, Any]:
    return {"bettors": sum(b == BET for b in s.bets), "winners": s.winners}
