"""Labels go beyond the noise: choices that differ only by luck are not called mistakes."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from shadowtable.analysis import AnalysisSettings, DecisionPoint, analyse_decision
from shadowtable.analysis.model import label_for, noise_z
from shadowtable.core.game import CHANCE, TERMINAL, Game

DECIDE, FLIP, OVER = 0, 1, 2


class CoinGame:
    """One decision of seat 0 among ``choices``, then a fair coin: choice ``c`` wins on side
    ``c % 2`` (``same``: every choice wins on heads). Every choice wins half the time; with
    ``same`` false, two of them are scored on opposite sides of the same coin, the noisiest
    pair common random numbers can give."""

    players = 2

    def __init__(self, choices: int = 2, same: bool = False) -> None:
        self.choices = choices
        self.same = same
        self.spec = SimpleNamespace(id="coin-test", max_utility=1.0, max_game_length=4)
        self.words = SimpleNamespace(action_to_str=lambda state, action: f"choice {action}")

    def current_player(self, state: tuple[int, int, int]) -> int:
        return {DECIDE: 0, FLIP: CHANCE, OVER: TERMINAL}[state[0]]

    def legal_actions(self, state: tuple[int, int, int]) -> list[int]:
        return list(range(self.choices)) if state[0] == DECIDE else []

    def chance_outcomes(self, state: tuple[int, int, int]) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def apply_unchecked(self, state: tuple[int, int, int], action: int) -> tuple[int, int, int]:
        return (FLIP, action, -1) if state[0] == DECIDE else (OVER, state[1], action)

    def is_terminal(self, state: tuple[int, int, int]) -> bool:
        return state[0] == OVER

    def returns(self, state: tuple[int, int, int]) -> list[float]:
        side = 0 if self.same else state[1] % 2
        return [1.0, 0.0] if state[2] == side else [0.0, 1.0]

    def observe(self, state: tuple[int, int, int], seat: int) -> dict[str, Any]:
        return {"state": state}

    def determinize(self, observation: dict[str, Any], rng: random.Random) -> tuple[int, int, int]:
        state: tuple[int, int, int] = observation["state"]
        return state


def labels(choices: int, same: bool, seeds: int, action: int = 1) -> list[str | None]:
    """The label of seat 0's choice of ``action`` under each of ``seeds`` analysis seeds."""
    game = cast(Game[Any], CoinGame(choices, same))
    point = DecisionPoint(seat=0, number=0, ply=0, state=(DECIDE, -1, -1), action=action)
    found = []
    for seed in range(seeds):
        decision = analyse_decision(game, point, AnalysisSettings(rollouts=16, seed=seed), cast(Any, None))
        assert decision is not None and decision.samples == 16
        found.append(decision.label)
    return found


def test_two_choices_identical_in_effect_are_never_labelled() -> None:
    assert labels(2, same=True, seeds=300) == [None] * 300


@pytest.mark.parametrize("choices", [2, 6])
def test_equal_choices_on_opposite_luck_are_labelled_only_at_the_tests_rate(choices: int) -> None:
    found = labels(choices, same=False, seeds=400)
    # Without the noise margin, a lost chance of 5 points is half the draws' luck alone.
    game = cast(Game[Any], CoinGame(choices, same=False))
    point = DecisionPoint(seat=0, number=0, ply=0, state=(DECIDE, -1, -1), action=1)
    naive = 0
    for seed in range(400):
        decision = analyse_decision(game, point, AnalysisSettings(rollouts=16, seed=seed), cast(Any, None))
        assert decision is not None
        naive += decision.lost >= 0.05
    assert naive > 120
    # A two-sided 5% test shared by the alternatives: for two choices one side of it, 3.8% of
    # draws on 16 samples (12 or more of 16 coins one way), less with more choices; 5% of 400
    # draws allows for the binomial spread.
    assert sum(label is not None for label in found) <= 0.05 * 400


def test_the_margin_grows_with_the_alternatives_compared() -> None:
    assert noise_z(2) == pytest.approx(1.96, abs=0.005)
    assert noise_z(50) == pytest.approx(3.29, abs=0.01)
    assert noise_z(2) < noise_z(3) < noise_z(10) < noise_z(50)
    # 12 points lost on 16 samples, a standard error of 5 points: a mistake with two choices,
    # noise with fifty.
    assert label_for(0.12, (0.05, 0.10, 0.15), 16, noise=0.05, choices=2) == "mistake"
    assert label_for(0.12, (0.05, 0.10, 0.15), 16, noise=0.05, choices=50) is None
    assert label_for(0.12, (0.05, 0.10, 0.15), 16, noise=None, choices=2) is None
