"""Saved demonstrations: a teacher's choices collected once (in several processes) and copied by a
network, a guided one learning where the teacher departs from its guide."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from learn.test_imitation import RAISE, AlwaysRaises
from learn.test_trainer import TINY
from shadowtable.bots import registry
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.learn import trainer
from shadowtable.learn.imitation import (
    demonstrations,
    game_demonstrations,
    joined,
    load_demonstrations,
    save_demonstrations,
)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "collect_demonstrations.py"


class NeverRaises:
    """Never raises where it can help it: a guide the teacher (always raises) departs from."""

    def choose(self, game: Game[Any], seat: int, observation: Any, legal: list[int], rng: random.Random) -> int:
        return next((action for action in legal if action != RAISE), legal[0])


@pytest.fixture(autouse=True)
def planted_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._FACTORIES, "always-raises", lambda **_: AlwaysRaises())
    monkeypatch.setitem(registry._FACTORIES, "never-raises", lambda **_: NeverRaises())


def saved(path: Path, games: int = 60, guide: str = "never-raises", game_id: str = "tiny-showdown") -> Path:
    """``games`` games of the teacher (always raises) in seat ``i % 2`` against random, saved."""
    game = make(game_id, players=2)
    parts = [
        game_demonstrations(game, ["always-raises" if s == i % 2 else "random" for s in range(2)], [i % 2], i, guide)
        for i in range(games)
    ]
    meta = {"game": game_id, "players": 2, "options": {}, "teacher": "always-raises", "guide": guide}
    save_demonstrations(joined(parts, meta), path)
    return path


def raise_probability(run: trainer.Run) -> float:
    """The network's mean probability of raising over random games' decisions (guide: never raise)."""
    demos = demonstrations(run.game, "random", 50, random.Random(1))
    guide = registry.make_bot("never-raises")
    guides = torch.tensor(
        [guide.choose(run.game, 0, None, np.flatnonzero(mask).tolist(), random.Random(0)) for mask in demos.masks]
    )
    with torch.no_grad():
        logits, _ = run.net(torch.from_numpy(demos.observations), torch.from_numpy(demos.masks), guides)
    return float(torch.softmax(logits, dim=-1)[:, RAISE].mean())


def test_a_game_keeps_only_the_teachers_choices_with_the_guides_beside_them() -> None:
    game = make("tiny-showdown", players=3)
    demos = game_demonstrations(game, ["random", "always-raises", "random"], [1], seed=5, guide="never-raises")
    assert len(demos) == 2  # two betting rounds, the teacher's seat only
    assert demos.actions.tolist() == [RAISE, RAISE]
    assert demos.guides is not None and RAISE not in demos.guides.tolist()


def test_saved_demonstrations_load_as_written_and_are_never_overwritten(tmp_path: Path) -> None:
    path = saved(tmp_path / "demos.npz", games=6)
    demos = load_demonstrations(path)
    assert len(demos) == 6 * 2 and demos.meta["teacher"] == "always-raises" and demos.guides is not None
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        saved(path, games=2)
    assert path.read_bytes() == before
    (tmp_path / "other.npz").write_bytes(b"not numpy")
    with pytest.raises(ValueError, match="not a demonstrations file"):
        load_demonstrations(tmp_path / "other.npz")


def test_a_guided_network_learns_where_the_teacher_departs_from_its_guide(tmp_path: Path) -> None:
    settings = replace(TINY, guide="never-raises", imitate_from=str(saved(tmp_path / "d.npz")), imitate_epochs=30)
    run = trainer.start(settings, tmp_path / "run")
    assert raise_probability(run) < 0.1  # the new network follows its guide
    trainer.train(run, tmp_path / "run", until=0)
    assert run.imitation is not None and run.imitation["teacher"] == "always-raises"
    assert run.imitation["decisions"] == 60 * 2 and run.imitation["accuracy"] == 1.0
    assert raise_probability(run) > 0.6  # it now mostly raises where its guide would not
    assert (tmp_path / "run" / trainer.POLICY).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"imitate": "random"}, "not both"),
        ({"guide": "random"}, "kept the choices of guide 'never-raises', not of 'random'"),
        ({"players": 3}, "demonstrations of"),
    ],
)
def test_a_warm_start_that_cannot_be_is_refused_before_the_run_starts(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    planned = {"guide": "never-raises", "imitate_from": str(saved(tmp_path / "d.npz", games=2))}
    settings = replace(TINY, **{**planned, **change})
    with pytest.raises(ValueError, match=message):
        trainer.start(settings, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def collect(out: Path, workers: int, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--game", "shadowlord", "--players", "2", "--teacher", "random"]
    command += ["--guide", "heuristic", "--games", "3", "--workers", str(workers), "--label", "test", "--out", str(out)]
    return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow  # 35 s: three runs of the script
def test_the_collection_script_gives_the_same_file_with_any_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    assert collect(one, 1).returncode == 0 and collect(two, 2).returncode == 0
    a, b = load_demonstrations(one), load_demonstrations(two)
    assert len(a) > 100 and a.meta["teacher"] == "random" and a.meta["opponent"] == "heuristic"
    for name in ("observations", "masks", "actions", "returns", "guides"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    refused = collect(one, 1)
    assert refused.returncode == 2 and refused.stderr.startswith("error:") and "exists" in refused.stderr
    bad = collect(tmp_path / "bad.npz", 1, "--players", "9")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and not (tmp_path / "bad.npz").exists()
    bot = collect(tmp_path / "bot.npz", 1, "--teacher", "nosuchbot")
    assert bot.returncode == 2 and len(bot.stderr.strip().splitlines()) == 1 and "unknown bot" in bot.stderr


def test_the_holdout_benchmark_scores_a_learnable_teacher_on_rows_it_never_trained_on(tmp_path: Path) -> None:
    from benchmark_script import load_benchmark

    bench = load_benchmark("imitation_holdout")
    path, out = saved(tmp_path / "d.npz", games=80), tmp_path / "h.json"
    args = [str(path), "--weights", "1", "--lrs", "1e-2", "--epochs", "1,20", "--hidden", "16", "--out", str(out)]
    assert bench.main(args) == 0
    result = json.loads(out.read_text())
    assert result["rows"] == 160 and result["held_out"] == 16 and result["guide_alone"] == 0.0
    once, twenty = result["settings"]
    assert twenty["departures_found"] == twenty["agreement"] == 1.0  # always raising is learnt
    assert once["epochs"] == 1 and twenty["train_agreement"] >= once["train_agreement"]
    (tmp_path / "bad.npz").write_bytes(b"no")
    assert bench.main([str(tmp_path / "bad.npz")]) == 2


def test_no_iterations_without_a_warm_start_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shadowtable.cli import main

    out = tmp_path / "run"
    assert main(["train", "shadowlord", "--players", "2", "--out", str(out), "--iterations", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: --iterations 0 trains nothing")
    assert not out.exists()
