"""``core.views.typed_view``: a game's typed observation found through its manifest, checked or
(for the game's own output) read without checks into the same value."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.core import TERMINAL, StateFormatError, make
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.views import typed_view, view_class
from shadowtable.games.shadow_planet.view import PlanetObservation
from shadowtable.games.shadowlord.view import LordObservation


def observed(game_id: str, players: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """The game and every observation (each seat and a spectator) of a random game of it."""
    game = make(game_id, players=players)
    rng = random.Random(seed)
    state, found = game.initial_state(), []
    while True:
        found += [game.observe(state, seat) for seat in (None, *range(players))]
        if game.current_player(state) == TERMINAL:
            return game, found
        if game.current_player(state) < 0:
            actions = [a for a, _ in game.chance_outcomes(state)]
        else:
            actions = game.legal_actions(state)
        state = game.apply(state, rng.choice(actions))


@pytest.mark.parametrize(
    ("game_id", "players", "seed", "view"),
    [("shadow-planet", 4, 3, PlanetObservation), ("shadowlord", 3, 4, LordObservation)],
)
def test_checked_and_unchecked_views_are_the_same_typed_value(
    game_id: str, players: int, seed: int, view: type[Any]
) -> None:
    game, found = observed(game_id, players, seed)
    assert view_class(type(game)) is view
    for data in found:
        checked = typed_view(game, data)
        unchecked = typed_view(game, data, checked=False)
        assert isinstance(checked, view) and isinstance(unchecked, view)
        assert unchecked == checked
        assert unchecked.to_json() == data
    assert len(found) > 100


def test_only_the_checked_view_refuses_bad_data() -> None:
    game = make("shadow-planet", players=4)
    data = game.observe(game.initial_state(), 0)
    data["public"]["round"] = "one"
    with pytest.raises(StateFormatError):
        typed_view(game, data)
    assert typed_view(game, data, checked=False).public.round == "one"  # type: ignore[attr-defined]


def test_a_game_without_a_view_is_refused() -> None:
    game = make("tiny-showdown", players=2)
    with pytest.raises(ShadowTableError):
        view_class(type(game))
