"""Encoded observations depend only on what the seat may know."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import make, replay_states  # noqa: E402
from shadowtable.core.runner import play_game  # noqa: E402
from shadowtable.rl.encoding import action_mask, encoder_for  # noqa: E402


@pytest.mark.parametrize("game_id", ["tiny-showdown", "shadow-planet", "shadowlord"])
def test_encoding_ignores_what_the_seat_cannot_know(game_id: str) -> None:
    game = make(game_id, players=3)
    encoder = encoder_for(game)
    record = play_game(game, [RandomBot()] * 3, seed=2)
    for _, state in list(replay_states(record))[:-1:7]:
        for seat in range(3):
            observation = game.observe(state, seat)
            encoded = encoder.encode(observation)
            assert encoded.shape == encoder.shape and encoded.dtype == np.float32
            for k in range(3):
                other = game.determinize(observation, random.Random(k))
                assert (encoder.encode(game.observe(other, seat)) == encoded).all()


def test_action_mask_marks_exactly_the_legal_actions() -> None:
    game = make("tiny-showdown", players=2)
    mask = action_mask(game, [1])
    assert mask.tolist() == [0, 1] and mask.dtype == np.int8
