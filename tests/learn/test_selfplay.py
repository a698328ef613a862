"""Lockstep play: shaped rewards add up to the return, forced moves are never recorded, and a game
plays the same in a batch as alone."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import torch

from shadowtable.bots import make_bot
from shadowtable.bots.evaluation import evaluator
from shadowtable.core import make
from shadowtable.learn.network import ILLEGAL_LOGIT, PolicyValueNet
from shadowtable.learn.selfplay import BotPlayer, Finished, NetPlayer, _choices, play_batch
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
    [finished] = play_batch(game, [[learner, learner]], random.Random(1), shaping=0.5, potential=potential)
    assert len(finished.trajectories) == 2
    for trajectory in finished.trajectories:
        total = sum(trajectory.rewards)
        assert total == pytest.approx(finished.returns[trajectory.seat] - 0.5 * first[trajectory.seat])
        assert any(r != 0 for r in trajectory.rewards[:-1])  # shaping did reach the earlier decisions


def test_only_real_choices_are_recorded_and_they_are_legal() -> None:
    game = make("shadow-planet", players=3)
    learner = NetPlayer(small_net("shadow-planet", 3), learning=True)
    [finished] = play_batch(game, [[learner, BotPlayer(make_bot("heuristic")), learner]], random.Random(2))
    assert {t.seat for t in finished.trajectories} == {0, 2}
    for trajectory in finished.trajectories:
        for mask, action in zip(trajectory.masks, trajectory.actions, strict=True):
            assert mask.sum() > 1 and mask[action]


def _records(finished: list[Finished]) -> list[tuple[Any, ...]]:
    """What a batch collected, game by game: returns, length and each trajectory's decisions."""
    return [
        (
            f.returns,
            f.length,
            [
                (t.seat, t.actions, t.rewards, [o.tobytes() for o in t.observations], [m.tobytes() for m in t.masks])
                for t in f.trajectories
            ],
        )
        for f in finished
    ]


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_a_batch_collects_what_its_games_played_one_at_a_time_collect(game_id: str, players: int) -> None:
    game = make(game_id, players=players, **({"turn_cap": 6} if game_id == "shadowlord" else {}))
    learner = NetPlayer(small_net(game_id, players), learning=True)
    torch.manual_seed(1)
    past = NetPlayer(PolicyValueNet(learner.net.obs_size, learner.net.num_actions, (16,)))
    bot = BotPlayer(make_bot("heuristic"))
    lineups = [[learner] * players, [learner, *[past] * (players - 1)], [bot, *[learner] * (players - 1)]] * 2
    batched = play_batch(game, lineups, random.Random(7))
    one_rng = random.Random(7)
    alone = [finished for lineup in lineups for finished in play_batch(game, [lineup], one_rng)]
    assert _records(batched) == _records(alone)
    assert sum(len(t.actions) for f in batched for t in f.trajectories) > 50
    for b, a in zip(batched, alone, strict=True):
        for tb, ta in zip(b.trajectories, a.trajectories, strict=True):
            assert tb.log_probs == pytest.approx(ta.log_probs, abs=1e-5)
            assert tb.values == pytest.approx(ta.values, abs=1e-5)
    other = play_batch(game, lineups, random.Random(8))
    assert _records(other) != _records(batched)  # the seed matters: the comparison can fail


def test_each_row_draws_where_its_own_uniform_number_falls_in_its_cumulative_probabilities() -> None:
    generator = np.random.default_rng(3)
    logits = generator.normal(size=(40, 30)).astype(np.float32)
    logits[generator.random(size=logits.shape) < 0.5] = ILLEGAL_LOGIT  # masked as the network masks
    logits[:, 7] = 0.0  # every row keeps one legal action
    log_probs = torch.log_softmax(torch.from_numpy(logits), dim=-1).numpy()
    seeds = range(40)
    legal = logits > ILLEGAL_LOGIT
    listed = [list(reversed(np.flatnonzero(row).tolist())) for row in legal]  # in any order
    drawn = _choices(log_probs, listed, [random.Random(s) for s in seeds], greedy=False)
    expected = []
    for row, seed in zip(log_probs, seeds, strict=True):
        cumulative = np.cumsum(np.exp(row.astype(np.float64)))
        expected.append(int(np.searchsorted(cumulative, random.Random(seed).random() * cumulative[-1], side="right")))
    assert drawn == expected
    assert all(legal[r, a] for r, a in enumerate(drawn))  # never a masked action
    assert len(set(drawn)) > 5
    greedy = _choices(log_probs, listed, [random.Random(s) for s in seeds], greedy=True)
    assert greedy == log_probs.argmax(axis=1).tolist()
