"""Memory stays flat over long runs that serialise every state (as a server or a recorder does).

Growth is measured with :mod:`tracemalloc`, never with timings: the memory still allocated after
a window of games, compared with what was allocated when the window began (after warm-up games
have filled every cache that is meant to fill).  A leak keeps what each game made; a cache does
not grow once warm.  The compiled build kept every long integer that ``str()`` turned to text
(The Shadow Planet's bitmasks: about 19 KB a game).
"""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc
from typing import Any

import pytest

from shadowtable.core import CHANCE, make
from shadowtable.core.game import Game
from shadowtable.core.ints import int_text
from shadowtable.core.rng import derive_seed

ALLOWED_BYTES_PER_GAME = 2000
"""What a window may keep, per game played in it, for allocations that are not a leak (caches
that settle late, the tracer's own records: up to 5 KB a window, whatever its length): a tenth
of the smallest leak seen, 19 KB a game (100 KB a game with this loop)."""


def serialise_every_step(game: Game[Any], seed: int) -> None:
    """One random game that serialises every state on the way: its JSON form (read back too) and
    the observation of the seat to act."""
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        seat = game.current_player(state)
        if seat == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            game.observe(state, seat)
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        data = game.state_to_json(state)
        assert game.state_to_json(game.state_from_json(data)) == data


def kept_bytes(game: Game[Any], warm_up: int, games: int) -> tuple[int, int]:
    """The bytes and blocks still allocated after ``games`` games that were not before them,
    after ``warm_up`` games first."""
    outside = [tracemalloc.Filter(False, tracemalloc.__file__)]
    gc.collect()
    tracemalloc.start()
    try:
        for seed in range(warm_up):
            serialise_every_step(game, seed)
        gc.collect()
        before = tracemalloc.take_snapshot().filter_traces(outside)
        for seed in range(warm_up, warm_up + games):
            serialise_every_step(game, seed)
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(outside)
    finally:
        tracemalloc.stop()
    growth = after.compare_to(before, "filename")
    return sum(stat.size_diff for stat in growth), sum(stat.count_diff for stat in growth)


@pytest.mark.parametrize(("game_id", "players", "games"), [("shadow-planet", 4, 12), ("shadowlord", 2, 6)])
def test_serialising_every_state_keeps_memory_flat(game_id: str, players: int, games: int) -> None:
    kept, blocks = kept_bytes(make(game_id, players=players), warm_up=2, games=games)
    assert kept < ALLOWED_BYTES_PER_GAME * games, f"{kept} bytes in {blocks} blocks kept over {games} games"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [("shadow-planet", 3, 100), ("shadow-planet", 4, 300), ("shadow-planet", 5, 100)]
    + [("shadowlord", 2, 40), ("shadowlord", 4, 40)],
)
def test_a_long_run_serialising_every_state_keeps_memory_flat(game_id: str, players: int, games: int) -> None:
    kept, blocks = kept_bytes(make(game_id, players=players), warm_up=10, games=games)
    assert kept < ALLOWED_BYTES_PER_GAME * games, f"{kept} bytes in {blocks} blocks kept over {games} games"


def test_a_long_bitmask_serialised_is_not_kept() -> None:
    game = make("shadow-planet", players=4)
    state = game.initial_state()
    state.public = mask = (1 << 100) | 1  # a new object, more than 62 bits long
    held = sys.getrefcount(mask)
    for _ in range(10):
        assert game.state_to_json(state)["public"] == str(mask)
    assert sys.getrefcount(mask) == held


def test_a_long_seed_is_not_kept() -> None:
    seed = (1 << 70) + 3
    held = sys.getrefcount(seed)
    for label in range(10):
        derive_seed(seed, label)
    assert sys.getrefcount(seed) == held


@pytest.mark.parametrize("number", [0, -7, 2**62 - 1, 2**62, -(2**62), 2**100 + 1, -(2**200)])
def test_int_text_is_the_decimal_text(number: int) -> None:
    assert int_text(number) == str(number)
    assert int(int_text(number)) == number
