"""Game content (cards, board, characters, objectives, indicators): loading and validation.

The built-in content lives in ``data/content.json`` and is read with :mod:`importlib.resources`.
A user's file in the same format can replace it (option ``content``).  Every problem raises
:class:`ContentError` naming the file, the item (card, Section, ...) and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from shadowtable._mypyc import by_constructor
from shadowtable.core.errors import ContentError
from shadowtable.games.shadow_planet.rules.effects import ABILITY, CARD, SECTION, TYPES, validate_effect
from shadowtable.games.shadow_planet.rules.effects import COLOURS as COLOURS  # re-exported

BUILTIN = "data/content.json"
GEAR_OWNERS = ("jenna", "nikke", "john", "rachel", "reed", "robot")
NUM_LOCATIONS = 4
NUM_CHARACTERS = 6
NUM_OBJECTIVES = 5
NUM_CARDS = 121


@dataclass(frozen=True)
class Reveal:
    """One way to pay a Section at the end of the turn: card types to reveal, then effects."""

    label: str
    cost: tuple[int, ...]  # count per type
    effects: tuple[dict[str, Any], ...]

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_constructor(self)  # the compiled build copies and pickles no other way


@dataclass(frozen=True)
class Content:
    """Validated content in the fast, index-based form the engine uses."""

    source: str
    card_name: tuple[str, ...]
    card_type: tuple[int, ...]
    card_value: tuple[int, ...]
    card_home: tuple[int, ...]  # 0..3 a Location deck, 4..9 a Character's Gear, 10 Messages
    card_effects: tuple[tuple[dict[str, Any], ...], ...]
    card_reconstructed: tuple[tuple[str, ...], ...]
    location_names: tuple[str, ...]
    link_cost: tuple[tuple[int, ...], ...]  # 0: no direct Link
    link_vehicle_only: tuple[tuple[bool, ...], ...]
    section_names: tuple[str, ...]
    section_location: tuple[int, ...]
    section_entry: tuple[int, ...]
    section_reveals: tuple[tuple[Reveal, ...], ...]
    vehicle_names: tuple[str, ...]
    vehicle_capacity: tuple[int, ...]
    vehicle_bonus: tuple[tuple[str, int], ...]
    char_names: tuple[str, ...]
    char_colour: tuple[int, ...]  # -1: no colour (the Robot)
    char_start: tuple[int, ...]
    char_controlled: tuple[tuple[dict[str, Any], ...], ...]
    char_uncontrolled: tuple[tuple[dict[str, Any], ...], ...]
    objective_names: tuple[str, ...]
    objective_role: tuple[str, ...]  # in priority order
    countdown_start: int
    threat_start: int
    threat_max: int
    countdown_max: int
    repair_max: int
    repair_start: dict[int, int]
    markers_per_colour: int
    reveal_count: int

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_constructor(self)  # the compiled build copies and pickles no other way

    @property
    def num_cards(self) -> int:
        return len(self.card_name)

    def short(self, card: int) -> str:
        """Readable unique card label, e.g. ``Medi-Kit (Move 2) #0``."""
        kind = TYPES[self.card_type[card]].capitalize()
        return f"{self.card_name[card]} ({kind} {self.card_value[card]}) #{card}"


class _Checker:
    """Collects the file name for messages and converts ``ValueError`` to ContentError."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> ContentError:
        return ContentError(f"{self.source}: {where}: {message}")

    def get(self, obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            raise self.fail(where, f"missing field {key!r}")
        value = obj[key]
        if isinstance(value, bool) and kind is int or not isinstance(value, kind):
            raise self.fail(where, f"field {key!r} has bad type {type(value).__name__}")
        return value

    def effects(self, items: Any, where: str, context: str) -> tuple[dict[str, Any], ...]:
        if not isinstance(items, list):
            raise self.fail(where, "field 'effects' must be a list")
        try:
            return tuple(validate_effect(e, where, context) for e in items)
        except ValueError as exc:
            raise ContentError(f"{self.source}: {exc}") from exc


def load_content(path: str | None = None) -> Content:
    """Load and validate the built-in content (``None``) or a user's JSON file."""
    return _load_cached(path)


