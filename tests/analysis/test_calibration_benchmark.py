"""The calibration benchmark: its output's shape on three tiny runs, and its scores by hand."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_script import load_benchmark
from shadowtable.analysis.calibration import calibrated, clipped_logit, fit_logistic, sigmoid


def load_bench() -> ModuleType:
    return load_benchmark("analysis_calibration")


def test_three_tiny_games_give_every_figure_and_a_plot(tmp_path: Path) -> None:
    bench = load_bench()
    out, plot, pairs = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "p.jsonl"
    bench.main(["--games", "3", "--rollouts", "2", "--out", str(out), "--plot", str(plot), "--pairs", str(pairs)])
    result = json.loads(out.read_text())
    assert result["game"] == "shadow-planet" and result["players"] == 4 and result["games"] == 3
    assert result["pairs"] == 3 and result["rollouts"] == 2
    assert "analysis-calibration" in result["seeds"]
    for name in ("raw", "raw_after"):
        scores = result[name]
        assert 0.0 <= scores["brier"] <= 1.0
        low, high = scores["brier_95"]
        assert low <= high
        assert len(scores["reliability"]) == 10
        assert sum(row["count"] for row in scores["reliability"]) == 3
        assert math.isfinite(scores["slope"]) and math.isfinite(scores["intercept"])
    assert 0.0 <= result["base_rate"]["brier"] <= 0.25
    assert plot.read_bytes().startswith(b"\x89PNG")
    lines = pairs.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["meta"]["games"] == 3
    # A report from the saved pairs is the same report.
    again = tmp_path / "again.json"
    bench.main(["--from-pairs", str(pairs), "--out", str(again)])
    assert {k: v for k, v in json.loads(again.read_text()).items() if k != "seconds"} == {
        k: v for k, v in result.items() if k != "seconds"
    }


def test_brier_and_base_rate_by_hand() -> None:
    bench = load_bench()
    assert bench.brier([0.8, 0.3, 0.5], [True, False, True]) == pytest.approx((0.04 + 0.09 + 0.25) / 3)
    pairs = [{"game": g, "won": w, "before": 0.5, "samples": 16} for g, w in enumerate([True, False, False, False])]
    base = bench.base_rate(pairs)
    assert base["win_rate"] == 0.25
    assert base["brier"] == pytest.approx((0.75**2 + 3 * 0.25**2) / 4)
    rows = bench.reliability([0.05, 0.07, 0.55, 1.0], [False, True, True, True])
    assert [row["count"] for row in rows] == [2, 0, 0, 0, 0, 1, 0, 0, 0, 1]
    assert rows[0]["predicted"] == pytest.approx(0.06) and rows[0]["observed"] == 0.5


def test_the_logistic_fit_recovers_a_known_map() -> None:
    rng = random.Random(3)
    x = [rng.uniform(-3, 3) for _ in range(4000)]
    y = [rng.random() < sigmoid(0.7 * xi - 0.3) for xi in x]
    a, b = fit_logistic(x, y)
    assert a == pytest.approx(0.7, abs=0.08) and b == pytest.approx(-0.3, abs=0.08)


def test_a_map_is_applied_to_sampled_chances_and_never_to_exact_ones(tmp_path: Path) -> None:
    bench = load_bench()
    path = tmp_path / "calibration.json"
    pairs = [{"game": i, "after": (i % 17) / 16, "samples": 16, "won": i % 3 == 0} for i in range(200)]
    entry = bench.store_map(pairs, {"game": "g", "players": 3, "rollouts": 16, "games": 200, "per_game": 1}, path)
    assert json.loads(path.read_text())["g/3"] == entry and entry["pairs"] == 200
    assert clipped_logit(0.0, 16) == pytest.approx(math.log(1 / 33))
    assert calibrated(0.0, 16, "no-such-game", 3) == 0.0
    assert calibrated(0.0, 16, "shadow-planet", 4, exact=True) == 0.0


def test_a_real_games_sampled_chances_go_through_its_stored_map() -> None:
    from tests.analysis.helpers import planted

    from shadowtable.analysis import AnalysisSettings, analyse_decision, decision_points, rollout_policy
    from shadowtable.analysis.calibration import load_maps
    from shadowtable.core.record import game_for_record

    record = planted("shadow-planet-wrong-identity")
    game = game_for_record(record)
    entry = load_maps()[f"{game.spec.id}/{game.players}"]
    assert "analysis-recalibration-fit" in entry["seeds"] and entry["pairs"] >= 100
    points = [p for p in decision_points(record, 0) if len(game.legal_actions(p.state)) > 1]
    policy = rollout_policy(game, "heuristic")
    decision = analyse_decision(game, points[-3], AnalysisSettings(seat=0, rollouts=4), policy)
    assert decision is not None
    for alt in decision.alternatives:
        if alt.exact:
            assert alt.chance == alt.raw_chance
        else:
            expected = sigmoid(entry["a"] * clipped_logit(alt.raw_chance, 4) + entry["b"])
            assert alt.chance == pytest.approx(expected)
    assert any(not alt.exact for alt in decision.alternatives)


def test_scoring_the_choice_made_alone_gives_the_chance_the_full_analysis_gives_it() -> None:
    from shadowtable.analysis import AnalysisSettings, analyse_decision, chosen_chance, decision_points, rollout_policy
    from shadowtable.core.registry import make
    from shadowtable.core.runner import play_game
    from shadowtable.games.shadow_planet.heuristic import ShadowPlanetHeuristicBot

    game = make("shadow-planet", players=3)
    record = play_game(game, [ShadowPlanetHeuristicBot() for _ in range(3)], 7)
    settings = AnalysisSettings(rollouts=3, seed=7, policy="random")
    policy = rollout_policy(game, settings.policy)
    points = [p for p in decision_points(record) if len(game.legal_actions(p.state)) > 2][:4]
    assert points
    for point in points:
        full = analyse_decision(game, point, settings, policy)
        assert full is not None
        made = next(alt for alt in full.alternatives if alt.action == point.action)
        assert chosen_chance(game, point, settings, policy) == (made.raw_chance, full.samples, made.exact)


def test_a_resumed_run_keeps_its_games_and_plays_only_the_rest(tmp_path: Path) -> None:
    bench = load_bench()
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    common = ["--games", "3", "--rollouts", "2", "--chosen-only"]
    bench.main([*common, "--pairs", str(whole)])
    bench.main(["--games", "2", "--rollouts", "2", "--chosen-only", "--pairs", str(part)])
    bench.main([*common, "--pairs", str(part), "--resume"])
    assert bench.read_pairs(part)[0] == bench.read_pairs(whole)[0]
    assert all("before" not in pair for pair in bench.read_pairs(part)[0])


def _check(**changes: float) -> dict[str, float | int]:
    check: dict[str, float | int] = {"games": 500, "won": 0.42, "mean_chance": 0.41, "slope": 0.95}
    return check | {"brier": 0.21, "base_rate_brier": 0.24} | changes


def test_the_words_a_player_reads_follow_the_held_out_check() -> None:
    from shadowtable.analysis.calibration import described_calibration

    assert "came true about as often as they say" in described_calibration({"a": 1, "held_out": _check()}, 3)
    assert "run about 6 points high" in described_calibration({"a": 1, "held_out": _check(mean_chance=0.48)}, 4)
    assert "run about 7 points low" in described_calibration({"a": 1, "held_out": _check(mean_chance=0.35)}, 4)
    assert "still too extreme" in described_calibration({"a": 1, "held_out": _check(slope=0.63)}, 3)
    assert "too timid" in described_calibration({"held_out": _check(slope=1.6)}, 3)
    assert "Checked on 500 bot games" in described_calibration({"held_out": _check(games=500)}, 3)
    assert "not yet checked on games kept apart" in described_calibration({"a": 1, "b": 0, "games": 700}, 3)
    unchecked = described_calibration(None, 2)
    assert "not yet checked against real results for 2 players" in unchecked
    assert "played out by the random bot" in described_calibration(None, 2, "random")


def test_a_map_measured_with_heuristic_rollouts_is_not_applied_to_other_rollouts() -> None:
    from shadowtable.analysis.calibration import calibration_words, map_entry

    entry = map_entry("shadow-planet", 4)
    assert entry is not None and "held_out" in entry
    assert calibrated(0.25, 16, "shadow-planet", 4) != 0.25
    assert calibrated(0.25, 16, "shadow-planet", 4, policy="random") == 0.25
    assert map_entry("shadow-planet", 4, "random") is None
    assert "Checked on" in calibration_words("shadow-planet", 4)
    assert "not yet checked" in calibration_words("shadow-planet", 4, "random")


def test_a_held_out_run_is_stored_beside_its_map_and_a_fit_run_is_refused(tmp_path: Path) -> None:
    bench = load_bench()
    path = tmp_path / "calibration.json"
    meta = {"game": "g", "players": 3, "rollouts": 16, "games": 60, "per_game": 1}
    rng = random.Random(5)
    pairs = [{"game": i, "after": rng.randrange(17) / 16, "samples": 16, "won": rng.random() < 0.4} for i in range(60)]
    entry = bench.store_map(pairs, meta, path)
    maps = {"g/3": entry}
    result = bench.report(pairs, {**meta, "seeds": "s", "fit": False}, maps)
    check = bench.store_held_out(result, path)
    stored = json.loads(path.read_text())["g/3"]
    assert stored["held_out"] == check.to_json() and stored["a"] == entry["a"]
    assert check.games == 60 and check.slope == pytest.approx(result["calibrated_after"]["slope"])
    assert check.won == pytest.approx(sum(p["won"] for p in pairs) / 60)
    # A refit map drops the check made of the map before it.
    bench.store_map(pairs[:30], meta, path)
    assert "held_out" not in json.loads(path.read_text())["g/3"]
    with pytest.raises(ValueError, match="another map"):
        bench.store_held_out(result, path)
    with pytest.raises(ValueError, match="fit run"):
        bench.store_held_out({**result, "fit": True}, path)
    # A game without a map keeps a check of its raw chances.
    raw = bench.report(pairs, {**meta, "players": 2, "seeds": "s", "fit": False}, None)
    assert bench.store_held_out(raw, path).slope == pytest.approx(raw["raw_after"]["slope"])
    assert "a" not in json.loads(path.read_text())["g/2"]


def test_the_parts_of_a_split_run_join_into_the_whole_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load_bench()
    whole, early, late = tmp_path / "whole.jsonl", tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    common = ["--rollouts", "2", "--chosen-only", "--fit"]
    maps = tmp_path / "calibration.json"
    original_store = bench.store_map  # a fit run stores its map: into a file of the test's, not the package's
    monkeypatch.setattr(bench, "store_map", lambda pairs, meta: original_store(pairs, meta, maps))
    bench.main([*common, "--games", "4", "--pairs", str(whole)])
    whole_map = json.loads(maps.read_text())["shadow-planet/4"]
    bench.main([*common, "--games", "2", "--pairs", str(early)])
    bench.main([*common, "--games", "4", "--first", "2", "--pairs", str(late)])
    maps.unlink()
    joined, meta = bench.join_pairs([late, early])
    assert sorted(map(json.dumps, joined)) == sorted(map(json.dumps, bench.read_pairs(whole)[0]))
    assert meta["games"] == 4 and meta["seeds"].endswith("for i in range(4)") and meta["fit"] is True
    # Reading the parts reports as the whole run does, and stores the same map when asked.
    out, again = tmp_path / "joined.json", tmp_path / "whole.json"
    bench.main(["--from-pairs", str(early), str(late), "--out", str(out)])
    assert not maps.exists()
    bench.main(["--from-pairs", str(early), str(late), "--store-map", "--out", str(out)])
    bench.main(["--from-pairs", str(whole), "--out", str(again)])
    assert json.loads(maps.read_text())["shadow-planet/4"] == whole_map
    drop = {"seconds"}
    assert {k: v for k, v in json.loads(out.read_text()).items() if k not in drop} == {
        k: v for k, v in json.loads(again.read_text()).items() if k not in drop
    }
    # A game twice, or another run's pairs, are refused with one error line.
    with pytest.raises(SystemExit, match="error: game 0 is in the pairs twice"):
        bench.main(["--from-pairs", str(whole), str(early)])
    held_out = tmp_path / "held.jsonl"
    bench.main(["--rollouts", "2", "--chosen-only", "--games", "1", "--pairs", str(held_out)])
    with pytest.raises(SystemExit, match="error: .*another run's pairs \\(fit, seeds differ"):
        bench.main(["--from-pairs", str(early), str(held_out)])
    with pytest.raises(SystemExit, match="error: --store-map needs the pairs of a --fit run"):
        bench.main(["--from-pairs", str(held_out), "--store-map"])


def test_rollouts_by_another_policy_are_recorded_and_never_scored_through_the_heuristics_map(tmp_path: Path) -> None:
    bench = load_bench()
    out, pairs = tmp_path / "r.json", tmp_path / "p.jsonl"
    common = ["--games", "2", "--rollouts", "2", "--chosen-only"]
    bench.main([*common, "--policy", "epsilon:p=0.5", "--out", str(out), "--pairs", str(pairs)])
    result = json.loads(out.read_text())
    assert result["policy"] == "epsilon:p=0.5" and bench.read_pairs(pairs)[1]["policy"] == "epsilon:p=0.5"
    assert "raw_after" in result and "calibrated_after" not in result
    heuristic = tmp_path / "h.json"
    bench.main([*common, "--out", str(heuristic)])
    assert json.loads(heuristic.read_text())["calibrated_after"]["brier"] >= 0  # the package's map applies
    later = tmp_path / "later.jsonl"  # game 2 of the same seeds, its rollouts played by the heuristic
    bench.main(["--games", "3", "--first", "2", "--rollouts", "2", "--chosen-only", "--pairs", str(later)])
    with pytest.raises(SystemExit, match=r"another run's pairs \(policy differ"):
        bench.main(["--from-pairs", str(pairs), str(later)])


def test_a_variant_of_a_game_keeps_raw_chances_and_says_they_are_unchecked() -> None:
    from tests.analysis.helpers import FAST, tiny_record

    from shadowtable.analysis import analyse_record
    from shadowtable.analysis.calibration import calibration_words, variant_of
    from shadowtable.analysis.model import GameAnalysis
    from shadowtable.core import make

    assert variant_of(make("shadowlord", players=2)) == ""
    assert variant_of(make("shadowlord", players=2, modified=True)) == "modified"
    assert calibrated(0.25, 16, "shadowlord", 2) != 0.25  # the rulebook's game has a map
    assert calibrated(0.25, 16, "shadowlord", 2, variant="modified") == 0.25  # its variant has none
    assert "Checked on" in calibration_words("shadowlord", 2)
    words = calibration_words("shadowlord", 2, variant="modified")
    assert "not yet checked" in words and "variant of the game (modified)" in words
    assert next(o.default for o in make("tiny-showdown", players=2).spec.options if o.name == "rounds") == 2
    analysis = analyse_record(tiny_record([0, 1], [1, 0], rounds=1), FAST)
    assert analysis.variant == "rounds-1"
    assert GameAnalysis.from_json(analysis.to_json()).variant == analysis.variant
    assert analyse_record(tiny_record([0, 1], [1, 0, 1, 0]), FAST).variant == ""
