"""The initial state: an undealt deck; the deals, the bets and the showdown are pending."""

from __future__ import annotations

from third_game.content import deck_counts
from third_game.state import NOT_YET, State
from third_game.tasks import DealCard, PlaceBet, ShowCards


def initial_state(players: int) -> State:
    stack = [
        ShowCards(),
        *(PlaceBet(seat) for seat in reversed(range(players))),
        *(DealCard(seat) for seat in reversed(range(players))),
    ]
    return State(deck=deck_counts(), cards=[NOT_YET] * players, bets=[NOT_YET] * players, stack=stack)