@lru_cache(maxsize=8)
def _load_cached(path: str | None) -> Content:
    if path is None:
        text = resources.files("shadowtable.games.shadow_planet").joinpath(BUILTIN).read_text("utf-8")
        source = BUILTIN
    else:
        source = path
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise ContentError(f"{path}: cannot read content file: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{source}: not valid JSON: {exc}") from exc
    return parse_content(data, source)


def parse_content(data: Any, source: str) -> Content:
    """Validate content data (already parsed JSON) and build a :class:`Content`."""
    ck = _Checker(source)
    if not isinstance(data, dict):
        raise ck.fail("file", "top level must be an object")
    locations = ck.get(data, "locations", list, "file")
    loc_ids = [ck.get(loc, "id", str, f"location {i}") for i, loc in enumerate(locations)]
    if len(loc_ids) != NUM_LOCATIONS or len(set(loc_ids)) != NUM_LOCATIONS:
        raise ck.fail("locations", f"need {NUM_LOCATIONS} distinct Locations")
    chars = ck.get(data, "characters", list, "file")
    if len(chars) != NUM_CHARACTERS:
        raise ck.fail("characters", f"need {NUM_CHARACTERS} Characters, got {len(chars)}")
    char_ids = [ck.get(c, "id", str, f"character {i}") for i, c in enumerate(chars)]
    homes = {name: i for i, name in enumerate(loc_ids)}
    homes.update({name: 4 + i for i, name in enumerate(char_ids)})
    homes["messages"] = 10
    card_list = ck.get(data, "cards", list, "file")
    if len(card_list) != NUM_CARDS:
        raise ck.fail("file", f"field 'cards': the game has {NUM_CARDS} Operation cards, got {len(card_list)}")
    cards = _parse_cards(ck, card_list, homes)
    _check_decks(ck, data, locations, loc_ids, char_ids, cards)
    board = _parse_board(ck, data, loc_ids)
    people = _parse_characters(ck, chars, loc_ids)
    objectives = _parse_objectives(ck, ck.get(data, "objectives", list, "file"))
    indicators = _parse_indicators(ck, ck.get(data, "indicators", dict, "file"))
    return Content(
        source=source,
        **cards,
        location_names=tuple(ck.get(loc, "name", str, f"location {loc_ids[i]}") for i, loc in enumerate(locations)),
        **board,
        **people,
        **objectives,
        **indicators,
        markers_per_colour=_positive(ck, data, "markers_per_colour", "file"),
        reveal_count=_positive(ck, data, "reveal_count", "file"),
    )


def _positive(ck: _Checker, obj: Any, key: str, where: str) -> int:
    value: int = ck.get(obj, key, int, where)
    if value < 1:
        raise ck.fail(where, f"field {key!r} must be positive")
    return value


def _parse_cards(ck: _Checker, items: list[Any], homes: dict[str, int]) -> dict[str, Any]:
    out: dict[str, list[Any]] = {k: [] for k in ("name", "type", "value", "home", "effects", "reconstructed")}
    for index, card in enumerate(items):
        where = f"card {index}"
        if ck.get(card, "id", int, where) != index:
            raise ck.fail(where, "field 'id': ids must be 0, 1, 2, ... in file order")
        name = ck.get(card, "name", str, where)
        where = f"card {index} ({name})"
        kind = ck.get(card, "type", str, where)
        if kind not in TYPES:
            raise ck.fail(where, f"field 'type': unknown type {kind!r}")
        value = ck.get(card, "value", int, where)
        if value < 0:
            raise ck.fail(where, "field 'value' must be >= 0")
        home = ck.get(card, "home", str, where)
        if home not in homes:
            raise ck.fail(where, f"field 'home': unknown pile {home!r}")
        recon = ck.get(card, "reconstructed", list, where)
        if any(f not in {"name", "type", "value", "home", "effects"} for f in recon):
            raise ck.fail(where, f"field 'reconstructed' names unknown fields {recon!r}")
        out["name"].append(name)
        out["type"].append(TYPES.index(kind))
        out["value"].append(value)
        out["home"].append(homes[home])
        out["effects"].append(ck.effects(card.get("effects", []), where, CARD))
        out["reconstructed"].append(tuple(recon))
    return {f"card_{k}": tuple(v) for k, v in out.items()}


