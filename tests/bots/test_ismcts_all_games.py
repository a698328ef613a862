"""ISMCTS plays the opening of every registered game configuration, spied on, reproducibly.

Runs over whatever games are registered (the tiny test game now, the real games once they land).
Short budgets keep it quick: the first ``STEPS`` steps, few iterations, short rollouts.
"""

from __future__ import annotations

from typing import Any

import pytest

from shadowtable.bots.ismcts import ISMCTSBot
from shadowtable.core import Game, available_games, game_class, make, play_game

from .spy_game import SpiedBot

STEPS = 40
ITERATIONS = 8


def _configurations() -> list[tuple[str, dict[str, Any]]]:
    return [(gid, cfg) for gid in available_games() for cfg in game_class(gid).standard_configurations()]


def _new(gid: str, cfg: dict[str, Any]) -> Game[Any]:
    options = dict(cfg)
    return make(gid, players=options.pop("players"), **options)


def _bots(players: int, tree: str) -> list[SpiedBot]:
    """``paired``: the actions tree searched in paired root sweeps against a random prior."""
    if tree == "paired":
        return [
            SpiedBot(ISMCTSBot(iterations=ITERATIONS, max_rollout_steps=30, prior="random")) for _ in range(players)
        ]
    return [SpiedBot(ISMCTSBot(iterations=ITERATIONS, max_rollout_steps=30, tree=tree)) for _ in range(players)]


@pytest.mark.parametrize("tree", ["actions", "observations", "paired"])
@pytest.mark.parametrize(
    "config", _configurations(), ids=lambda c: "-".join([c[0], *(f"{k}={v}" for k, v in c[1].items())])
)
def test_ismcts_plays_every_game_from_observations_only(config: tuple[str, dict[str, Any]], tree: str) -> None:
    game = _new(*config)
    bots = _bots(game.players, tree)
    record = play_game(game, bots, seed=17, max_steps=STEPS)
    again = play_game(_new(*config), _bots(game.players, tree), seed=17, max_steps=STEPS)
    assert record.to_json() == again.to_json()
    decisions = sum(bot.decisions for bot in bots)
    assert decisions > 0
    assert sum(bot.determinizations for bot in bots) <= ITERATIONS * decisions
