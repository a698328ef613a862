"""The analysis is a function of the record and its settings: the same seed, the same result."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from tests.analysis.helpers import FAST, planted, tiny_record

from shadowtable.analysis import (
    MIN_LABEL_SAMPLES,
    AnalysisError,
    AnalysisSettings,
    GameAnalysis,
    analyse_points,
    analyse_record,
    analysis_html,
    decision_points,
    rollout_policy,
)
from shadowtable.core.errors import BotError
from shadowtable.core.record import game_for_record


def test_the_same_seed_gives_the_same_analysis_of_a_real_game() -> None:
    record = planted("shadowlord-surrender")
    game = game_for_record(record)
    points = list(decision_points(record, 0))[-8:]
    settings = AnalysisSettings(seat=0, rollouts=2, policy="heuristic", seed=5)
    policy = rollout_policy(game, settings.policy)
    first = analyse_points(game, points, settings, policy)
    assert first, "the end of the game has decisions to analyse"
    assert analyse_points(game, points, settings, rollout_policy(game, settings.policy)) == first


def test_the_same_seed_gives_the_same_analysis_and_another_seed_may_differ() -> None:
    record = tiny_record([3, 1, 4], [1, 0, 1, 0, 0, 1])
    settings = replace(FAST, rollouts=3, seed=5)
    first = analyse_record(record, settings).to_json()
    assert analyse_record(record, settings).to_json() == first
    chances = {json.dumps(analyse_record(record, replace(settings, seed=s)).to_json()["decisions"]) for s in range(4)}
    assert len(chances) > 1, "the seed drives the sampling"


def test_the_analysis_is_json_data_with_each_seat_summarised() -> None:
    record = tiny_record([3, 1, 4], [1, 0, 1, 0, 0, 1])
    data = analyse_record(record, replace(FAST, rollouts=4)).to_json()
    assert json.loads(json.dumps(data)) == data
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert {d["seat"] for d in data["decisions"]} == {0, 1, 2}
    assert data["settings"]["thresholds"] == [0.05, 0.10, 0.15]
    for decision in data["decisions"]:
        assert decision["chance_before"] >= decision["chance_after"]
        assert decision["lost"] == pytest.approx(decision["chance_before"] - decision["chance_after"])


def test_the_html_report_escapes_every_text() -> None:
    record = replace(tiny_record([4, 2], [0, 1], rounds=1), seats=["<script>alert(1)</script>", "b&b"])
    page = analysis_html(analyse_record(record, FAST), title="<b>x</b>")
    assert "<script>" not in page and "&lt;script&gt;" in page and "b&amp;b" in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page
    assert "blunder" in page


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (AnalysisSettings(seat=2, policy="random"), "seat 2"),
        (AnalysisSettings(rollouts=0, policy="random"), "rollouts"),
        (AnalysisSettings(budget=-1.0, policy="random"), "budget"),
        (AnalysisSettings(thresholds=(0.2, 0.1, 0.3), policy="random"), "thresholds"),
    ],
)
def test_bad_settings_are_refused(settings: AnalysisSettings, message: str) -> None:
    with pytest.raises(AnalysisError, match=message):
        analyse_record(tiny_record([1, 2], [0, 0, 0, 0]), settings)


def test_a_game_without_the_rollout_policy_is_refused_before_any_work() -> None:
    with pytest.raises(BotError):
        analyse_record(tiny_record([1, 2], [0, 0, 0, 0]), AnalysisSettings(policy="heuristic"))


def test_too_few_samples_earn_no_label() -> None:
    record = tiny_record([4, 2], [0, 1], rounds=1)
    [short] = analyse_record(record, replace(FAST, seat=0, rollouts=MIN_LABEL_SAMPLES - 1)).decisions
    assert short.samples == MIN_LABEL_SAMPLES - 1 and short.lost == 1.0 and short.label is None
    [full] = analyse_record(record, replace(FAST, seat=0, rollouts=MIN_LABEL_SAMPLES)).decisions
    assert full.samples == MIN_LABEL_SAMPLES and full.label == "blunder" and full.noise == 0.0


def test_the_analysis_round_trips_through_json() -> None:
    record = tiny_record([3, 1, 4], [1, 0, 1, 0, 0, 1])
    analysis = analyse_record(record, replace(FAST, rollouts=4, budget=60.0))
    data = json.loads(json.dumps(analysis.to_json()))
    assert GameAnalysis.from_json(data) == analysis
    assert data["complete"] is True and data["unanalysed"] == 0
    assert all(d["samples"] == 4 and d["cut_short"] is False for d in data["decisions"])