def _check_decks(
    ck: _Checker, data: dict[str, Any], locations: list[Any], loc_ids: list[str], char_ids: list[str], cards: Any
) -> None:
    homes, types = cards["card_home"], cards["card_type"]
    for i, loc in enumerate(locations):
        where = f"location {loc_ids[i]}"
        size = _positive(ck, loc, "deck_size", where)
        deck = [c for c, h in enumerate(homes) if h == i]
        if len(deck) != size:
            raise ck.fail(where, f"field 'deck_size': {size} declared but {len(deck)} cards have this home")
        counts = ck.get(loc, "type_counts", dict, where)
        for t, name in enumerate(TYPES):
            have = sum(1 for c in deck if types[c] == t)
            if counts.get(name, 0) != have:
                raise ck.fail(where, f"field 'type_counts.{name}': declared {counts.get(name, 0)}, deck has {have}")
    gear = _positive(ck, data, "gear_size", "file")
    for i, name in enumerate(char_ids):
        have = sum(1 for h in homes if h == 4 + i)
        if have != gear:
            raise ck.fail(f"character {name}", f"Gear has {have} cards, 'gear_size' says {gear}")
    messages = _positive(ck, data, "messages_size", "file")
    pile = [c for c, h in enumerate(homes) if h == 10]
    if len(pile) != messages or sorted(types[c] for c in pile) != list(range(len(TYPES)))[: len(pile)]:
        raise ck.fail("messages", f"the Messages pile needs {messages} cards, one of each type")


def _parse_board(ck: _Checker, data: dict[str, Any], loc_ids: list[str]) -> dict[str, Any]:
    cost = [[0] * NUM_LOCATIONS for _ in range(NUM_LOCATIONS)]
    vonly = [[False] * NUM_LOCATIONS for _ in range(NUM_LOCATIONS)]
    for i, link in enumerate(ck.get(data, "links", list, "file")):
        where = f"link {i}"
        a, b = ck.get(link, "a", str, where), ck.get(link, "b", str, where)
        if a not in loc_ids or b not in loc_ids or a == b:
            raise ck.fail(where, f"fields 'a'/'b': bad Locations {a!r}, {b!r}")
        ia, ib = loc_ids.index(a), loc_ids.index(b)
        cost[ia][ib] = cost[ib][ia] = _positive(ck, link, "cost", where)
        vonly[ia][ib] = vonly[ib][ia] = ck.get(link, "vehicle_only", bool, where)
    sections = ck.get(data, "sections", list, "file")
    reveals = []
    for s in sections:
        sid = ck.get(s, "id", str, "section")
        items = ck.get(s, "reveals", list, f"section {sid}")
        reveals.append(tuple(_parse_reveal(ck, r, f"section {sid} reveal {k}") for k, r in enumerate(items)))
        if ck.get(s, "location", str, f"section {sid}") not in loc_ids:
            raise ck.fail(f"section {sid}", "field 'location': unknown Location")
    vehicles = ck.get(data, "vehicles", list, "file")
    bonuses = []
    for v in vehicles:
        vid = ck.get(v, "id", str, "vehicle")
        bonus = ck.get(v, "bonus", dict, f"vehicle {vid}")
        if bonus.get("kind") not in ("multiply_total", "add_per_card"):
            raise ck.fail(f"vehicle {vid}", f"field 'bonus.kind': unknown bonus {bonus.get('kind')!r}")
        bonuses.append((str(bonus["kind"]), _positive(ck, bonus, "amount", f"vehicle {vid}")))
    return {
        "link_cost": tuple(tuple(r) for r in cost),
        "link_vehicle_only": tuple(tuple(r) for r in vonly),
        "section_names": tuple(ck.get(s, "name", str, "section") for s in sections),
        "section_location": tuple(loc_ids.index(s["location"]) for s in sections),
        "section_entry": tuple(_positive(ck, s, "entry_cost", f"section {s['id']}") for s in sections),
        "section_reveals": tuple(reveals),
        "vehicle_names": tuple(ck.get(v, "name", str, "vehicle") for v in vehicles),
        "vehicle_capacity": tuple(_positive(ck, v, "capacity", f"vehicle {v['id']}") for v in vehicles),
        "vehicle_bonus": tuple(bonuses),
    }


def _parse_reveal(ck: _Checker, reveal: Any, where: str) -> Reveal:
    cost = ck.get(reveal, "cost", list, where)
    if not cost or any(t not in TYPES for t in cost):
        raise ck.fail(where, f"field 'cost': bad card types {cost!r}")
    counts = tuple(cost.count(t) for t in TYPES)
    return Reveal(ck.get(reveal, "label", str, where), counts, ck.effects(reveal.get("effects"), where, SECTION))


