"""PettingZoo's own API and seed tests on the AEC environment."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from shadowtable.rl.pettingzoo_env import env  # noqa: E402


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env("tiny-showdown", players=players), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env("tiny-showdown", players=3), num_cycles=50)


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
