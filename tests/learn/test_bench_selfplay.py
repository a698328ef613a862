"""The self-play benchmark: its three ways of collecting, and its timing of the network alone (its ceiling
and what 5x would need)."""

from __future__ import annotations

import json

import pytest

from benchmark_script import load_benchmark


def test_the_network_alone_is_timed_on_recorded_decisions_with_the_ceiling_of_batching(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_selfplay")
    argv = ["shadow-planet", "--players", "3", "--games", "4", "--alone-games", "2", "--runs", "1"]
    assert bench.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    forward = out["forward"]
    assert forward["rows"] == 4
    assert forward["ceiling"] == pytest.approx(forward["one_at_a_time_us"] / forward["batched_us"])
    assert forward["game_us_for_5x"] == pytest.approx((forward["one_at_a_time_us"] - 5 * forward["batched_us"]) / 4)
    assert out["batched"]["game_us"] == pytest.approx(1e6 / out["batched"]["per_cpu_s"] - forward["batched_us"])
    assert out["batched"]["decisions"] > 0
    assert out["one at a time"]["decisions"] == out["one at a time, dense"]["decisions"] > 0
    assert [out[way]["sparse"] for way in ("one at a time, dense", "one at a time", "batched")] == [False, True, True]
    dense, sparse, batched = (out[way]["per_cpu_s"] for way in ("one at a time, dense", "one at a time", "batched"))
    assert out["ratio_per_cpu_s"] == pytest.approx(batched / dense)
    assert out["batching_ratio_per_cpu_s"] == pytest.approx(batched / sparse)


def test_bad_counts_are_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("bench_selfplay")
    assert bench.main(["shadow-planet", "--players", "3", "--games", "2", "--alone-games", "3"]) == 2
    assert capsys.readouterr().err.startswith("error: --games")


@pytest.mark.parametrize(("game", "players"), [("nosuch", "4"), ("shadowlord", "9")])
def test_an_unknown_game_or_player_count_is_one_error_line(
    game: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark("bench_selfplay")
    assert bench.main([game, "--players", players]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
