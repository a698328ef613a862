"""Self-play PPO: it learns the tiny game within seconds, and a resumed run is the same run."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from shadowtable.learn import trainer
from shadowtable.learn.network import half_precision, policy_record
from shadowtable.learn.portable import write_portable
from shadowtable.learn.ppo import advantages
from shadowtable.sim.stats import wilson_interval

TINY = trainer.TrainSettings(
    game="tiny-showdown",
    players=2,
    iterations=8,
    games=128,
    hidden=(32,),
    lr=3e-3,
    self_play=0.0,
    league=(("random", 1.0),),
    eval_every=0,
    eval_against=("random",),
    seed=1,
)


def wilson(rate: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate over ``games`` games."""
    return wilson_interval(round(rate * games), games)


def test_ppo_learns_the_tiny_game_against_random(tmp_path: Path) -> None:
    run = trainer.start(TINY, tmp_path)
    before = trainer.win_rate(run, "random", 600, seed=7)
    trainer.train(run, tmp_path, TINY.iterations)
    after = trainer.win_rate(run, "random", 600, seed=7)
    # always raising wins 0.70 against a random opponent; uniform play about 0.5
    assert wilson(before, 600)[1] < wilson(after, 600)[0], (before, after)
    assert after > 0.62


def test_a_learner_pushed_the_wrong_way_does_not_learn(tmp_path: Path) -> None:
    run = trainer.start(TINY, tmp_path)
    for group in run.optimizer.param_groups:
        group["maximize"] = True  # ascends the loss: the test above must be able to fail
    trainer.train(run, tmp_path, TINY.iterations)
    assert trainer.win_rate(run, "random", 600, seed=7) < 0.6


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(stream)]


def test_a_resumed_run_makes_exactly_the_updates_of_an_uninterrupted_one(tmp_path: Path) -> None:
    settings = trainer.TrainSettings(
        **{
            **TINY.__dict__,
            "iterations": 4,
            "games": 32,
            "self_play": 0.5,
            "league": (("random", 0.5), ("past", 0.5)),
            "snapshot_every": 1,
            "eval_every": 2,
            "eval_games": 20,
        }
    )
    straight = trainer.train(trainer.start(settings, tmp_path / "a"), tmp_path / "a", 4)
    first = trainer.train(trainer.start(settings, tmp_path / "b"), tmp_path / "b", 2)
    del first
    resumed = trainer.train(trainer.start(settings, tmp_path / "b", resume=True), tmp_path / "b", 4)
    for name, tensor in straight.net.state_dict().items():
        assert torch.equal(tensor, resumed.net.state_dict()[name]), name
    assert len(resumed.league) == len(straight.league) == 5
    assert _rows(tmp_path / "a" / trainer.PROGRESS) == _rows(tmp_path / "b" / trainer.PROGRESS)


