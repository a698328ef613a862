"""The components: a deck of cards 0-4, two of each."""

from __future__ import annotations

from shadowtable.core.errors import ContentError

VALUES = 5
COPIES = 2


def deck_counts(values: int = VALUES, copies: int = COPIES) -> list[int]:
    """How many cards of each value the deck starts with."""
    if values < 1 or copies < 1:
        raise ContentError(f"a deck needs values and copies >= 1, got {values} and {copies}")
    return [copies] * values
