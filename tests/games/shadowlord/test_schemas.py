"""The observation schemas ship with the game and hold every observation; a field that is not
on the allow-list fails (``tests/games/test_schemas.py`` checks they are the generated ones)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.core import CHANCE, make
from shadowtable.core.rng import sample_outcome

jsonschema = pytest.importorskip("jsonschema")


def validator(game: Any, kind: str) -> Any:
    schema = game.observation_schema(kind)
    assert schema is not None
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("config", [{"players": 2}, {"players": 2, "modified": True}, {"players": 4}])
def test_observations_of_random_games_match_their_schemas(config: dict[str, Any]) -> None:
    game = make("shadowlord", **config, turn_cap=30)
    seat_check, spectator_check = validator(game, "seat"), validator(game, "spectator")
    rng = random.Random(5)
    state = game.initial_state()
    step = 0
    while not game.is_terminal(state):
        if step % 17 == 0:
            spectator_check.validate(game.observe(state, None))
            for seat in range(game.players):
                seat_check.validate(game.observe(state, seat))
        player = game.current_player(state)
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        state = game.apply(state, action)
        step += 1
    seat_check.validate(game.observe(state, 0))


def test_a_field_not_on_the_allow_list_fails() -> None:
    game = make("shadowlord", players=3)
    state = game.initial_state()
    check = validator(game, "seat")
    obs = game.observe(state, 1)
    check.validate(obs)
    for where in (obs, obs["public"], obs["private"], obs["pending"], obs["tasks"][-1]):
        where["deck"] = [8, 15, 15, 10, 2]
        assert not check.is_valid(obs)
        del where["deck"]
    assert check.is_valid(obs)
    obs["pending"]["data"]["hand"] = 3
    assert not check.is_valid(obs)


def test_a_spectator_observation_holds_no_private_card() -> None:
    game = make("shadowlord", players=2)
    state = game.initial_state()
    check = validator(game, "spectator")
    obs = game.observe(state, None)
    check.validate(obs)
    obs["private"]["hand"] = [0, 0, 0, 0, 1]
    assert not check.is_valid(obs)
