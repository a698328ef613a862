"""At a decision with many choices an analysis may compare only some: the choice made, the
rollout policy's own, and others drawn at random; each keeps the chance a full comparison gives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shadowtable.analysis import AnalysisSettings
from shadowtable.analysis.decisions import (
    analyse_decision,
    check_settings,
    compared_choices,
    decision_points,
    rollout_policy,
)
from shadowtable.analysis.estimate import AnalysisError
from shadowtable.bots.random_bot import RandomBot
from shadowtable.core.record import game_for_record
from shadowtable.core.registry import make
from shadowtable.core.rng import derived_rng
from shadowtable.core.runner import play_game

SETTINGS = AnalysisSettings(rollouts=3, policy="random", seed=4)


def _wide_decisions(count: int) -> list:  # type: ignore[type-arg]
    """The first ``count`` decisions of a seeded Shadowlord! game with more than 4 legal choices."""
    game = make("shadowlord", players=2)
    record = play_game(game, [RandomBot(), RandomBot()], seed=12)
    found = [p for p in decision_points(record) if len(game.legal_actions(p.state)) > 4]
    assert len(found) >= count
    return [game_for_record(record), found[:count]]


def test_the_compared_choices_keep_the_chances_of_a_full_comparison() -> None:
    game, points = _wide_decisions(6)
    policy = rollout_policy(game, SETTINGS.policy)
    for point in points:
        full = analyse_decision(game, point, SETTINGS, policy)
        some = analyse_decision(game, point, replace(SETTINGS, most_choices=4), policy)
        assert full is not None and some is not None
        legal = game.legal_actions(point.state)
        assert some.choices == full.choices == len(legal) and full.all_compared and not some.all_compared
        assert len(some.alternatives) == 4 and point.action in {a.action for a in some.alternatives}
        chances = {a.action: a.raw_chance for a in full.alternatives}
        assert all(a.raw_chance == chances[a.action] for a in some.alternatives)
        assert some.samples == full.samples
        if some.best.action == point.action:
            assert some.words.endswith("(the best of the choices compared)")


def test_the_rollout_policys_own_choice_is_among_them_and_the_draws_repeat() -> None:
    game, points = _wide_decisions(4)
    policy = rollout_policy(game, "heuristic")
    settings = replace(SETTINGS, policy="heuristic", most_choices=3)
    for point in points:
        observation = game.observe(point.state, point.seat)
        legal = game.legal_actions(point.state)
        compared = compared_choices(game, point, observation, legal, policy, settings)
        assert compared == compared_choices(game, point, observation, legal, policy, settings)
        assert len(compared) == 3 and point.action in compared and compared == sorted(compared, key=legal.index)
        rng = derived_rng(settings.seed, "analysis choices", point.seat, point.number)
        assert policy.choose(game, point.seat, observation, legal, rng) in compared
    assert compared_choices(game, points[0], None, [1, 2, 3], policy, settings) == [1, 2, 3]


@pytest.mark.parametrize("most", [1, 0, True, 2.5])
def test_fewer_than_two_compared_choices_is_refused(most: object) -> None:
    with pytest.raises(AnalysisError, match="most_choices"):
        check_settings(replace(SETTINGS, most_choices=most), make("shadowlord", players=2))  # type: ignore[arg-type]


def test_a_choice_within_the_percent_of_the_best_keeps_the_chance_in_words() -> None:
    from shadowtable.analysis.model import Alternative, in_words

    chosen, best = Alternative(1, "pass", 0.488, 8, 0.488), Alternative(2, "raise", 0.492, 8, 0.492)
    assert (
        in_words(chosen, best, 0.492)
        == "pass kept your chance of winning at 49% (as good as the best choice, to the percent)"
    )
    worse = Alternative(1, "pass", 0.40, 8, 0.40)
    assert in_words(worse, best, 0.492).startswith("pass cut your chance of winning from 49% to 40%")
