"""The "since your last decision" changes of both games: pure functions of two typed views."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.core.views import typed_view
from shadowtable.games.shadow_planet.changes import view_changes as planet_changes
from shadowtable.games.shadow_planet.view import PlanetObservation
from shadowtable.games.shadowlord.changes import view_changes as lord_changes
from shadowtable.games.shadowlord.view import LordObservation

NAMES = ["Ada", "Bob", "Cy", "Di"]


def _mid_game(title: str, players: int, steps: int) -> tuple[Game[Any], Any]:
    game = make(title, players=players)
    table = Table(game, [_FirstChoice()] * players, seed=11)
    table.run(max_steps=steps)
    return game, typed_view(game, game.observe(table.state, 0))


class _FirstChoice:
    name = "first"

    def choose(self, game: Game[Any], seat: int, observation: Any, legal: list[int], rng: Any) -> int:
        return legal[-1]


def _planet() -> tuple[Game[Any], PlanetObservation]:
    game, view = _mid_game("shadow-planet", 4, 60)
    assert isinstance(view, PlanetObservation)
    return game, view


def _lord() -> tuple[Game[Any], LordObservation]:
    game, view = _mid_game("shadowlord", 4, 120)
    assert isinstance(view, LordObservation)
    return game, view


def _texts(changes: list[Any]) -> list[str]:
    return [change.text for change in changes]


def test_the_same_view_twice_changes_nothing() -> None:
    game, view = _planet()
    assert planet_changes(game, view, view, NAMES) == []
    lord_game, lord_view = _lord()
    assert lord_changes(lord_game, lord_view, lord_view, NAMES) == []


def test_a_threat_change_reads_as_before_and_after_and_marks_its_gauge() -> None:
    game, view = _planet()
    public = view.public
    before = replace(view, public=replace(public, threat=2))
    after = replace(view, public=replace(public, threat=3, countdown=public.countdown - 1))
    changes = planet_changes(game, before, after, NAMES)
    assert "Threat 2 -> 3" in _texts(changes)
    assert f"Countdown {public.countdown} -> {public.countdown - 1}" in _texts(changes)
    threat = next(change for change in changes if change.text.startswith("Threat"))
    assert threat.marks == (".sp-gauge-threat",)


def test_a_moved_character_and_markers_gained_are_named() -> None:
    game, view = _planet()
    public = view.public
    moved_to = (public.character_location[0] + 1) % 4
    sheets = list(public.sheets)
    sheets[1 * 5 + 2] += 2
    after = replace(
        view,
        public=replace(public, character_location=(moved_to, *public.character_location[1:]), sheets=tuple(sheets)),
    )
    texts = _texts(planet_changes(game, view, after, NAMES))
    locations = ["Melita", "E/Rico", "Hill", "Caves"]
    assert f"Jenna Scott: {locations[public.character_location[0]]} -> {locations[moved_to]}" in texts
    assert "Bob gains 2 red Markers" in texts


def test_shadowlord_turn_timer_figure_and_seat_out() -> None:
    game, view = _lord()
    public = view.public
    figure = next(f for f, at in enumerate(public.loc) if at >= 0)
    galaxies = [g["name"] for g in game.words.reference()["galaxies"]]
    elsewhere = (public.loc[figure] + 1) % len(galaxies)
    loc = list(public.loc)
    loc[figure] = elsewhere
    out = list(public.seat_out)
    out[2] = 1
    ships = list(public.ships)
    ships[figure] += 2
    after = replace(
        view,
        public=replace(
            public,
            turn=public.turn + 1,
            timer=public.timer - 1,
            loc=tuple(loc),
            seat_out=tuple(out),
            ships=tuple(ships),
        ),
    )
    changes = lord_changes(game, view, after, NAMES)
    texts = _texts(changes)
    name = game.words.reference()["figures"][figure]["name"]
    assert f"Turn {public.turn} -> {public.turn + 1}" in texts
    assert f"Power Stone Timer {public.timer} -> {public.timer - 1}" in texts
    assert f"{name}: {galaxies[public.loc[figure]]} -> {galaxies[elsewhere]}" in texts
    assert "Cy is out of the game" in texts
    assert f"{name}: Space Ships {public.ships[figure]} -> {public.ships[figure] + 2}" in texts
    moved = next(change for change in changes if change.text.startswith(name))
    assert moved.marks == (f'[data-galaxy="{galaxies[elsewhere]}"]',)


def test_the_power_stone_timer_taken_out_of_the_game_is_said_in_words() -> None:
    game, view = _lord()
    gone = replace(view, public=replace(view.public, timer=-1))
    texts = _texts(lord_changes(game, view, gone, NAMES))
    assert texts == [f"Power Stone Timer removed from the game (it stood at {view.public.timer})"]
