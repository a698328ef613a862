"""The side-by-side benchmark of self-play collection now and at an earlier commit: both sides
collect the same games from the same network, the ratio is theirs, and bad input is one error line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmark_script import load_benchmark


def test_both_sides_collect_the_same_games_and_the_ratio_is_theirs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("selfplay_then_and_now")
    argv = ["shadowlord", "--players", "2", "--then", "HEAD", "--pure", "--games", "2", "--runs", "1"]
    assert bench.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    then, now = out["then_collection"], out["now_collection"]
    assert out["compiled"]["then"] is False  # --pure: the earlier tree was not built
    assert then["decisions"] == now["decisions"] > 0  # the same commit's code plays the same games
    assert len(then["per_cpu_s"]) == len(now["per_cpu_s"]) == 1
    assert out["ratio_per_cpu_s"] == pytest.approx(now["median"] / then["median"])
    assert out["encoding"] == [3041]


def test_two_encodings_of_different_sizes_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_benchmark("selfplay_then_and_now")

    def collect(src: Any, *args: Any) -> dict[str, Any]:
        shape = [10] if "shadowtable-then-" in str(src) else [20]
        return {"module": "", "compiled": True, "shape": shape, "decisions": 5, "cpu_s": 1.0}

    monkeypatch.setattr(bench, "collect", collect)
    monkeypatch.setattr(bench, "take", lambda revision, folder: folder)
    monkeypatch.setattr(bench, "build", lambda tree: None)
    assert bench.main(["shadowlord", "--players", "2", "--runs", "1"]) == 2
    assert capsys.readouterr().err.startswith("error: the encodings differ in size")


@pytest.mark.parametrize(
    ("argv", "starts"),
    [
        (["nosuch", "--players", "4"], "error: unknown game"),
        (["shadowlord", "--players", "2", "--then", "nosuchrev"], "error: git cannot give the tree of 'nosuchrev'"),
        (["shadowlord", "--players", "2", "--runs", "0"], "error: --games and --runs"),
    ],
)
def test_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str], starts: str) -> None:
    assert load_benchmark("selfplay_then_and_now").main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(starts) and err.count("\n") == 1
