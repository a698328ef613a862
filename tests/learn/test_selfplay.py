"""Lockstep play: shaped rewards add up to the return, and forced moves are never recorded."""

from __future__ import annotations

import random

import pytest
import torch

from shadowtable.bots import make_bot
from shadowtable.bots.evaluation import evaluator
from shadowtable.core import make
from shadowtable.learn.network import PolicyValueNet
from shadowtable.learn.selfplay import BotPlayer, NetPlayer, play_batch
from shadowtable.rl.encoding import encoder_for


def small_net(game_id: str, players: int) -> PolicyValueNet:
    game = make(game_id, players=players)
    torch.manual_seed(0)
    return PolicyValueNet(encoder_for(game).shape[0], game.spec.num_distinct_actions, (16,))


def test_shaped_rewards_sum_to_the_return_less_the_first_potential() -> None:
    game = make("shadowlord", players=2, turn_cap=8)
    evaluate = evaluator("shadowlord", "heuristic")
    first: dict[int, float] = {}

    def potential(game_: object, state: object, seat: int) -> float:
        value = float(evaluate(game, state)[seat])
        first.setdefault(seat, value)
        return value

    learner = NetPlayer(small_net("shadowlord", 2), learning=True)
    [finished] = play_batch(
        game, [[learner, learner]], random.Random(1), torch.Generator().manual_seed(1), shaping=0.5, potential=potential
    )
    assert len(finished.trajectories) == 2
    for trajectory in finished.trajectories:
        total = sum(trajectory.rewards)
        assert total == pytest.approx(finished.returns[trajectory.seat] - 0.5 * first[trajectory.seat])
        assert any(r != 0 for r in trajectory.rewards[:-1])  # shaping did reach the earlier decisions


def test_only_real_choices_are_recorded_and_they_are_legal() -> None:
    game = make("shadow-planet", players=3)
    learner = NetPlayer(small_net("shadow-planet", 3), learning=True)
    [finished] = play_batch(
        game, [[learner, BotPlayer(make_bot("heuristic")), learner]], random.Random(2), torch.Generator().manual_seed(2)
    )
    assert {t.seat for t in finished.trajectories} == {0, 2}
    for trajectory in finished.trajectories:
        for mask, action in zip(trajectory.masks, trajectory.actions, strict=True):
            assert mask.sum() > 1 and mask[action]
