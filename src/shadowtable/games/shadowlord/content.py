"""Shadowlord! content: load and validate the data file, derive the board and the figures.

Everything printed on the components (board, cards, strengths, discs, event table, supplies,
timer) lives in ``data/content.json``; reconstructed fields are listed under ``reconstructed``.
Errors name the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from shadowtable._mypyc import by_constructor
from shadowtable.core.errors import ContentError

MAX_FIGURES = 33
"""Figure ids are fixed by the action space: 12 starting characters, 12 discs, 9 shadows."""
MAX_GALAXIES = 25
CARD_VALUES = 5

MASTER, WARRIOR, MERCHANT, DIPLOMAT, SHADOWLORD, SHADOW = range(6)
KIND_NAMES = ("Master", "Warrior", "Merchant", "Diplomat", "Shadowlord", "Shadow")
EVENTS = ("none", "defect", "escape", "spacestorm", "discover", "steal", "draw2")
EVENT_NAMES = (
    "no event",
    "Defect",
    "Escape",
    "Spacestorm",
    "Discover a disc",
    "Steal 2 Power Cards",
    "Draw 2 Power Cards",
)
"""The Special Events as the chart names them (``EVENTS`` in order), for the log."""
CELL_KINDS = {"B": "space_base", "R": "ruins", "H": "home", "F": "lost_fortress", ".": "galaxy"}


@dataclass(frozen=True)
class Configuration:
    """Which alliances play, the seat of each, and first-round movement targets."""

    alliances: tuple[int, ...]
    seat_of: tuple[int, ...]  # indexed by colour; -1 for colours not in play
    first_round: tuple[tuple[int, ...], ...]  # indexed by colour: allowed first-round galaxies

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_constructor(self)  # the compiled build copies and pickles no other way


@dataclass(frozen=True)
class Content:
    """The validated content of one data file."""

    source: str
    card_values: tuple[int, ...]
    card_counts: tuple[int, ...]
    colours: tuple[str, ...]
    rows: int
    cols: int
    cell_kind: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    home_of: tuple[int, ...]
    fortress: int
    ruins: frozenset[int]
    bases: frozenset[int]
    homes: frozenset[int]
    fig_kind: tuple[int, ...]
    fig_colour: tuple[int, ...]  # starting colour, -1 for discs, 4 for shadows
    fig_strength: tuple[int, ...]
    fig_name: tuple[str, ...]
    disc_figs: tuple[tuple[int, ...], ...]  # per disc kind: the figures it can become
    disc_counts: tuple[int, ...]
    disc_names: tuple[str, ...]
    events: tuple[int, ...]  # index = 2d8 sum (0..16)
    mandatory_events: frozenset[int]
    supplies: dict[str, int]
    timer_notches: int
    timer_every_turn_notches: int
    duel_drawn: int
    duel_reward: int
    blast_min_roll: int
    tie_to_defender: bool
    shadow_decider_step: int  # +1: left of the attacker, -1: right
    configurations: dict[str, Configuration]
    reconstructed: dict[str, str]

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_constructor(self)  # the compiled build copies and pickles no other way

    @property
    def num_figures(self) -> int:
        return len(self.fig_kind)

    @property
    def num_galaxies(self) -> int:
        return len(self.cell_kind)

    def galaxy_name(self, g: int) -> str:
        """Chess-like coordinates: columns a-e, rows counted from the south."""
        r, c = divmod(g, self.cols)
        return f"{'abcdefghij'[c]}{self.rows - r}"


def _need(data: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise ContentError(f"{where}: field {key!r} is missing")
    value = data[key]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise ContentError(f"{where}: field {key!r} must be {kind.__name__}, got {value!r}")
    return value


def _int_list(value: object, where: str, field: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ContentError(f"{where}: field {field!r} must be a list of integers")
    return list(value)


def _cell(value: object, rows: int, cols: int, where: str, field: str) -> int:
    pair = _int_list(value, where, field)
    if len(pair) != 2 or not (0 <= pair[0] < rows and 0 <= pair[1] < cols):
        raise ContentError(f"{where}: field {field!r} must be [row, col] on the board, got {value!r}")
    return pair[0] * cols + pair[1]


JSONObject = dict[str, Any]
"""A JSON object as the data file holds it (checked field by field)."""


@dataclass(frozen=True)
class _Board:
    """The board as read: its size, each cell's kind and neighbours, the homes and the galaxy
    each alliance moves to first."""

    rows: int
    cols: int
    kinds: list[str]
    neighbours: tuple[tuple[int, ...], ...]
    home_of: tuple[int, ...]
    left: list[int]


@dataclass(frozen=True)
class _Figures:
    """Every figure's kind, starting colour, strength and name, and the figures of each disc kind."""

    kind: list[int]
    colour: list[int]
    name: list[str]
    strength: list[int]
    disc_figs: list[tuple[int, ...]]


