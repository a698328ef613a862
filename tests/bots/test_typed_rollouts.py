"""A search whose rollout policy reads the typed view chooses as it would from the JSON one."""

from __future__ import annotations

import random

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.registry import make
from shadowtable.testing import random_move

SPEC = "ismcts:rollout=heuristic:prior=heuristic:iterations=8:max_rollout_steps=30"


@pytest.mark.parametrize(("game_id", "players"), [("shadowlord", 2), ("shadowlord", 4), ("shadow-planet", 4)])
def test_typed_rollouts_choose_as_json_rollouts(game_id: str, players: int) -> None:
    game = make(game_id, players=players)
    typed, from_json = make_bot(SPEC), make_bot(SPEC)
    assert typed.typed_rollout
    from_json.typed_rollout = False
    rng, state, compared = random.Random(3), game.initial_state(), 0
    while not game.is_terminal(state) and compared < 6:
        seat, action = random_move(game, state, rng)
        legal = game.legal_actions(state)
        if seat >= 0 and len(legal) > 1 and rng.random() < 0.2:
            seen = game.observe(state, seat)
            choices = [bot.choose(game, seat, seen, legal, random.Random(compared)) for bot in (typed, from_json)]
            assert choices[0] == choices[1], (compared, choices)
            compared += 1
        state = game.apply(state, action)
    assert compared == 6
