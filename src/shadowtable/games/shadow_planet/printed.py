"""The printed material of a configured game read back from ``game.words.reference()`` as typed tables.

The heuristic bot, the encoder and both boards read the game through these tables (and the
seat's observation), never through the rules' context: cards, Locations, Sections, Vehicles,
Characters and Objectives are ids, as in the observation.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shadowtable.core.game import Game


@dataclass(frozen=True)
class Printed:
    """One configured game's printed material by id (see ``reference.tables``)."""

    types: tuple[str, ...]
    """Card types by id (``move`` .. ``attack``)."""
    card_name: tuple[str, ...]
    card_type: tuple[int, ...]
    card_value: tuple[int, ...]
    card_home: tuple[int, ...]
    """0..3 a Location deck, 4..9 a Character's Gear, 10 Messages."""
    forbid: tuple[int, ...]
    """Per card: the card types it forbids for the rest of the turn (a bitmask)."""
    end_of_turn: tuple[bool | None, ...]
    """Per card: ``None``, else it goes to the Messages pile at the end of the turn (face up?)."""
    swap: tuple[bool, ...]
    vehicle_play: tuple[bool | None, ...]
    """Per card: ``True`` when it puts a Vehicle into play, else ``None``."""
    endgame: tuple[tuple[tuple[str, int, int], ...], ...]
    """Per card: what it counts as at the end of the game (role, card type, count)."""
    location_names: tuple[str, ...]
    link_cost: tuple[tuple[int, ...], ...]
    walk_ok: tuple[tuple[bool, ...], ...]
    drive_dist: tuple[tuple[int, ...], ...]
    section_names: tuple[str, ...]
    section_location: tuple[int, ...]
    section_entry: tuple[int, ...]
    section_costs: tuple[tuple[tuple[int, ...], ...], ...]
    section_effects: tuple[tuple[tuple[dict[str, Any], ...], ...], ...]
    vehicle_names: tuple[str, ...]
    vehicle_bonus: tuple[tuple[str, int], ...]
    char_names: tuple[str, ...]
    char_colour: tuple[int, ...]
    """-1: no colour (the Robot)."""
    robot: int
    objective_names: tuple[str, ...]
    objective_role: tuple[str, ...]
    countdown_max: int
    repair_max: int
    threat_max: int
    markers_per_colour: int
    decisions: tuple[str, ...]

    @property
    def num_cards(self) -> int:
        return len(self.card_name)

    def short(self, card: int) -> str:
        """Readable unique card label, e.g. ``Medi-Kit (Move 2) #0`` (the notation's)."""
        return f"{self.named(card)} #{card}"

    def named(self, card: int) -> str:
        """A card as a person reads it, e.g. ``Medi-Kit (Move 2)`` (copies read the same)."""
        return f"{self.card_name[card]} ({self.types[self.card_type[card]].capitalize()} {self.card_value[card]})"

    def vehicle_index(self, name: str) -> int:
        """Index of a Vehicle by id or name (content ids are lower-case names)."""
        return next(i for i, vname in enumerate(self.vehicle_names) if vname.lower() == name.lower())

    def section_index(self, name: str) -> int:
        """Index of a Section by id (``graveyard``) or name."""
        return next(
            i
            for i, sname in enumerate(self.section_names)
            if sname.lower().replace(" ", "_").startswith(name.lower()) or sname.lower() == name.lower()
        )


def _rows(rows: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in rows)


def printed_from_reference(reference: Mapping[str, Any]) -> Printed:
    """The typed tables of a reference (``game.words.reference()``)."""
    t = reference["tables"]
    return Printed(
        types=tuple(t["types"]),
        card_name=tuple(t["card_name"]),
        card_type=tuple(t["card_type"]),
        card_value=tuple(t["card_value"]),
        card_home=tuple(t["card_home"]),
        forbid=tuple(t["forbid"]),
        end_of_turn=tuple(t["end_of_turn_face_up"]),
        swap=tuple(t["swap"]),
        vehicle_play=tuple(True if plays else None for plays in t["vehicle_play"]),
        endgame=tuple(tuple((str(role), int(kind), int(count)) for role, kind, count in e) for e in t["endgame"]),
        location_names=tuple(t["location_names"]),
        link_cost=_rows(t["link_cost"]),
        walk_ok=_rows(t["walk_ok"]),
        drive_dist=_rows(t["drive_dist"]),
        section_names=tuple(t["section_names"]),
        section_location=tuple(t["section_location"]),
        section_entry=tuple(t["section_entry"]),
        section_costs=tuple(_rows(costs) for costs in t["section_costs"]),
        section_effects=tuple(_rows(effects) for effects in t["section_effects"]),
        vehicle_names=tuple(t["vehicle_names"]),
        vehicle_bonus=tuple((str(kind), int(amount)) for kind, amount in t["vehicle_bonus"]),
        char_names=tuple(t["char_names"]),
        char_colour=tuple(t["char_colour"]),
        robot=int(t["robot"]),
        objective_names=tuple(t["objective_names"]),
        objective_role=tuple(t["objective_role"]),
        countdown_max=int(t["countdown_max"]),
        repair_max=int(t["repair_max"]),
        threat_max=int(t["threat_max"]),
        markers_per_colour=int(t["markers_per_colour"]),
        decisions=tuple(t["decisions"]),
    )


_PRINTED: weakref.WeakKeyDictionary[Game[Any], Printed] = weakref.WeakKeyDictionary()


def printed(game: Game[Any]) -> Printed:
    """The typed tables of ``game``'s reference, read once per game."""
    found = _PRINTED.get(game)
    if found is None:
        found = _PRINTED[game] = printed_from_reference(game.words.reference())
    return found