def parse_content(data: Any, source: str) -> Content:
    """Validate raw JSON data and build a :class:`Content`; raises :class:`ContentError`."""
    where = source
    if not isinstance(data, dict):
        raise ContentError(f"{where}: the content must be a JSON object")
    values, counts = _parse_cards(data, where)
    colours = _parse_colours(data, where)
    strengths = _parse_strengths(data, where)
    shadows, disc_ch = _parse_discs(data, where)
    board = _parse_board(data, colours, sum(disc_ch) + len(shadows), where)
    kinds = board.kinds
    events, mandatory = _parse_events(data, where)
    supplies = _parse_supplies(data, len(shadows), where)
    notches, every = _parse_timer(data, where)
    duel, decider = _parse_duel(data, where)
    raw_configs = _need(data, "configurations", dict, where)
    configs = _parse_configurations(
        raw_configs, colours, board.left, board.rows, board.cols, board.neighbours, board.home_of, where
    )
    figures = _figures(colours, strengths, disc_ch, shadows)
    disc_names = ["Warrior", "Merchant", "Diplomat"] + [f"Attacks: Shadow {i + 1}" for i in range(len(shadows))]
    recon = data.get("reconstructed", {})
    return Content(
        source=source,
        card_values=tuple(values),
        card_counts=tuple(counts),
        colours=tuple(colours),
        rows=board.rows,
        cols=board.cols,
        cell_kind=tuple(kinds),
        neighbours=board.neighbours,
        home_of=board.home_of,
        fortress=kinds.index("lost_fortress"),
        ruins=frozenset(i for i, k in enumerate(kinds) if k == "ruins"),
        bases=frozenset(i for i, k in enumerate(kinds) if k == "space_base"),
        homes=frozenset(board.home_of),
        fig_kind=tuple(figures.kind),
        fig_colour=tuple(figures.colour),
        fig_strength=tuple(figures.strength),
        fig_name=tuple(figures.name),
        disc_figs=tuple(figures.disc_figs),
        disc_counts=tuple(disc_ch + [1] * len(shadows)),
        disc_names=tuple(disc_names),
        events=tuple(events),
        mandatory_events=mandatory,
        supplies=dict(supplies),
        timer_notches=notches,
        timer_every_turn_notches=every,
        duel_drawn=duel["drawn_cards"],
        duel_reward=duel["reward_cards"],
        blast_min_roll=duel["blast_min_roll"],
        tie_to_defender=duel["tie_winner"] == "defender",
        shadow_decider_step=1 if decider == "left_of_attacker" else -1,
        configurations=configs,
        reconstructed=dict(recon) if isinstance(recon, dict) else {},
    )


def _parse_cards(data: JSONObject, where: str) -> tuple[list[int], list[int]]:
    """The power cards' values and how many of each."""
    cards = _need(data, "power_cards", dict, where)
    values = _int_list(_need(cards, "values", list, where + ":power_cards"), where, "power_cards.values")
    counts = _int_list(_need(cards, "counts", list, where + ":power_cards"), where, "power_cards.counts")
    if len(values) != CARD_VALUES or len(counts) != CARD_VALUES or any(c < 0 for c in counts):
        raise ContentError(f"{where}: field 'power_cards' needs {CARD_VALUES} values and non-negative counts")
    if sorted(set(values)) != values or values[0] < 0:
        raise ContentError(f"{where}: field 'power_cards.values' must be increasing and non-negative")
    return values, counts


