"""Dealing: each seat draws one card from the deck (chance, weighted by the cards left)."""

from __future__ import annotations

from typing import Any

from third_game.state import State
from third_game.tasks import DealCard


def deal_outcomes(ctx: Any, s: State, task: DealCard) -> list[tuple[int, float]]:
    total = sum(s.deck)
    return [(value, n / total) for value, n in enumerate(s.deck) if n]


def deal(ctx: Any, s: State, task: DealCard, value: int) -> None:
    s.deck[value] -= 1
    s.cards[task.seat] = value
