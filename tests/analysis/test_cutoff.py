"""Rollouts cut off after a number of steps and scored by the game's evaluation (Shadowlord!)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from shadowtable.analysis import AnalysisSettings, analyse_decision
from shadowtable.analysis.calibration import calibration_words, split_variant, variant_of
from shadowtable.analysis.decisions import DecisionPoint, check_settings, decision_points, rollout_policy
from shadowtable.analysis.estimate import AnalysisError, Cutoff, rollout_cutoff, rollout_value
from shadowtable.bots.evaluation import evaluator
from shadowtable.bots.random_bot import RandomBot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.runner import play_game
from shadowtable.server.analysis_jobs import game_settings

SETTINGS = AnalysisSettings(rollouts=4, policy="random", seed=2, horizon=30)


def _midgame_points(count: int) -> tuple[Game[Any], list[DecisionPoint]]:
    game = make("shadowlord", players=2)
    record = play_game(game, [RandomBot(), RandomBot()], seed=8)
    points = [p for p in decision_points(record) if len(game.legal_actions(p.state)) > 1]
    return game, points[len(points) // 3 : len(points) // 3 + count]


def test_a_cut_off_rollout_scores_the_evaluation_and_an_ended_game_its_result() -> None:
    game, points = _midgame_points(1)
    state = points[0].state
    material = evaluator("shadowlord", "heuristic")
    at_once = rollout_value(game, state, 0, RandomBot(), random.Random(1), Cutoff(0, material))
    assert at_once == pytest.approx(material(game, state)[0])
    assert 0.0 < at_once < 1.0
    ended = rollout_value(game, state, 0, RandomBot(), random.Random(1))
    assert ended in (0.0, 1.0)


def test_an_analysis_with_a_horizon_gives_shares_and_names_its_variant() -> None:
    game, points = _midgame_points(3)
    policy = rollout_policy(game, "random")
    shares = []
    for point in points:
        decision = analyse_decision(game, point, SETTINGS, policy)
        assert decision is not None
        shares += [a.raw_chance for a in decision.alternatives]
    assert any(0.0 < share < 1.0 and share * SETTINGS.rollouts % 1 for share in shares), shares
    assert variant_of(game, 30) == "cut-30" and split_variant("modified-cut-30") == ("modified", 30)
    assert "cut off after 30 steps" in calibration_words("shadowlord", 2, variant="cut-30")


def test_a_game_without_an_evaluation_and_a_bad_horizon_are_refused() -> None:
    with pytest.raises(AnalysisError, match="no evaluation"):
        rollout_cutoff(make("shadow-planet", players=3), 60)
    for horizon in (0, -3, True, 2.5):
        with pytest.raises(AnalysisError, match="horizon"):
            check_settings(replace(SETTINGS, horizon=horizon), make("shadowlord", players=2))  # type: ignore[arg-type]


def test_the_server_cuts_shadowlord_rollouts_off_and_plays_the_shadow_planet_out() -> None:
    server = AnalysisSettings(rollouts=8, budget=90.0)
    assert game_settings(server, "shadowlord") == replace(server, horizon=60, most_choices=4)
    assert game_settings(server, "shadow-planet") == server
    assert game_settings(server, "no-such-game") == server