def test_a_run_never_overwrites_a_folder_unasked(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match="not empty"):
        trainer.start(TINY, tmp_path)
    with pytest.raises(ValueError, match="no checkpoint"):
        trainer.start(TINY, tmp_path, resume=True)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def _weights(net: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {name: tensor.clone() for name, tensor in net.state_dict().items()}


def test_a_run_started_from_a_saved_policy_has_its_weights(tmp_path: Path) -> None:
    trained = trainer.train(trainer.start(TINY, tmp_path / "a"), tmp_path / "a", 1)
    saved = tmp_path / "a" / trainer.POLICY
    started = trainer.start(replace(TINY, seed=2, start_from=str(saved)), tmp_path / "b")
    fresh = trainer.start(replace(TINY, seed=2), tmp_path / "c")
    for name, tensor in _weights(trained.net).items():
        assert torch.equal(started.net.state_dict()[name], tensor), name
        assert torch.equal(started.league[0].state_dict()[name], tensor), name  # the first past self too
    assert any(not torch.equal(fresh.net.state_dict()[n], t) for n, t in _weights(trained.net).items())


def test_a_run_started_from_a_shipped_file_has_its_16_bit_weights_widened(tmp_path: Path) -> None:
    trained = trainer.train(trainer.start(TINY, tmp_path / "a"), tmp_path / "a", 1)
    shipped = tmp_path / "tiny.npz"
    write_portable(half_precision(policy_record(trained.net, "tiny-showdown", 2, {})), shipped)
    started = trainer.start(replace(TINY, start_from=str(shipped)), tmp_path / "b")
    for name, tensor in _weights(trained.net).items():
        assert torch.equal(started.net.state_dict()[name], tensor.half().float()), name


def test_a_shipped_file_without_the_value_trunk_starts_that_trunk_afresh(tmp_path: Path) -> None:
    settings = replace(TINY, separate_value=True)
    trained = trainer.train(trainer.start(settings, tmp_path / "a"), tmp_path / "a", 1)
    record = policy_record(trained.net, "tiny-showdown", 2, {})
    kept = {n: t for n, t in record["state_dict"].items() if not n.startswith(trainer.VALUE_TRUNK)}
    assert len(kept) < len(record["state_dict"])
    shipped = tmp_path / "tiny.npz"
    write_portable({**record, "state_dict": kept}, shipped)
    started = trainer.start(replace(settings, start_from=str(shipped)), tmp_path / "b")
    fresh = trainer.start(settings, tmp_path / "c")
    for name, tensor in started.net.state_dict().items():
        expected = kept[name].half().float() if name in kept else fresh.net.state_dict()[name]
        assert torch.equal(tensor, expected), name


def test_a_run_started_from_a_policy_resumes_without_it(tmp_path: Path) -> None:
    trainer.train(trainer.start(TINY, tmp_path / "a"), tmp_path / "a", 1)
    moved = tmp_path / "start.pt"
    (tmp_path / "a" / trainer.POLICY).rename(moved)
    settings = replace(TINY, iterations=2, games=16, start_from=str(moved))
    straight = trainer.train(trainer.start(settings, tmp_path / "b"), tmp_path / "b", 2)
    trainer.train(trainer.start(settings, tmp_path / "c"), tmp_path / "c", 1)
    moved.unlink()  # a resumed run takes its weights from its checkpoint
    resumed = trainer.train(trainer.start(settings, tmp_path / "c", resume=True), tmp_path / "c", 2)
    for name, tensor in straight.net.state_dict().items():
        assert torch.equal(resumed.net.state_dict()[name], tensor), name


def test_a_policy_of_another_shape_or_game_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    trainer.train(trainer.start(TINY, tmp_path / "a"), tmp_path / "a", 1)
    saved = str(tmp_path / "a" / trainer.POLICY)
    with pytest.raises(ValueError, match="give --hidden 32"):
        trainer.start(replace(TINY, hidden=(16,), start_from=saved), tmp_path / "b")
    with pytest.raises(ValueError, match="a policy for tiny-showdown with 2 players"):
        trainer.start(replace(TINY, game="shadow-planet", players=3, start_from=saved), tmp_path / "b")
    with pytest.raises(ValueError, match="no policy ships for tiny-showdown"):
        trainer.start(replace(TINY, start_from="shipped"), tmp_path / "b")
    with pytest.raises(ValueError, match="would replace it"):
        trainer.start(replace(TINY, start_from=saved, imitate="random"), tmp_path / "b")
    assert not (tmp_path / "b").exists()


def test_advantages_of_a_finished_game() -> None:
    assert advantages([0.0, 1.0], [0.5, 0.5], gamma=1.0, lam=1.0) == [0.5, 0.5]
    assert advantages([0.0, 0.0, 1.0], [0.0, 0.0, 0.0], gamma=1.0, lam=0.5) == [0.25, 0.5, 1.0]


@pytest.mark.parametrize(("available", "expected"), [(True, "cuda"), (False, "cpu")])
def test_device_auto_picks_cuda_where_it_is_available(
    monkeypatch: pytest.MonkeyPatch, available: bool, expected: str
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: available)
    assert trainer.pick_device("auto").type == expected
    assert trainer.pick_device("cpu").type == "cpu"


def test_device_cuda_without_cuda_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="CUDA is not available"):
        trainer.pick_device("cuda")
    with pytest.raises(ValueError, match="use auto, cpu"):
        trainer.pick_device("gpu")
