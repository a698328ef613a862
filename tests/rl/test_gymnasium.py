"""Gymnasium's own environment checker on the single-agent environment."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from shadowtable.core.errors import IllegalActionError  # noqa: E402
from shadowtable.rl.gymnasium_env import ShadowTableEnv  # noqa: E402


@pytest.mark.parametrize(("game_id", "players"), [("tiny-showdown", 3), ("shadow-planet", 4), ("shadowlord", 2)])
def test_gymnasium_check_env(game_id: str, players: int) -> None:
    check_env(ShadowTableEnv(game_id, players=players), skip_render_check=True)


def test_registered_ids_make_environments() -> None:
    import gymnasium

    env = gymnasium.make("shadowtable/ShadowPlanet-v0", players=4, opponents="heuristic")
    observation, info = env.reset(seed=3)
    assert observation.shape == env.observation_space.shape
    assert info["action_mask"].sum() >= 1
    env = gymnasium.make("shadowtable/Shadowlord-v0", players=3, opponents="heuristic")
    observation, info = env.reset(seed=4)
    assert observation.shape == env.observation_space.shape and info["action_mask"].sum() >= 1


def test_masked_random_play_ends_with_the_seat_return() -> None:
    env = ShadowTableEnv("tiny-showdown", players=3, seat=1, opponents=["random", "random"])
    rng = np.random.default_rng(0)
    rewards = []
    for episode in range(20):
        env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, done, _, _ = env.step(int(rng.choice(legal)))
        assert env.session is not None
        assert reward == env.game.returns(env.session.state)[1]
        rewards.append(reward)
    assert 0 < sum(rewards) < 20


def test_illegal_action_changes_nothing_and_is_penalised() -> None:
    env = ShadowTableEnv("tiny-showdown", players=2)
    obs, _ = env.reset(seed=1)
    assert env.session is not None
    before = list(env.session.actions)
    again, reward, done, _, info = env.step(7 if env.action_space.n > 7 else 99)
    assert info["illegal_action"] and reward == -1.0 and not done
    assert env.session.actions == before and (again == obs).all()


def test_masks_and_observations_handed_out_are_copies() -> None:
    env = ShadowTableEnv("shadow-planet", players=4)
    observation, info = env.reset(seed=2)
    mask = env.action_masks()
    kept = observation.tobytes(), mask.tobytes()
    observation[:] = 0.5
    mask[:] = 0
    info["action_mask"][:] = 0
    assert env.action_masks().tobytes() == kept[1]
    assert env._observation().tobytes() == kept[0]


@pytest.mark.parametrize("action", ["1", 1.0, True, None, np.bool_(True)], ids=repr)
def test_an_action_that_is_not_an_integer_raises_and_changes_nothing(action: object) -> None:
    """Not taken as action 1 (``int(True)``, ``int("1")``), nor penalised as an illegal one: refused."""
    env = ShadowTableEnv("shadowlord", players=2)
    env.reset(seed=1)
    for _ in range(500):  # on to a decision where action 1 is legal: True must not be taken as it
        if 1 in np.flatnonzero(env.action_masks()):
            break
        env.step(int(np.flatnonzero(env.action_masks())[-1]))
    assert env.session is not None and 1 in np.flatnonzero(env.action_masks())
    before = list(env.session.actions)
    with pytest.raises(IllegalActionError, match="an action is an int"):
        env.step(action)
    assert env.session.actions == before


def test_a_numpy_integer_is_the_action_of_its_value() -> None:
    env = ShadowTableEnv("shadowlord", players=2)
    env.reset(seed=1)
    assert env.session is not None
    before = len(env.session.actions)
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(np.int64(legal))
    assert "illegal_action" not in info and env.session.actions[before] == legal
    assert all(type(action) is int for action in env.session.actions)
