"""Games and states pickle and copy on both builds, at any point of a game, and play on the same.

Researchers' tools (multiprocessing, Ray, OpenSpiel's serialisation) pickle games and states. The
compiled build could not rebuild a frozen dataclass (the games' content tables, ``Pending``): its
fields are set one by one, which a frozen class refuses.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shadowtable.core import CHANCE, make
from shadowtable.core.game import Game
from shadowtable.games.shadow_planet.rules import KERNEL as PLANET_KERNEL

CONFIGURATIONS = [("shadow-planet", 3), ("shadow-planet", 4), ("shadow-planet", 5)] + [
    ("shadowlord", players) for players in (2, 3, 4)
]
EVERY = 100
"""Steps between the states checked along a game (and its first and last states)."""


def pickled(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


COPIES: list[Callable[[Any], Any]] = [pickled, copy.deepcopy, copy.copy]


def random_action(game: Game[Any], state: Any, rng: random.Random) -> int:
    if game.current_player(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        return int(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
    return rng.choice(game.legal_actions(state))


def checked_states(game: Game[Any], seed: int) -> Iterator[tuple[int, Any]]:
    """``(step, state)`` along one whole random game: the first state, every :data:`EVERY`
    steps, and the last."""
    rng, state, step = random.Random(seed), game.initial_state(), 0
    yield step, state
    while not game.is_terminal(state):
        state = game.apply(state, random_action(game, state, rng))
        step += 1
        if step % EVERY == 0 or game.is_terminal(state):
            yield step, state


def everything(game: Game[Any], state: Any) -> tuple[Any, ...]:
    """All a caller reads of ``state``: its JSON form, who acts, the legal actions, the chance
    outcomes and every seat's observation (and the spectator's)."""
    return (
        game.state_to_json(state),
        game.current_player(state),
        game.legal_actions(state),
        game.chance_outcomes(state),
        [game.observe(state, seat) for seat in [None, *range(game.players)]],
    )


def played_on(game: Game[Any], state: Any, seed: int, steps: int = 30) -> Any:
    """``state`` after up to ``steps`` more random steps drawn from ``seed``."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        state = game.apply(state, random_action(game, state, rng))
    return game.state_to_json(state)


@pytest.mark.parametrize("copier", COPIES, ids=["pickle", "deepcopy", "copy"])
@pytest.mark.parametrize(("game_id", "players"), CONFIGURATIONS)
def test_a_game_round_trips_and_plays_the_same(game_id: str, players: int, copier: Callable[[Any], Any]) -> None:
    game = make(game_id, players=players)
    again = copier(game)
    assert type(again) is type(game)
    assert (again.spec, again.players, again.options) == (game.spec, game.players, game.options)
    assert everything(again, again.initial_state()) == everything(game, game.initial_state())
    assert played_on(again, again.initial_state(), seed=1, steps=300) == played_on(
        game, game.initial_state(), seed=1, steps=300
    )


@pytest.mark.parametrize("copier", COPIES, ids=["pickle", "deepcopy", "copy"])
@pytest.mark.parametrize(("game_id", "players"), CONFIGURATIONS)
def test_states_round_trip_to_the_end_of_a_game(game_id: str, players: int, copier: Callable[[Any], Any]) -> None:
    game = make(game_id, players=players)
    last = 0
    for step, state in checked_states(game, seed=players):
        before = everything(game, state)
        again = copier(state)
        assert everything(game, again) == before
        assert played_on(game, again, seed=step) == played_on(game, state, seed=step)
        assert everything(game, state) == before  # the original is untouched
        last = step
    assert last >= 300, "the game was too short to check a long history"


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_a_game_and_a_state_pickled_together_stay_together(game_id: str, players: int) -> None:
    game = make(game_id, players=players)
    *_, (_, end) = checked_states(game, seed=11)
    middle = next(state for step, state in checked_states(game, seed=12) if step >= 200)
    game_again, middle_again, end_again = pickled((game, middle, end))
    assert everything(game_again, middle_again) == everything(game, middle)
    assert everything(game_again, end_again) == everything(game, end)
    assert played_on(game_again, middle_again, seed=5) == played_on(game, middle, seed=5)


@pytest.mark.parametrize("copier", COPIES, ids=["pickle", "deepcopy", "copy"])
def test_the_engines_frozen_records_round_trip(copier: Callable[[Any], Any]) -> None:
    planet, lord = make("shadow-planet", players=4), make("shadowlord", players=2)
    pending = [PLANET_KERNEL.pending(planet.initial_state()), lord.kernel.pending(lord.initial_state())]
    for record in [
        *pending,
        planet.ctx.content,
        *planet.ctx.content.section_reveals[0],
        lord.ctx.content,
        lord.ctx.config,
    ]:
        again = copier(record)
        assert type(again) is type(record)
        assert again == record
    assert copier(lord.ctx) == lord.ctx
    planet_ctx = copier(planet.ctx)
    assert (planet_ctx.content, planet_ctx.players, planet_ctx.options) == (
        planet.ctx.content,
        planet.ctx.players,
        planet.ctx.options,
    )
