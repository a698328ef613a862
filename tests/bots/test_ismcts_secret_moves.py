"""tree=observations keeps secret moves secret inside the search; the action-keyed tree does not."""

from __future__ import annotations

import random

import pytest

from shadowtable.bots import make_bot
from shadowtable.bots.ismcts import ISMCTSBot, information_key
from shadowtable.core import BotError, play_game

from .secret_game import SecretGuessGame
from .spy_game import SpiedBot

HIDER = 0


def _root_values(tree: str, seed: int) -> list[float]:
    game = SecretGuessGame(2)
    root = ISMCTSBot(iterations=600, tree=tree).search(game, game.observe((), HIDER), random.Random(seed))
    return [child.mean_value for child in root.children.values()]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_observation_tree_values_the_secret_at_one_half(seed: int) -> None:
    assert all(0.4 < value < 0.6 for value in _root_values("observations", seed))  # true value: 1/2


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_action_tree_lets_the_guesser_see_the_secret(seed: int) -> None:
    assert all(value < 0.33 for value in _root_values("actions", seed))  # a seeing guesser: 1/4


def test_guesser_has_one_node_for_both_secrets_in_the_observation_tree() -> None:
    game = SecretGuessGame(2)
    _, table = ISMCTSBot(iterations=200, tree="observations").search_tree(
        game, game.observe((), HIDER), random.Random(0)
    )
    assert table is not None
    guesser_keys = [key for key in table if key[0] == 1]
    assert guesser_keys == [information_key(1, {"seat": 1, "moves": [None]})]
    assert sum(child.visits for child in table[guesser_keys[0]].children.values()) > 0


def test_action_tree_has_one_guesser_node_per_secret() -> None:
    game = SecretGuessGame(2)
    root, table = ISMCTSBot(iterations=200).search_tree(game, game.observe((), HIDER), random.Random(0))
    assert table is None
    assert sorted(root.children) == [0, 1]
    assert all(sorted(child.children) == [0, 1] for child in root.children.values())


def test_observation_tree_only_touches_determinized_states_and_is_reproducible() -> None:
    game = SecretGuessGame(2)
    spied = [SpiedBot(make_bot("ismcts:iterations=40:tree=observations")) for _ in range(2)]
    records = [play_game(game, spied, seed).to_json() for seed in range(3)]
    again = [play_game(game, spied, seed).to_json() for seed in range(3)]
    assert records == again
    assert all(bot.determinizations == 40 * bot.decisions > 0 for bot in spied)


def test_unknown_tree_kind_is_rejected() -> None:
    with pytest.raises(BotError):
        make_bot("ismcts:tree=forest")