def _parse_characters(ck: _Checker, chars: list[Any], loc_ids: list[str]) -> dict[str, Any]:
    colours, starts = [], []
    for i, c in enumerate(chars):
        where = f"character {c['id']}"
        if ck.get(c, "initiative", int, where) != i + 1:
            raise ck.fail(where, "field 'initiative': Characters must be listed in Initiative order 1..6")
        colour = c.get("colour")
        if colour is not None and colour not in COLOURS:
            raise ck.fail(where, f"field 'colour': unknown colour {colour!r}")
        colours.append(-1 if colour is None else COLOURS.index(colour))
        start = ck.get(c, "start", str, where)
        if start not in loc_ids:
            raise ck.fail(where, f"field 'start': unknown Location {start!r}")
        starts.append(loc_ids.index(start))
    if sorted(c for c in colours if c >= 0) != list(range(len(COLOURS))) or colours[-1] != -1:
        raise ck.fail("characters", "field 'colour': one Character per colour, the last (Robot) without")
    return {
        "char_names": tuple(ck.get(c, "name", str, f"character {c['id']}") for c in chars),
        "char_colour": tuple(colours),
        "char_start": tuple(starts),
        "char_controlled": tuple(ck.effects(c.get("controlled"), f"character {c['id']}", ABILITY) for c in chars),
        "char_uncontrolled": tuple(ck.effects(c.get("uncontrolled"), f"character {c['id']}", ABILITY) for c in chars),
    }


def _parse_objectives(ck: _Checker, items: list[Any]) -> dict[str, Any]:
    if len(items) != NUM_OBJECTIVES:
        raise ck.fail("objectives", f"need {NUM_OBJECTIVES} Objectives")
    roles = [ck.get(o, "role", str, f"objective {i}") for i, o in enumerate(items)]
    if roles != ["alien", "astronaut", "astronaut", "astronaut", "guardian"]:
        raise ck.fail("objectives", "field 'role': expected Alien, three Astronauts, Guardian in priority order")
    for i, o in enumerate(items):
        if ck.get(o, "priority", int, f"objective {o.get('id')}") != i + 1:
            raise ck.fail(f"objective {o.get('id')}", "field 'priority' must follow file order 1..5")
    return {
        "objective_names": tuple(ck.get(o, "name", str, "objective") for o in items),
        "objective_role": tuple(roles),
    }


def _parse_indicators(ck: _Checker, data: dict[str, Any]) -> dict[str, Any]:
    count = ck.get(data, "countdown", dict, "indicators")
    threat = ck.get(data, "threat", dict, "indicators")
    repair = ck.get(data, "repair", dict, "indicators")
    starts = ck.get(repair, "start", dict, "indicator repair")
    try:
        repair_start = {int(k): int(v) for k, v in starts.items()}
    except (TypeError, ValueError) as exc:
        raise ck.fail("indicator repair", "field 'start' must map player counts to ints") from exc
    if sorted(repair_start) != [3, 4, 5]:
        raise ck.fail("indicator repair", "field 'start' needs entries for 3, 4 and 5 players")
    return {
        "countdown_start": ck.get(count, "start", int, "indicator countdown"),
        "countdown_max": ck.get(count, "max", int, "indicator countdown"),
        "threat_start": ck.get(threat, "start", int, "indicator threat"),
        "threat_max": ck.get(threat, "max", int, "indicator threat"),
        "repair_max": ck.get(repair, "max", int, "indicator repair"),
        "repair_start": repair_start,
    }


def check_content_file(path: str) -> list[str]:
    """Validate a user's content file; readable summary lines, or :class:`ContentError`."""
    content = load_content(path)
    recon = sum(1 for r in content.card_reconstructed if r)
    return [
        f"{path}: valid Shadow Planet content",
        f"{content.num_cards} Operation cards ({recon} with reconstructed fields)",
        "decks: "
        + ", ".join(
            f"{name} {sum(1 for h in content.card_home if h == i)}" for i, name in enumerate(content.location_names)
        ),
        f"{len(content.section_names)} Sections, {len(content.vehicle_names)} Vehicles, "
        f"{len(content.char_names)} Characters, {len(content.objective_names)} Objectives",
    ]