def _parse_colours(data: JSONObject, where: str) -> list[str]:
    """The four alliances' colours."""
    colours: list[str] = _need(data, "colours", list, where)
    if len(colours) != 4 or not all(isinstance(c, str) for c in colours) or len(set(colours)) != 4:
        raise ContentError(f"{where}: field 'colours' must name 4 distinct colours")
    return colours


def _parse_strengths(data: JSONObject, where: str) -> dict[str, int]:
    """The strength of each kind of figure but the shadows."""
    strengths: dict[str, int] = _need(data, "strengths", dict, where)
    for key in ("master", "warrior", "merchant", "diplomat", "shadowlord"):
        _need(strengths, key, int, where + ":strengths")
    return strengths


def _parse_discs(data: JSONObject, where: str) -> tuple[list[int], list[int]]:
    """The shadows' strengths and how many warrior, merchant and diplomat discs there are."""
    shadows = _int_list(_need(data, "shadows", list, where), where, "shadows")
    discs = _need(data, "discs", dict, where)
    disc_ch = [_need(discs, k, int, where + ":discs") for k in ("warrior", "merchant", "diplomat")]
    figures = 12 + sum(disc_ch) + 1 + len(shadows)
    if figures != MAX_FIGURES:
        raise ContentError(f"{where}: fields 'discs'/'shadows' give {figures} figures; the engine needs {MAX_FIGURES}")
    return shadows, disc_ch


def _parse_cells(board: JSONObject, where: str) -> tuple[int, int, list[str]]:
    """The board's rows, columns and each cell's kind."""
    cells = _need(board, "cells", list, where + ":board")
    rows, cols = len(cells), len(cells[0]) if cells else 0
    if rows * cols != MAX_GALAXIES or any(not isinstance(r, str) or len(r) != cols for r in cells):
        raise ContentError(f"{where}: field 'board.cells' must be a rectangle of {MAX_GALAXIES} cells")
    kinds: list[str] = []
    for r, row in enumerate(cells):
        for c, ch in enumerate(row):
            if ch not in CELL_KINDS:
                raise ContentError(f"{where}: field 'board.cells[{r}][{c}]' has unknown cell {ch!r}")
            kinds.append(CELL_KINDS[ch])
    return rows, cols, kinds


