"""Conservation: ten cards, each in the deck or dealt, exactly once."""

from __future__ import annotations

from third_game.content import deck_counts
from third_game.state import NOT_YET, State


def conservation_errors(s: State) -> list[str]:
    counts = s.deck[:]
    for card in s.cards:
        if card != NOT_YET:
            counts[card] += 1
    return [] if counts == deck_counts() else [f"cards per value {counts} differ from the deck {deck_counts()}"]
