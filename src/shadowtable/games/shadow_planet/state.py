"""The game state: a compact mutable record of ints and lists with a fast :meth:`State.copy`.

The engine never mutates a state it was given: ``apply`` copies, then mutates the copy.  Every
Operation card lives in exactly one zone, recorded in ``where[card]``; order matters only for
the known tops of the Location decks and the Messages pile (``top``) and the Temple pile.
A deck is a known ordered top (cards someone has looked at) on an unknown, unordered rest.
``zones`` indexes ``where`` by zone (a bitmask of cards per zone, moved with the cards by
:func:`.board.move_card`; derived, never serialised).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shadowtable.core.events import Event
from shadowtable.core.ints import int_text
from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet.tasks import task_to_json

# zones of ``where``
DECK0 = 0  # 0..3: the Location decks
MSG = 4  # the Messages from the Shadows pile (top index 4 in ``top``)
TEMPLE = 5
DISCARD = 6
REMOVED = 7
GEAR0 = 8  # 8..13: a Character's Gear (its controller's hand, or its pile if uncontrolled)
PLAYED0 = 14  # 14..19: played this turn/round by that Character, face up
NUM_ZONES = PLAYED0 + 6

ZONE_NAMES = ("deck", "deck", "deck", "deck", "messages", "temple", "discard", "removed")

MESSAGES_DECK = 4  # the Messages pile's index in ``top``

# latched end conditions, in priority order
END_THREAT, END_REPAIR, END_COUNTDOWN = 1, 2, 4

FIELDS = (
    "n", "round", "protagonist", "objectives", "removed_objectives",
    "countdown", "repair", "threat", "latched", "pool", "sheets", "section_markers",
    "char_loc", "char_section", "controller", "seat_char", "vehicle_loc",
    "where", "top", "temple", "known", "public",
    "draft_random", "draft_picks",
    "active", "forbid", "excl", "bonus",
    "auras", "cancelled", "revealed", "last_reveal", "reveal_cards", "trajectory",
    "end_reason", "identity",
)  # fmt: skip
LIST_FIELDS = (
    "objectives", "pool", "sheets", "section_markers", "char_loc", "char_section", "controller",
    "seat_char", "vehicle_loc", "where", "temple", "known", "draft_picks",
    "revealed", "identity", "removed_objectives", "auras", "trajectory", "last_reveal", "reveal_cards",
)  # fmt: skip


def zone_index(where: list[int]) -> list[int]:
    """Per zone, the bitmask of the cards ``where`` puts there."""
    zones = [0] * NUM_ZONES
    for card, zone in enumerate(where):
        zones[zone] |= 1 << card
    return zones


class State:
    """All facts of a game position.  Treat as immutable outside the engine."""

    __slots__ = (*FIELDS, "stack", "journal", "legal", "zones")

    stack: list[Task]  # pending work, the last task on top
    n: int
    round: int
    protagonist: int
    objectives: list[int]  # per seat, -1 before the deal
    removed_objectives: list[int]
    countdown: int
    repair: int
    threat: int
    latched: int
    pool: list[int]  # Markers per colour
    sheets: list[int]  # seat * 5 + colour
    section_markers: list[int]  # bitmask of colours per Section
    char_loc: list[int]
    char_section: list[int]  # -1: not in a Section
    controller: list[int]  # per Character: seat or -1
    seat_char: list[int]  # per seat: Character or -1
    vehicle_loc: list[int]  # -1: not in play
    where: list[int]  # zone per card
    zones: list[int]  # per zone: bitmask of its cards (the index of ``where``)
    top: list[list[int]]  # known ordered tops: 4 Location decks + the Messages pile
    temple: list[int]
    known: list[int]  # per seat: bitmask of cards whose place it knows
    public: int  # bitmask of cards whose place everyone knows
    draft_random: int
    draft_picks: list[int]  # per seat: chosen Character or -1
    active: int  # Character whose turn it is
    forbid: int  # bitmask of types that may not be played this turn
    excl: int  # bits 0-4: types closed by an exclusive card; 5-9: played and gone at once (steps.LEFT_SHIFT)
    bonus: int  # Search bonus of this turn (abilities)
    auras: list[list[int]]  # [source Character, amount, include_self]
    cancelled: int
    revealed: list[int]  # type counts of the current reveal
    last_reveal: list[int]
    reveal_cards: list[int]  # the cards of the current (or last) Messages reveal, seen by all
    trajectory: list[list[int]]  # [countdown, repair, threat] at the end of each round
    end_reason: int
    identity: list[int]  # per seat: matched Character or -1
    journal: list[Event] | None  # events of the action being carried out (None: not recording)
    legal: list[int] | None  # the legal actions, cached by the kernel's apply (None: not listed)

    def copy(self) -> State:
        """A deep-enough copy: every list is new (nested lists of ``top`` too; ``auras``, ``trajectory``
        hold small lists that are never mutated in place, only appended to or replaced)."""
        # written out field by field: about three times faster than a getattr/setattr loop
        new = State.__new__(State)
        new.journal = None
        new.legal = None
        new.stack = self.stack[:]
        new.n = self.n
        new.round = self.round
        new.protagonist = self.protagonist
        new.objectives = self.objectives[:]
        new.removed_objectives = self.removed_objectives[:]
        new.countdown = self.countdown
        new.repair = self.repair
        new.threat = self.threat
        new.latched = self.latched
        new.pool = self.pool[:]
        new.sheets = self.sheets[:]
        new.section_markers = self.section_markers[:]
        new.char_loc = self.char_loc[:]
        new.char_section = self.char_section[:]
        new.controller = self.controller[:]
        new.seat_char = self.seat_char[:]
        new.vehicle_loc = self.vehicle_loc[:]
        new.where = self.where[:]
        new.zones = self.zones[:]
        new.top = [t[:] for t in self.top]
        new.temple = self.temple[:]
        new.known = self.known[:]
        new.public = self.public
        new.draft_random = self.draft_random
        new.draft_picks = self.draft_picks[:]
        new.active = self.active
        new.forbid = self.forbid
        new.excl = self.excl
        new.bonus = self.bonus
        new.auras = self.auras[:]
        new.cancelled = self.cancelled
        new.revealed = self.revealed[:]
        new.last_reveal = self.last_reveal[:]
        new.reveal_cards = self.reveal_cards[:]
        new.trajectory = self.trajectory[:]
        new.end_reason = self.end_reason
        new.identity = self.identity[:]
        return new

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON data."""
        data: dict[str, Any] = {name: getattr(self, name) for name in FIELDS}
        for name in LIST_FIELDS:
            data[name] = [x[:] if isinstance(x, list) else x for x in data[name]]
        data["top"] = [t[:] for t in self.top]
        data["known"] = [int_text(k) for k in self.known]  # bitmasks can exceed JSON-safe ints
        data["public"] = int_text(self.public)
        data["stack"] = [task_to_json(task) for task in self.stack]
        return data

    @staticmethod
    def from_json(data: Any, parse_task: Callable[[Any], Task]) -> State:
        """Rebuild from :meth:`to_json` output (``parse_task`` rebuilds one task); raises
        ``KeyError``/``TypeError``/``ValueError`` or the parser's error."""
        new = State.__new__(State)
        new.journal = None
        new.legal = None
        if not isinstance(data, dict):
            raise TypeError("state must be an object")
        if not isinstance(data.get("stack"), list):
            raise TypeError("field stack must be a list of tasks")
        new.stack = [parse_task(task) for task in data["stack"]]
        data = {"reveal_cards": [], **data}  # states saved before the rules audit lack this field
        # every field is checked before any is set (the compiled build checks types on setting)
        values: dict[str, Any] = {}
        for name in FIELDS:
            value = data[name]
            if name in LIST_FIELDS or name == "top":
                if not isinstance(value, list):
                    raise TypeError(f"field {name} must be a list")
                value = [x[:] if isinstance(x, list) else x for x in value]
            elif not isinstance(value, int | str) or isinstance(value, bool):
                raise TypeError(f"field {name} must be an int")
            values[name] = value
        values["known"] = [int(k) for k in data["known"]]
        values["public"] = int(data["public"])
        for name in FIELDS:
            if name not in LIST_FIELDS and name not in ("top", "known", "public") and not isinstance(values[name], int):
                raise TypeError(f"field {name} must be an int")
        where = values["where"]
        if any(not isinstance(z, int) or isinstance(z, bool) or not 0 <= z < NUM_ZONES for z in where):
            raise ValueError("field where holds an unknown zone")
        for name, value in values.items():
            setattr(new, name, value)
        new.zones = zone_index(where)
        return new
