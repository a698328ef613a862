"""The warm start: the network copies a bot's real choices before self-play, once per run."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import torch

from learn.test_trainer import TINY
from shadowtable.bots import registry
from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.registry import make
from shadowtable.core.rng import sample_outcome
from shadowtable.learn import trainer
from shadowtable.learn.imitation import demonstrations

RAISE = 1


class AlwaysRaises:
    """Raises whenever it may: wins about 0.70 of the tiny game against a random opponent."""

    def choose(self, game: Game[Any], seat: int, observation: Any, legal: list[int], rng: random.Random) -> int:
        return RAISE if RAISE in legal else legal[0]


@pytest.fixture(autouse=True)
def always_raises_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot is registered for these tests only (the server lists every registered bot)."""
    monkeypatch.setitem(registry._FACTORIES, "always-raises", lambda **_: AlwaysRaises())


WARM = replace(TINY, iterations=2, games=32, imitate="always-raises", imitate_games=60, imitate_epochs=30, seed=3)


def _raise_probability(run: trainer.Run) -> float:
    """The network's mean probability of raising, over the decisions of random games."""
    demos = demonstrations(run.game, "random", 100, random.Random(1))
    with torch.no_grad():
        logits, _ = run.net(torch.from_numpy(demos.observations), torch.from_numpy(demos.masks))
    return float(torch.softmax(logits, dim=-1)[:, RAISE].mean())


def test_demonstrations_hold_every_real_choice_from_the_choosers_seat() -> None:
    game = make("tiny-showdown", players=3)
    demos = demonstrations(game, "always-raises", 5, random.Random(2))
    assert len(demos) == 5 * 3 * 2  # two betting rounds, three seats, always two legal actions
    assert set(demos.actions.tolist()) == {RAISE}
    assert demos.masks.all()
    # each row is the chooser's own encoded observation, and its return is that seat's return
    replay = random.Random(2)
    game_rng = random.Random(replay.getrandbits(64))
    state, seats = game.initial_state(), []
    while game.current_player(state) != TERMINAL:
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), game_rng))
            continue
        seats.append(player)
        state = game.apply(state, RAISE)
    assert demos.returns[: len(seats)].tolist() == [float(game.returns(state)[s]) for s in seats]


def test_a_warm_start_copies_the_bot_before_any_self_play(tmp_path: Path) -> None:
    run = trainer.start(WARM, tmp_path)
    untrained = _raise_probability(run)
    trainer.train(run, tmp_path, until=0)
    assert run.iteration == 0 and run.imitation is not None
    assert run.imitation["decisions"] == 60 * 2 * 2 and run.imitation["accuracy"] == 1.0
    assert untrained < 0.9 < _raise_probability(run)
    assert trainer.win_rate(run, "random", 400, seed=4) > 0.62  # uniform play wins about 0.5
    assert (tmp_path / trainer.IMITATION).exists()
    assert torch.equal(run.league[0].policy.weight, run.net.policy.weight)  # the copy is the first past self


def test_a_run_without_imitation_does_not_copy(tmp_path: Path) -> None:
    run = trainer.start(trainer.TrainSettings(**{**WARM.__dict__, "imitate": ""}), tmp_path)
    trainer.train(run, tmp_path, until=0)
    assert run.imitation is None and not (tmp_path / trainer.IMITATION).exists()
    assert _raise_probability(run) < 0.9


def test_a_resumed_run_neither_repeats_nor_loses_its_warm_start(tmp_path: Path) -> None:
    straight = trainer.train(trainer.start(WARM, tmp_path / "a"), tmp_path / "a", 2)
    trainer.train(trainer.start(WARM, tmp_path / "b"), tmp_path / "b", 0)
    written = (tmp_path / "b" / trainer.IMITATION).stat().st_mtime_ns
    resumed = trainer.start(WARM, tmp_path / "b", resume=True)
    assert resumed.imitation == {**straight.imitation, "seconds": resumed.imitation["seconds"]}  # type: ignore[dict-item]
    trainer.train(resumed, tmp_path / "b", 2)
    assert (tmp_path / "b" / trainer.IMITATION).stat().st_mtime_ns == written
    for name, tensor in straight.net.state_dict().items():
        assert torch.equal(tensor, resumed.net.state_dict()[name]), name