def _grid_neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours (north, east, south, west)."""
    return tuple(
        tuple(
            (r + dr) * cols + c + dc
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        for r in range(rows)
        for c in range(cols)
    )


def _parse_board(data: JSONObject, colours: list[str], discs: int, where: str) -> _Board:
    """The board, checked against the colours and the number of ``discs`` (one per empty galaxy)."""
    board = _need(data, "board", dict, where)
    rows, cols, kinds = _parse_cells(board, where)
    neighbours = _grid_neighbours(rows, cols)
    homes_raw = _need(board, "homes", dict, where + ":board")
    home_of = tuple(_cell(homes_raw.get(col), rows, cols, where, f"board.homes.{col}") for col in colours)
    if any(kinds[h] != "home" for h in home_of) or kinds.count("home") != 4:
        raise ContentError(f"{where}: field 'board.homes' must name the 4 'H' cells")
    if kinds.count("lost_fortress") != 1:
        raise ContentError(f"{where}: field 'board.cells' needs exactly one Lost Fortress 'F'")
    empty = kinds.count("galaxy") + kinds.count("ruins") + kinds.count("space_base")
    if discs != empty:
        raise ContentError(f"{where}: field 'discs': {discs} discs for {empty} empty galaxies (one each)")
    left_raw = _need(board, "first_round_left", dict, where + ":board")
    left = [_cell(left_raw.get(col), rows, cols, where, f"board.first_round_left.{col}") for col in colours]
    for i, g in enumerate(left):
        if g not in neighbours[home_of[i]]:
            raise ContentError(f"{where}: field 'board.first_round_left.{colours[i]}' is not next to its home")
    return _Board(rows, cols, kinds, neighbours, home_of, left)


def _parse_events(data: JSONObject, where: str) -> tuple[list[int], frozenset[int]]:
    """The special event of each 2d8 total (index = total) and the mandatory events."""
    events_raw = _need(data, "special_events", dict, where)
    events = [0] * 17
    for total in range(2, 17):
        name = events_raw.get(str(total))
        if name not in EVENTS:
            raise ContentError(f"{where}: field 'special_events.{total}' must be one of {list(EVENTS)}")
        events[total] = EVENTS.index(name)
    mandatory = frozenset(EVENTS.index(n) for n in data.get("mandatory_events", []) if n in EVENTS)
    return events, mandatory


SUPPLY_FIELDS = (
    "rings_per_colour",
    "ships_per_colour",
    "black_rings",
    "black_ships",
    "power_stones",
    "shadowlord_ships",
    "ring_capacity",
    "alliance_limit",
    "start_ships",
    "ships_per_merchant",
    "ships_per_space_base",
)
"""The fields of ``supplies``, each a non-negative integer."""


def _parse_supplies(data: JSONObject, shadows: int, where: str) -> dict[str, int]:
    """The supplies, checked against the number of ``shadows``."""
    supplies: dict[str, int] = _need(data, "supplies", dict, where)
    for key in SUPPLY_FIELDS:
        if _need(supplies, key, int, where + ":supplies") < 0:
            raise ContentError(f"{where}: field 'supplies.{key}' must be non-negative")
    if supplies["black_rings"] != 1 + shadows:
        raise ContentError(f"{where}: field 'supplies.black_rings' must equal 1 + number of shadows")
    if supplies["alliance_limit"] > supplies["rings_per_colour"]:
        raise ContentError(f"{where}: field 'supplies.alliance_limit' exceeds 'rings_per_colour'")
    return supplies


def _parse_timer(data: JSONObject, where: str) -> tuple[int, int]:
    """The timer's notches and how many it moves every turn."""
    timer = _need(data, "timer", dict, where)
    notches: int = _need(timer, "notches", int, where + ":timer")
    every: int = _need(timer, "every_turn_notches", int, where + ":timer")
    if notches < 1 or every < 1:
        raise ContentError(f"{where}: field 'timer' notches must be positive")
    return notches, every


def _parse_duel(data: JSONObject, where: str) -> tuple[JSONObject, str]:
    """The duel's fields and who decides for a shadow (``shadow_decider``)."""
    duel: JSONObject = _need(data, "duel", dict, where)
    for key in ("drawn_cards", "reward_cards", "blast_min_roll"):
        if _need(duel, key, int, where + ":duel") < 0:
            raise ContentError(f"{where}: field 'duel.{key}' must be non-negative")
    if duel.get("tie_winner") not in ("defender", "attacker"):
        raise ContentError(f"{where}: field 'duel.tie_winner' must be 'defender' or 'attacker'")
    decider = data.get("shadow_decider")
    if decider not in ("left_of_attacker", "right_of_attacker"):
        raise ContentError(f"{where}: field 'shadow_decider' must be 'left_of_attacker' or 'right_of_attacker'")
    return duel, str(decider)


def _figures(colours: list[str], strengths: dict[str, int], disc_ch: list[int], shadows: list[int]) -> _Figures:
    """The figures in id order: the 12 starting characters, the discs' figures, the Shadowlord,
    then the shadows."""
    kinds = [MASTER] * 4 + [WARRIOR] * 4 + [DIPLOMAT] * 4
    colour = [0, 1, 2, 3] * 3
    names = [f"{col.capitalize()} {k}" for k in ("Master", "Warrior", "Diplomat") for col in colours]
    disc_figs: list[tuple[int, ...]] = []
    for kind, n, label in ((WARRIOR, disc_ch[0], "W"), (MERCHANT, disc_ch[1], "M"), (DIPLOMAT, disc_ch[2], "D")):
        start = len(kinds)
        disc_figs.append(tuple(range(start, start + n)))
        for i in range(n):
            kinds.append(kind)
            colour.append(-1)
            names.append(f"{KIND_NAMES[kind]} {label}{i + 1}")
    kinds.append(SHADOWLORD)
    colour.append(4)
    names.append("Shadowlord")
    for i in range(len(shadows)):
        disc_figs.append((len(kinds),))
        kinds.append(SHADOW)
        colour.append(4)
        names.append(f"Shadow {i + 1}")
    keys = {MASTER: "master", WARRIOR: "warrior", MERCHANT: "merchant", DIPLOMAT: "diplomat", SHADOWLORD: "shadowlord"}
    shadow_iter = iter(shadows)
    strength = [strengths[keys[k]] if k != SHADOW else next(shadow_iter) for k in kinds]
    return _Figures(kinds, colour, names, strength, disc_figs)


