"""The Shadow Planet heuristic bot decides exactly as it did when this golden was taken.

Seeded games are played by random bots; at every decision the heuristic bot is asked what it
would choose for the seat to act (from that seat's observation) and the answers are hashed.
Seeded games of heuristic bots against each other are hashed too (their actions).
The expected hashes were computed from the bot as it was when it still named card types by
copied indices, so any change in any decision fails this test.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from shadowtable import RandomBot, make, play_game
from shadowtable.bots import make_bot
from shadowtable.core.game import CHANCE, TERMINAL
from shadowtable.core.rng import sample_outcome
from shadowtable.games.shadow_planet.heuristic import ShadowPlanetHeuristicBot

GOLDEN = {
    (3, 0): "687b4a753830d0c40afa85df859b17dc709e73d07e552e474b940551684af749",
    (4, 1): "d97559baa07d4d2ad8c211a07149be989bc3521d90dccb744bde25cfbfe11f67",
    (5, 2): "b6072b0f30fc0859e0f1a189e67c85f1204f1612c0d82ae62d6ba3326b4cd442",
}
SELF_PLAY_GOLDEN = {
    (4, 7): "fab83df639cc558d4f50306d34d3799d6e6c65c93b2a19fc773e96086be020c0",
    (5, 8): "498eae63529f61fae994867d380d8b3604c0be545b69ed4087688b7288802b47",
}


def decisions_digest(players: int, seed: int) -> tuple[str, int]:
    """The hash of the heuristic's choice at every decision of a seeded random game, and how many."""
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    heuristic, walker = ShadowPlanetHeuristicBot(), RandomBot()
    state = game.initial_state()
    digest = hashlib.sha256()
    decisions = 0
    while (player := game.current_player(state)) != TERMINAL:
        legal = game.legal_actions(state)
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            observation = game.observe(state, player)
            choice = heuristic.choose(game, player, observation, legal, random.Random(decisions))
            digest.update(f"{decisions}:{choice};".encode())
            decisions += 1
            action = walker.choose(game, player, observation, legal, rng)
        state = game.apply(state, action)
    return digest.hexdigest(), decisions


@pytest.mark.parametrize(("players", "seed"), sorted(GOLDEN))
def test_every_decision_is_the_one_the_bot_made_before(players: int, seed: int) -> None:
    digest, decisions = decisions_digest(players, seed)
    assert decisions > 100
    assert digest == GOLDEN[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(SELF_PLAY_GOLDEN))
def test_heuristic_games_are_played_as_before(players: int, seed: int) -> None:
    game = make("shadow-planet", players=players)
    record = play_game(game, [make_bot("heuristic") for _ in range(players)], seed=seed)
    assert len(record.actions) > 100
    digest = hashlib.sha256(repr(record.actions).encode()).hexdigest()
    assert digest == SELF_PLAY_GOLDEN[players, seed]
