"""The ISMCTS benchmark script runs and prints its table (a smoke test; no timing assertions)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_ismcts.py"


def _load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ismcts", BENCH_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_benchmark_prints_medians_for_the_tiny_game(capsys: pytest.CaptureFixture[str]) -> None:
    _load_bench().main(["--runs", "5", "--decisions", "3", "--iterations", "10", "--players", "3"])
    out = capsys.readouterr().out
    assert "tiny-showdown (3 players): 10 iterations" in out
    assert "iterations / s" in out and "decision time (ms)" in out


def test_benchmark_positions_are_real_choices() -> None:
    bench = _load_bench()
    game = bench.load_game("tiny-showdown", 2)
    positions = bench.decision_positions(game, 5, seed=1)
    assert len(positions) == 5
    assert all(len(p.legal) > 1 and p.observation["seat"] == p.seat for p in positions)


def test_benchmark_refuses_fewer_than_five_runs() -> None:
    with pytest.raises(SystemExit):
        _load_bench().main(["--runs", "3"])


def test_benchmark_counts_the_iterations_a_spec_bot_really_ran(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load_bench()
    bench.main(["--runs", "5", "--decisions", "3", "--spec", "ismcts:time=0.01:prior=random"])
    out = capsys.readouterr().out
    assert "0.01 s, tree actions, rollout random, prior random" in out
    speed = next(line for line in out.splitlines() if line.startswith("iterations / s"))
    assert float(speed.split()[3]) > 0  # counted from last_iterations, not from a fixed budget
