"""The epsilon bot: its base's move, or now and then a uniformly random one, repeatably."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tests.bots.test_ladder_information import positions

from shadowtable.bots import make_bot
from shadowtable.core import BotError, make
from shadowtable.core.runner import play_game


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_p_zero_plays_as_its_base_and_p_one_plays_at_random(game_id: str, players: int) -> None:
    game = make(game_id, players=players)
    heuristic, random_bot = make_bot("heuristic"), make_bot("random")
    never, always = make_bot("epsilon:base=heuristic:p=0"), make_bot("epsilon:p=1")
    for state, seat in positions(game_id, players, seed=3, count=6):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        expected = heuristic.choose(game, seat, observation, legal, random.Random(9))
        rng = random.Random(9)
        rng.random()  # the coin, drawn first
        assert never.choose(game, seat, observation, legal, random.Random(9)) == heuristic.choose(
            game, seat, observation, legal, rng
        )
        assert expected in legal
        rng = random.Random(4)
        rng.random()
        assert always.choose(game, seat, observation, legal, random.Random(4)) == random_bot.choose(
            game, seat, observation, legal, rng
        )


def test_about_p_of_its_moves_leave_the_base() -> None:
    game = make("shadowlord", players=2)
    bot, heuristic = make_bot("epsilon:p=0.3"), make_bot("heuristic")
    state, seat = positions("shadowlord", 2, seed=11, count=1)[0]
    observation, legal = game.observe(state, seat), game.legal_actions(state)
    assert len(legal) >= 5
    best = heuristic.choose(game, seat, observation, legal, random.Random(0))
    rng = random.Random(2)
    counts = Counter(bot.choose(game, seat, observation, legal, rng) == best for _ in range(2000))
    # P(not the base's move) = 0.3 * (1 - 1/len(legal)); 2,000 draws put it within a few points
    expected = 0.3 * (1 - 1 / len(legal)) * 2000
    assert abs(counts[False] - expected) < 0.05 * 2000


def test_a_seeded_game_repeats_and_differs_from_the_base_alone() -> None:
    game = make("shadow-planet", players=3)
    first = play_game(game, [make_bot("epsilon:p=0.2") for _ in range(3)], 8)
    again = play_game(game, [make_bot("epsilon:p=0.2") for _ in range(3)], 8)
    base = play_game(game, [make_bot("heuristic") for _ in range(3)], 8)
    assert first.actions == again.actions and first.returns == again.returns
    assert first.actions != base.actions


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("epsilon:p=1.5", "p must be a number from 0 to 1"),
        ("epsilon:p=-0.1", "p must be a number from 0 to 1"),
        ("epsilon:p=true", "p must be a number from 0 to 1"),
        ("epsilon:p=lots", "p must be a number from 0 to 1"),
        ("epsilon:base=epsilon", "base must name another bot"),
        ("epsilon:base=nobody", "unknown bot 'nobody'"),
        ("epsilon:q=1", "bad parameters for bot 'epsilon'"),
    ],
)
def test_bad_parameters_are_refused_with_a_bot_error(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_a_base_that_cannot_play_the_game_is_refused_before_it_starts() -> None:
    from tests.bots.secret_game import SecretGuessGame

    from shadowtable.bots.base import check_bot_fits

    bot = make_bot("epsilon:base=heuristic")
    check_bot_fits(bot, make("shadowlord", players=3))
    with pytest.raises(BotError, match="heuristic"):
        check_bot_fits(bot, SecretGuessGame(players=2))
