"""ISMCTS beats random clearly, by a margin that a search ignoring its values does not reach."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.bots import registry
from shadowtable.bots.ismcts import ISMCTSBot
from shadowtable.sim.tournament import TournamentResult, run_tournament

GAMES = 300


class ValueBlindISMCTS(ISMCTSBot):
    """Broken on purpose: every rollout scores the same, so values never guide the search."""

    def rollout(self, game: Any, state: Any, rng: random.Random) -> list[float]:
        return [0.5] * game.players


class NoisyValueISMCTS(ISMCTSBot):
    """Broken on purpose: rollouts return noise instead of the game's returns."""

    def rollout(self, game: Any, state: Any, rng: random.Random) -> list[float]:
        return [rng.random() for _ in range(game.players)]


@pytest.fixture
def broken_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._FACTORIES, "value-blind-ismcts", ValueBlindISMCTS)
    monkeypatch.setitem(registry._FACTORIES, "noisy-ismcts", NoisyValueISMCTS)


def clearly_beats(result: TournamentResult, strong: str, weak: str) -> bool:
    """The strong bot's 95% win-rate interval lies wholly above the weak bot's."""
    return result.bots[strong].win_interval[0] > result.bots[weak].win_interval[1]


def _head_to_head(spec: str, seed: int = 11) -> TournamentResult:
    return run_tournament("tiny-showdown", 2, [spec, "random"], GAMES, seed)


@pytest.mark.parametrize("spec", ["ismcts:iterations=100", "ismcts:iterations=100:tree=observations"])
def test_ismcts_clearly_beats_random(spec: str) -> None:
    assert clearly_beats(_head_to_head(spec), spec, "random")


@pytest.mark.usefixtures("broken_bots")
@pytest.mark.parametrize("broken", ["value-blind-ismcts:iterations=100", "noisy-ismcts:iterations=100"])
def test_the_margin_is_out_of_reach_of_a_search_that_ignores_values(broken: str) -> None:
    result = _head_to_head(broken)
    assert not clearly_beats(result, broken, "random")


def test_ismcts_beats_random_at_three_players() -> None:
    result = run_tournament("tiny-showdown", 3, ["ismcts:iterations=100", "random"], 150, seed=5)
    assert result.bots["ismcts:iterations=100"].win_rate > result.bots["random"].win_rate
