"""What changed for a seat between two of its views of The Shadow Planet, in words.

Pure: it compares two :class:`PlanetObservation` of the same seat, with the printed material
and the seat names, and nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shadowtable.core.changes import Change, moved, seat_word
from shadowtable.core.game import Game
from shadowtable.games.shadow_planet.printed import printed
from shadowtable.games.shadow_planet.rules.effects import COLOURS
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetPublic


def view_changes(
    game: Game[Any], before: PlanetObservation, after: PlanetObservation, names: Sequence[str]
) -> list[Change]:
    """Round, indicators, Characters and vehicles moved, control, Markers and revealed Objectives."""
    old, new = before.public, after.public
    changes = moved(old.round, new.round, "Round")
    for key, label in (("countdown", "Countdown"), ("repair", "Repair"), ("threat", "Threat")):
        changes += moved(getattr(old, key), getattr(new, key), label, f".sp-gauge-{key}")
    return changes + _pieces(game, old, new) + _seats(game, old, new, names)


def _pieces(game: Game[Any], old: PlanetPublic, new: PlanetPublic) -> list[Change]:
    """Characters and vehicles that changed Location."""
    c = printed(game)
    characters = [ch["name"] for ch in game.words.reference()["characters"]]
    changes = []
    for index, (was, now) in enumerate(zip(old.character_location, new.character_location, strict=True)):
        if was != now and now >= 0:
            where = f"{_place(c.location_names, was)} -> {c.location_names[now]}"
            changes.append(Change(f"{characters[index]}: {where}", (f'[data-character="{index}"]',)))
    for index, (was, now) in enumerate(zip(old.vehicle_loc, new.vehicle_loc, strict=True)):
        if was != now and now >= 0:
            where = f"{_place(c.location_names, was)} -> {c.location_names[now]}"
            changes.append(
                Change(f"{c.vehicle_names[index]}: {where}", (f'[data-vehicle="{c.vehicle_names[index]}"]',))
            )
    return changes


def _place(locations: Sequence[str], index: int) -> str:
    return locations[index] if 0 <= index < len(locations) else "out of play"


def _seats(game: Game[Any], old: PlanetPublic, new: PlanetPublic, names: Sequence[str]) -> list[Change]:
    """Control of Characters, Markers gained and Objectives now shown, per seat."""
    characters = [ch["name"] for ch in game.words.reference()["characters"]]
    objectives = game.words.reference()["objectives"]
    changes = []
    for index, (was, now) in enumerate(zip(old.controller, new.controller, strict=True)):
        if was != now and now >= 0:
            changes.append(Change(f"{seat_word(names, now)} controls {characters[index]}"))
    for place, (was, now) in enumerate(zip(old.sheets, new.sheets, strict=True)):
        if now > was:
            seat, colour = divmod(place, len(COLOURS))
            count = now - was
            marker = "Marker" if count == 1 else "Markers"
            changes.append(Change(f"{seat_word(names, seat)} gains {count} {COLOURS[colour]} {marker}"))
    for holder, (held, shown) in enumerate(zip(old.objectives, new.objectives, strict=True)):
        if held != shown and isinstance(shown, int) and 0 <= shown < len(objectives):
            changes.append(Change(f"{seat_word(names, holder)}'s Objective: {objectives[shown]['name']}"))
    return changes
