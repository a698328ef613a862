"""OpenSpiel's random simulation test on the registered Python game."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from shadowtable.rl.openspiel_game import load  # noqa: E402


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("tiny-showdown", 2), ("tiny-showdown", 3), ("shadow-planet", 4), ("shadowlord", 2), ("shadowlord", 4)],
)
def test_openspiel_random_sim_test(game_id: str, players: int) -> None:
    game = load(game_id, players)
    assert game.num_players() == players
    pyspiel.random_sim_test(
        game, num_sims={"tiny-showdown": 20, "shadow-planet": 3}.get(game_id, 2), serialize=False, verbose=False
    )


def test_observation_tensor_matches_the_encoder() -> None:
    game = load("tiny-showdown", 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.sum() > 0
    assert '"seat":0' in observer.string_from(state, 0)