def _parse_configurations(
    raw: JSONObject,
    colours: list[str],
    left: list[int],
    rows: int,
    cols: int,
    neighbours: tuple[tuple[int, ...], ...],
    home_of: tuple[int, ...],
    where: str,
) -> dict[str, Configuration]:
    result: dict[str, Configuration] = {}
    for key, players in (("4", 4), ("3", 3), ("2", 2), ("2m", 2)):
        cfg = _need(raw, key, dict, where + ":configurations")
        names = _need(cfg, "alliances", list, f"{where}:configurations.{key}")
        seats = _int_list(
            _need(cfg, "seats", list, f"{where}:configurations.{key}"), where, f"configurations.{key}.seats"
        )
        if any(n not in colours for n in names) or len(seats) != len(names):
            raise ContentError(f"{where}: field 'configurations.{key}' names unknown colours or mismatched seats")
        if sorted(set(seats)) != list(range(players)):
            raise ContentError(f"{where}: field 'configurations.{key}.seats' must cover seats 0..{players - 1}")
        alliances = tuple(sorted(colours.index(n) for n in names))
        seat_of = [-1] * 4
        for n, s in zip(names, seats, strict=True):
            seat_of[colours.index(n)] = s
        first: list[tuple[int, ...]] = [(left[a],) for a in range(4)]
        for name, cells in dict(cfg.get("first_round", {})).items():
            if name not in colours or not isinstance(cells, list):
                raise ContentError(f"{where}: field 'configurations.{key}.first_round.{name}' is malformed")
            a = colours.index(name)
            targets = tuple(_cell(c, rows, cols, where, f"configurations.{key}.first_round.{name}") for c in cells)
            if any(t not in neighbours[home_of[a]] for t in targets):
                raise ContentError(f"{where}: field 'configurations.{key}.first_round.{name}' is not next to home")
            first[a] = targets
        result[key] = Configuration(alliances, tuple(seat_of), tuple(first))
    return result


def load_content(path: str | None = None) -> Content:
    """The built-in content, or the content file at ``path``."""
    if path is None:
        text = resources.files("shadowtable.games.shadowlord").joinpath("data/content.json").read_text("utf-8")
        source = "shadowlord/data/content.json"
    else:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise ContentError(f"{path}: cannot read content file: {exc}") from exc
        source = path
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{source}: not valid JSON: {exc}") from exc
    return parse_content(data, source)


CONTENT_CACHE = 8
"""Content files kept loaded at most (a server checks many users' files: the cache stays bounded)."""


@lru_cache(maxsize=CONTENT_CACHE)
def cached_content(path: str | None) -> Content:
    """Load once per path (content files are read-only during a run), the latest few kept."""
    return load_content(path)


def content_summary(content: Content) -> list[str]:
    """Summary lines for ``shadowtable content check``."""
    return [
        f"{content.source}: OK",
        f"power cards: {sum(content.card_counts)} ({dict(zip(content.card_values, content.card_counts, strict=True))})",
        f"board: {content.rows}x{content.cols}, fortress {content.galaxy_name(content.fortress)}, "
        f"{len(content.ruins)} ruins, {len(content.bases)} space bases",
        f"figures: {content.num_figures}; face-down discs: {sum(content.disc_counts)}",
        f"timer notches: {content.timer_notches}",
        f"reconstructed fields: {', '.join(sorted(content.reconstructed)) or 'none'}",
    ]
