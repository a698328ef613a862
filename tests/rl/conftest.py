"""An observation encoder for the tiny test game."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from shadowtable.core.game import Game, Observation  # noqa: E402
from shadowtable.rl.encoding import one_hot, register_encoder  # noqa: E402

CARDS, MAX_SEATS, MAX_HISTORY = 5, 4, 8


class TinyEncoder:
    """Seat one-hot, every seat's card (one-hot, or unknown), the betting history."""

    low, high = 0.0, 1.0

    def __init__(self, game: Game[Any]) -> None:
        self.shape = (MAX_SEATS + MAX_SEATS * (CARDS + 1) + MAX_HISTORY * 3,)

    def encode(self, observation: Observation) -> Any:
        values = one_hot(observation["seat"], MAX_SEATS)
        cards = observation["cards"] + [None] * (MAX_SEATS - len(observation["cards"]))
        for card in cards:
            values += one_hot(CARDS if card is None else card, CARDS + 1)
        history = observation["history"] + [None] * (MAX_HISTORY - len(observation["history"]))
        for action in history:
            values += one_hot(2 if action is None else action, 3)
        return np.asarray(values, dtype=np.float32)


register_encoder("tiny-showdown", TinyEncoder)
