"""``Game.random_rollout``: the engines' compiled loop plays exactly what the generic loop plays."""

from __future__ import annotations

import random

import pytest

from shadowtable.core import make
from shadowtable.core.game import Game


@pytest.mark.parametrize(
    ("name", "players"), [("shadow-planet", 3), ("shadow-planet", 5), ("shadowlord", 2), ("shadowlord", 4)]
)
@pytest.mark.parametrize("limit", [0, 1, 40, 100_000])
def test_the_engine_loop_plays_what_the_generic_loop_plays(name: str, players: int, limit: int) -> None:
    game = make(name, players=players)
    for seed in range(3):
        start = game.apply_unchecked(game.initial_state(), game.legal_actions(game.initial_state())[0])
        ours = game.random_rollout(start.copy(), random.Random(seed), limit)
        generic = Game.random_rollout(game, start.copy(), random.Random(seed), limit)
        assert game.state_to_json(ours) == game.state_to_json(generic)
        assert game.state_to_json(start) != game.state_to_json(ours) or limit == 0
        if limit == 100_000:
            assert game.is_terminal(ours)
