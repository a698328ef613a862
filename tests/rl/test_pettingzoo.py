"""PettingZoo's own API and seed tests on the AEC environment."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from shadowtable.core.errors import IllegalActionError  # noqa: E402
from shadowtable.rl.pettingzoo_env import env, raw_env  # noqa: E402

GAMES = [
    ("tiny-showdown", 2),
    ("tiny-showdown", 4),
    ("shadow-planet", 3),
    ("shadow-planet", 5),
    ("shadowlord", 2),
    ("shadowlord", 4),
]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    api_test(env(game_id, players=players), num_cycles=300)


@pytest.mark.parametrize("game_id", ["tiny-showdown", "shadow-planet", "shadowlord"])
def test_pettingzoo_seed_test(game_id: str) -> None:
    seed_test(lambda: env(game_id, players=3), num_cycles=100)


def test_rewards_are_the_game_returns_at_the_end() -> None:
    e = env("tiny-showdown", players=3)
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            mask = e.observe(agent)["action_mask"]
            e.step(int(mask.nonzero()[0][-1]))  # always raise
    assert sorted(totals.values())[-1] == 1.0
    assert set(totals.values()) <= {0.0, 1.0}


def test_the_short_module_name_gives_the_same_environment() -> None:
    from shadowtable.rl import pettingzoo as short

    e = short.env("shadow-planet", players=4)
    e.reset(seed=1)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def test_observations_handed_out_never_change_later() -> None:
    e = env("shadowlord", players=3)
    e.reset(seed=5)
    kept = []
    for agent in e.agent_iter(60):
        observation, _, terminated, truncated, _ = e.last()
        kept.append((observation, observation["observation"].tobytes(), observation["action_mask"].tobytes()))
        observation["observation"][:] = 0.5  # a caller's own copy: the environment must not reuse it
        observation["action_mask"][:] = 0
        again = e.observe(agent)
        assert again["observation"].tobytes() == kept[-1][1] and again["action_mask"].tobytes() == kept[-1][2]
        mask = np.frombuffer(kept[-1][2], dtype=np.int8)
        e.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    assert all((o["observation"] == 0.5).all() for o, _, _ in kept)


def test_the_raw_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    e = raw_env("shadow-planet", players=4)
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert after["observation"].tobytes() == before["observation"].tobytes()
    assert after["action_mask"].tobytes() == before["action_mask"].tobytes()


@pytest.mark.parametrize("action", ["1", 1.0, True, False, np.bool_(True)], ids=repr)
def test_the_raw_environment_refuses_an_action_that_is_not_an_integer(action: object) -> None:
    e = raw_env("shadowlord", players=2)
    e.reset(seed=2)
    for _ in range(500):  # on to a decision where actions 0 and 1 are legal: True and False would be taken
        mask = e.observe(e.agent_selection)["action_mask"]
        if mask[:2].all():
            break
        e.step(int(np.flatnonzero(mask)[-1]))
    agent = e.agent_selection
    before = e.observe(agent)
    assert before["action_mask"][:2].all()
    with pytest.raises(IllegalActionError, match="an action is an int"):
        e.step(action)
    assert e.agent_selection == agent
    assert e.observe(agent)["observation"].tobytes() == before["observation"].tobytes()


def test_the_raw_environment_takes_a_numpy_integer_as_its_value() -> None:
    one, other = raw_env("shadowlord", players=2), raw_env("shadowlord", players=2)
    one.reset(seed=2)
    other.reset(seed=2)
    legal = int(np.flatnonzero(one.observe(one.agent_selection)["action_mask"])[0])
    one.step(np.int64(legal))
    other.step(legal)
    assert one.game.state_to_json(one.state) == other.game.state_to_json(other.state)
