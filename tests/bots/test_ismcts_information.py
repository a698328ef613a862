"""ISMCTS reasons only from its own observation: every state it touches comes from determinize."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from shadowtable.bots import RandomBot, make_bot
from shadowtable.bots.ismcts import ISMCTSBot
from shadowtable.core import Game, Observation, make, play_game

from .spy_game import LeakError, SpiedBot


class FirstLegalBot:
    """A rollout policy that reads its observation (so ``observe`` is exercised) and plays the first action."""

    name = "first-legal"

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
    ) -> int:
        assert observation["seat"] == seat
        return legal[0]


class PeekingBot:
    """Cheats: builds its own state instead of determinizing its observation."""

    name = "peeking"

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
    ) -> int:
        return game.legal_actions(game.initial_state())[0]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rollout", [RandomBot(), FirstLegalBot()], ids=["random", "observing"])
@pytest.mark.parametrize("tree", ["actions", "observations"])
def test_ismcts_touches_only_states_determinized_from_its_observation(players: int, rollout: Any, tree: str) -> None:
    game = make("tiny-showdown", players=players)
    spied = [SpiedBot(ISMCTSBot(iterations=50, rollout=rollout, tree=tree)) for _ in range(players)]
    for seed in range(5):
        record = play_game(game, spied, seed)
        assert record.returns is not None
    for bot in spied:
        assert bot.decisions > 0
        assert bot.determinizations == 50 * bot.decisions


def test_spy_catches_a_bot_that_builds_its_own_state() -> None:
    game = make("tiny-showdown", players=2)
    with pytest.raises(LeakError):
        play_game(game, [SpiedBot(PeekingBot()), make_bot("random")], seed=0)


def test_spy_catches_the_runners_true_state_being_used() -> None:
    game = make("tiny-showdown", players=2)
    true_state = game.apply(game.apply(game.initial_state(), 4), 1)

    class TrueStateBot:
        name = "true-state"

        def choose(
            self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
        ) -> int:
            return game.legal_actions(true_state)[0]

    with pytest.raises(LeakError):
        SpiedBot(TrueStateBot()).choose(game, 0, game.observe(true_state, 0), [0, 1], random.Random(0))
