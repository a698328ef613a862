"""The typed observation built directly (``game.observe_typed``) is the one read from the JSON
(``typed_view(game, game.observe(...))``): for every seat and a spectator, over seeded random and
heuristic games of every player count, finished states included; and it is decided from what
the seat knows (states the seat cannot tell apart give equal typed observations)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.registry import make
from shadowtable.core.rng import sample_outcome
from shadowtable.core.views import typed_view
from shadowtable.games.shadow_planet import observe as planet_observe
from shadowtable.games.shadow_planet.view import PlanetPublic
from shadowtable.games.shadowlord import observe as lord_observe
from shadowtable.games.shadowlord.view import LordPublic

CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("shadow-planet", {"players": 3}),
    ("shadow-planet", {"players": 4}),
    ("shadow-planet", {"players": 5}),
    ("shadowlord", {"players": 2}),
    ("shadowlord", {"players": 2, "modified": True}),
    ("shadowlord", {"players": 3}),
    ("shadowlord", {"players": 4}),
]
IDS = [f"{game_id}-{'-'.join(f'{k}={v}' for k, v in config.items())}" for game_id, config in CONFIGURATIONS]


def playout(game: Game[Any], seed: int, bot: str, every: int) -> Iterator[Any]:
    """Every ``every``-th state of a game played by ``bot`` in every seat (chance by its odds),
    and the finished state."""
    rng = random.Random(seed)
    bots = [make_bot(bot) for _ in range(game.players)]
    state = game.initial_state()
    for step in range(100_000):
        player = game.current_player(state)
        if step % every == 0 or player == TERMINAL:
            yield state
        if player == TERMINAL:
            return
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = int(bots[player].choose(game, player, game.observe(state, player), legal, rng))
        state = game.apply(state, action)
    raise AssertionError("the game did not end")


def assert_same_views(game: Game[Any], state: Any) -> None:
    for seat in [None, *range(game.players)]:
        direct = game.observe_typed(state, seat)
        read = typed_view(game, game.observe(state, seat))  # checked: the JSON fits the view's types
        assert type(direct) is type(read)
        for name in ("seat", "pending", "public", "private", "tasks", "outcome"):
            assert getattr(direct, name) == getattr(read, name), (seat, name)
        assert direct == read, seat


@pytest.mark.parametrize(("game_id", "config"), CONFIGURATIONS, ids=IDS)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_the_direct_view_equals_the_one_read_from_json(game_id: str, config: dict[str, Any], bot: str) -> None:
    game = make(game_id, **config)
    compared, finished = 0, 0
    for seed in (1, 2):
        for state in playout(game, seed, bot, every=11 if bot == "random" else 5):
            assert_same_views(game, state)
            compared += 1
            finished += game.is_terminal(state)
    assert finished == 2
    assert compared > 20


@pytest.mark.parametrize(("game_id", "config"), CONFIGURATIONS[::3], ids=IDS[::3])
def test_the_default_reads_the_json_back(game_id: str, config: dict[str, Any]) -> None:
    game = make(game_id, **config)
    for state in playout(game, 3, "random", every=29):
        for seat in [None, *range(game.players)]:
            assert Game.observe_typed(game, state, seat) == game.observe_typed(state, seat)


def test_the_default_needs_a_view_in_the_manifest() -> None:
    game = make("tiny-showdown", players=2)
    with pytest.raises(ShadowTableError, match="no typed observation"):
        game.observe_typed(game.initial_state(), 0)


def test_the_fields_built_in_order_are_the_views_first_fields() -> None:
    planet = [f.name for f in dataclasses.fields(PlanetPublic)]
    assert planet[: len(planet_observe.PUBLIC)] == list(planet_observe.PUBLIC)
    lord = [f.name for f in dataclasses.fields(LordPublic)]
    names = [*lord_observe.PUBLIC_LISTS, *lord_observe.PUBLIC_SCALARS]
    assert lord[: len(names)] == names


def test_the_kept_task_views_survive_a_full_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planet_observe, "TASK_CACHE", 3)
    monkeypatch.setattr(planet_observe, "GEAR_CACHE", 2)
    game = make("shadow-planet", players=4)
    for state in playout(game, 4, "random", every=17):
        assert_same_views(game, state)


@pytest.mark.parametrize(("game_id", "config"), CONFIGURATIONS[::2], ids=IDS[::2])
def test_states_a_seat_cannot_tell_apart_give_it_equal_typed_views(game_id: str, config: dict[str, Any]) -> None:
    game = make(game_id, **config)
    resampled_differs = other_seat_differs = False
    for k, state in enumerate(playout(game, 5, "random", every=23)):
        for seat in [None, *range(game.players)]:
            sampled = game.determinize(game.observe(state, seat), random.Random(k))
            assert game.observe_typed(sampled, seat) == game.observe_typed(state, seat), (k, seat)
            resampled_differs = resampled_differs or game.state_to_json(sampled) != game.state_to_json(state)
            other_seat_differs = other_seat_differs or any(
                game.observe_typed(sampled, other) != game.observe_typed(state, other)
                for other in range(game.players)
                if other != seat
            )
    assert resampled_differs, "every resampled state equals the true one: nothing was resampled"
    assert other_seat_differs, "no other seat's view changed: the resampling hid nothing"
