"""A planted blunder is found: one choice loses outright, and the analysis names a better one."""

from __future__ import annotations

import pytest
from tests.analysis.helpers import last_decision, planted, tiny_record

from shadowtable.analysis import DEFAULT_ROLLOUTS, AnalysisSettings, analyse_decision, analyse_record, rollout_policy
from shadowtable.core.record import game_for_record


def test_tiny_passing_with_the_top_card_is_a_blunder_and_raising_is_named() -> None:
    # Seat 0 holds the top card (4) and passes in a one-round game: it cannot win; raising wins surely.
    record = tiny_record([4, 2], [0, 1], rounds=1)
    analysis = analyse_record(record, AnalysisSettings(seat=0, rollouts=12, policy="random"))
    [decision] = analysis.decisions
    assert decision.label == "blunder"
    assert decision.text == "pass" and decision.chance_after == 0.0
    assert decision.best.text == "raise" and decision.best.chance == 1.0
    assert decision.words == "pass cut your chance of winning from 100% to 0%; raise kept it at 100%"
    assert analysis.seats[0].blunders == 1 and analysis.seats[0].accuracy == 0.0


def test_tiny_raising_with_the_top_card_is_the_best_choice() -> None:
    record = tiny_record([4, 2], [1, 1], rounds=1)
    [decision] = analyse_record(record, AnalysisSettings(seat=0, rollouts=12, policy="random")).decisions
    assert decision.label is None and decision.lost == 0.0 and decision.best.action == decision.action
    assert "kept your chance of winning at 100%" in decision.words


@pytest.mark.parametrize(
    ("name", "seat", "blunder", "better"),
    [
        # The Shadow Planet: on an identity tie at the end, naming the wrong Character loses at once.
        ("shadow-planet-wrong-identity", 0, "identity Rachel Robinson", "identity Reed Robinson"),
        # Shadowlord!: surrendering loses at once, in a game the seat went on to win when it played on.
        ("shadowlord-surrender", 0, "surrender", "play on"),
    ],
)
def test_a_planted_blunder_in_a_real_game_is_labelled_and_a_better_choice_named(
    name: str, seat: int, blunder: str, better: str
) -> None:
    record = planted(name)
    game = game_for_record(record)
    point = last_decision(record, seat)
    settings = AnalysisSettings(seat=seat, rollouts=DEFAULT_ROLLOUTS, policy="heuristic")
    decision = analyse_decision(game, point, settings, rollout_policy(game, settings.policy))
    assert decision is not None
    assert decision.text == blunder
    assert decision.chance_after == 0.0
    assert next(alt for alt in decision.alternatives if alt.action == decision.action).exact
    assert decision.label == "blunder"
    assert decision.best.text == better and decision.best.chance >= 0.5
    assert decision.words.startswith(f"{blunder} cut your chance of winning from ")
