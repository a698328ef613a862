"""The Shadow Planet board for the browser: the map of Gliese 667 as SVG, and the seat's panel.

Everything drawn comes from the ``view`` message (``obs``, ``legal``, ``pending``), the printed
material (``game.words.reference()``, read as :mod:`..printed` tables: names, Links, Sections) and the pure
decoding of action ids; never from a game state.

The SVG is two layers with the same ``viewBox``: the drawing (``role="img"`` with ``<title>`` and
``<desc>``) and, on top of it, the clickable places of the legal actions (a ``role="group"``
overlay), so the text alternative of the drawing does not hide the buttons from assistive
technology.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.views import typed_view
from shadowtable.core.wording import DEFAULT_NAMES, SeatNames
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.content import COLOURS
from shadowtable.games.shadow_planet.printed import printed
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetOutcome
from shadowtable.games.shadow_planet.wording import without_verdict
from shadowtable.web.boards import BoardHtml
from shadowtable.web.render import SeatMessage
from shadowtable.web.templating import render

# -- fixed drawing constants ------------------------------------------------------------------
WIDTH = 600
COLOUR_FILL = ("#f2c230", "#f08a24", "#d63a2f", "#f4f4f0", "#2b2b2b")
COLOUR_INK = ("#000", "#000", "#fff", "#000", "#fff")
COLOUR_LETTER = ("Y", "O", "R", "W", "B")
ROBOT_FILL, ROBOT_INK = "#d8c8a8", "#000"
TYPE_NAMES = ("move", "search", "get", "repair", "attack")

GAUGES = (  # (key, label, highest, end value, fill)
    ("countdown", "Countdown", 12, 0, "#f08a24"),
    ("repair", "Repair", 10, 0, "#3a7bd5"),
    ("threat", "Threat", 8, 8, "#d63a2f"),
)
GAUGE_TOP, GAUGE_ROW, CELL = 8, 32, 34
GAUGE_X = 128

MAP_TOP = GAUGE_TOP + 3 * GAUGE_ROW + 14
COL_X = (10, 330)
BOX_W = 260
ROW_GAP = 70
TITLE_H = 30
PAWN_H = 62  # pawn line + vehicle line
SECTION_LINE = 13
PAY_CHARS = 29  # wrap width of a payment line (10px font, ~160px)

NO_PLACE = frozenset({A.DONE, A.RIDE, A.STAY, A.USE, A.SKIP, A.LEAVE})
"""Decisions with no place on the board: they stay only in the list of actions in words."""


def has_place(action: int) -> bool:
    """Whether a legal ``action`` is drawn as a clickable place on the board or the panel."""
    return action not in NO_PLACE and 0 <= action < A.NUM_ACTIONS


# -- small helpers ----------------------------------------------------------------------------
@dataclass
class Act:
    """A clickable legal action: its id and its words."""

    id: int
    words: str


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float
    acts: list[Act] = field(default_factory=list)
    label: str = ""
    cls: str = ""


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def _initials(name: str) -> str:
    return name[:2]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


Context = dict[str, Any]
"""A template's context: names to the values the template shows."""


class _Decoder:
    """Names from the game's printed material, and the legal actions sorted by their place."""

    def __init__(self, game: Game[Any], legal: dict[int, str], people: SeatNames = DEFAULT_NAMES) -> None:
        self.ref: Context = game.words.reference()
        c = printed(game)
        self.locations: list[str] = list(c.location_names)
        self.sections: list[str] = list(c.section_names)
        self.section_loc: list[int] = list(c.section_location)
        self.vehicles: list[str] = list(c.vehicle_names)
        self.chars: list[str] = [ch["name"] for ch in self.ref["characters"]]
        self.char_colour: list[int] = list(c.char_colour)
        self.objectives: list[Context] = self.ref["objectives"]
        self.cards: list[Context] = self.ref["cards"]
        self.people = people
        self.legal = {action: people.shown(words) for action, words in legal.items()}

    def card_label(self, card: int) -> str:
        k = self.cards[card]
        return f"{k['name']} ({k['type'].capitalize()} {k['value']}) #{card}"

    def in_range(self, low: int, high: int) -> dict[int, Act]:
        """Legal actions with ids in ``[low, high)``, keyed by ``id - low``."""
        return {a - low: Act(a, w) for a, w in self.legal.items() if low <= a < high}

    def colour_name(self, ch: int) -> str:
        colour = self.char_colour[ch]
        return COLOURS[colour] if colour >= 0 else "beige"


def _marker(colour: int, **extra: object) -> Context:
    """A Marker colour drawn with its name and letter (colour is never the only cue)."""
    return {"colour": COLOURS[colour], "letter": COLOUR_LETTER[colour], "fill": COLOUR_FILL[colour],
            "ink": COLOUR_INK[colour], **extra}  # fmt: skip


# -- the board (SVG) --------------------------------------------------------------------------
def _section_rows(d: _Decoder) -> list[Context]:
    rows = []
    for k, section in enumerate(d.ref["sections"]):
        lines: list[tuple[int, str]] = []  # (payment index, text)
        for i, pay in enumerate(section["payments"]):
            for line in _wrap(f"{pay['label']}: pay {pay['cost']}", PAY_CHARS):
                lines.append((i, line))
        height = max(58, 36 + SECTION_LINE * len(lines) + 4)
        rows.append({"k": k, "name": section["name"], "entry": section["entry_cost"], "lines": lines, "h": height})
    return rows


def _layout(d: _Decoder, rows: list[Context]) -> dict[int, Box]:
    """Location boxes: two columns, two rows; each box tall enough for its Sections."""
    heights = []
    for loc in range(len(d.locations)):
        inner = sum(r["h"] + 4 for r in rows if d.section_loc[r["k"]] == loc)
        heights.append(TITLE_H + inner + PAWN_H)
    boxes: dict[int, Box] = {}
    y = MAP_TOP
    for first in range(0, len(d.locations), 2):
        pair = list(range(first, min(first + 2, len(d.locations))))
        h = max(heights[i] for i in pair)
        for col, loc in enumerate(pair):
            boxes[loc] = Box(COL_X[col], y, BOX_W, h, label=d.locations[loc])
        y += h + ROW_GAP
    return boxes


def _links(d: _Decoder, boxes: dict[int, Box]) -> list[Context]:
    """Each Link as a line between facing edges, its cost in a badge (dashed: Vehicle only)."""
    index = {name: i for i, name in enumerate(d.locations)}
    out = []
    for link in d.ref["links"]:
        a, b = (index[name] for name in link["between"])
        x1, y1, x2, y2, t = _link_line(boxes[a], boxes[b])
        bx, by = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        words = f"Link {link['between'][0]} to {link['between'][1]}: {link['cost']} Move" + (
            ", Vehicle only" if link["vehicle_only"] else ""
        )
        out.append(
            {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "bx": bx, "by": by, "cost": link["cost"],
             "vehicle": link["vehicle_only"], "words": words}
        )  # fmt: skip
    return out


def _link_line(ba: Box, bb: Box) -> tuple[float, float, float, float, float]:
    """The ends of a Link between two boxes, and where along it its badge sits (0 to 1)."""
    if ba.y == bb.y:  # same row
        left, right = (ba, bb) if ba.x < bb.x else (bb, ba)
        y = left.y + 40
        return left.x + left.w, y, right.x, y, 0.5
    top, bottom = (ba, bb) if ba.y < bb.y else (bb, ba)
    if ba.x == bb.x:  # same column
        x = top.x + top.w / 2
        return x, top.y + top.h, x, bottom.y, 0.5
    # diagonal: between the inner corners
    x1 = top.x + top.w if top.x < bottom.x else top.x
    x2 = bottom.x if top.x < bottom.x else bottom.x + bottom.w
    t = 0.3 if top.x < bottom.x else 0.7  # the two diagonals' badges do not overlap
    return x1, top.y + top.h, x2, bottom.y, t


def _pawn(d: _Decoder, obs: PlanetObservation, ch: int, x: float, y: float, r: float, acts: dict[int, Act]) -> Context:
    colour = d.char_colour[ch]
    controller = obs.public.controller[ch]
    seat = obs.seat
    words = f"{d.chars[ch]} ({d.colour_name(ch)})" + (
        f", controlled by {d.people(controller)}" if controller >= 0 else ""
    )
    act = acts.get(ch)
    return {
        "ch": ch,
        "x": x,
        "y": y,
        "r": r,
        "fill": COLOUR_FILL[colour] if colour >= 0 else ROBOT_FILL,
        "ink": COLOUR_INK[colour] if colour >= 0 else ROBOT_INK,
        "initials": _initials(d.chars[ch]),
        "seat": controller,
        "mine": seat is not None and controller == seat,
        "active": obs.public.active == ch,
        "words": words,
        "act": act,
    }


@dataclass
class _MapDrawing:
    """What the map is drawn from (the seat's observation, the layout, the legal actions by
    place) and what it collects: locations, Sections, pawns and the clickable overlay."""

    d: _Decoder
    obs: PlanetObservation
    rows: list[Context]
    goto: dict[int, Act]
    enter: dict[int, Act]
    deck: dict[int, Act]
    drive: dict[int, Act]
    resolve: dict[int, Act]
    pawn: dict[int, Act]
    pending_section: int
    locations: list[Context] = field(default_factory=list)
    sections: list[Context] = field(default_factory=list)
    pawns: list[Context] = field(default_factory=list)
    overlay: list[Context] = field(default_factory=list)


def _map_drawing(d: _Decoder, obs: PlanetObservation, rows: list[Context]) -> _MapDrawing:
    pending_section = obs.pending.data.get("section", -1)
    return _MapDrawing(
        d=d,
        obs=obs,
        rows=rows,
        goto=d.in_range(A.GOTO, A.ENTER),
        enter=d.in_range(A.ENTER, A.DRIVE),
        deck=d.in_range(A.DECK, A.IDENTITY),
        drive=d.in_range(A.DRIVE, A.RIDE),
        resolve=d.in_range(A.RESOLVE, A.LEAVE),
        pawn={**d.in_range(A.CANCEL, A.SEAT), **d.in_range(A.IDENTITY, A.NUM_ACTIONS)},
        pending_section=pending_section if isinstance(pending_section, int) else -1,
    )


def _draw_location(m: _MapDrawing, loc: int, box: Box) -> None:
    """A Location box: its deck, Vehicles, Sections and pawns, and their clickable places."""
    d, p = m.d, m.obs.public
    vehicles = [v for v, at in enumerate(p.vehicle_loc) if at == loc]
    deck = {"x": box.x + box.w - 84, "y": box.y + 5, "w": 78, "h": 20, "size": p.zones.decks[loc].size}
    reach = loc in m.goto
    loc_view = {
        "loc": loc, "name": d.locations[loc], "box": box, "deck": deck, "reach": reach,
        "vehicles": [
            {"name": d.vehicles[v], "x": box.x + 8 + 86 * i, "y": box.y + box.h - 26, "w": 80, "h": 20}
            for i, v in enumerate(vehicles)
        ],
    }  # fmt: skip
    if reach:
        m.overlay.append({"kind": "location", "x": box.x, "y": box.y, "w": box.w, "h": box.h, "act": m.goto[loc]})
    if loc in m.deck:
        m.overlay.append({"kind": "deck", "x": deck["x"], "y": deck["y"], "w": deck["w"], "h": deck["h"],
                          "act": m.deck[loc]})  # fmt: skip
    _draw_drives(m, loc, box)
    y = box.y + TITLE_H
    for row in m.rows:
        if d.section_loc[row["k"]] == loc:
            _draw_section(m, row, box, y)
            y += row["h"] + 4
    here = [ch for ch, at in enumerate(p.character_location) if at == loc and p.character_section[ch] < 0]
    for n, ch in enumerate(here):
        m.pawns.append(_pawn(d, m.obs, ch, box.x + 22 + 36 * n, box.y + box.h - 46, 14, m.pawn))
    m.locations.append(loc_view)


def _draw_drives(m: _MapDrawing, loc: int, box: Box) -> None:
    """A clickable button per Vehicle that may be driven from ``loc``."""
    for i, (v, act) in enumerate(
        (divmod(key, 4)[0], act) for key, act in sorted(m.drive.items()) if divmod(key, 4)[1] == loc
    ):
        x = box.x + box.w - 8 - 92 * (i + 1)
        m.overlay.append({"kind": "drive", "x": x, "y": box.y + box.h - 26, "w": 88, "h": 20, "act": act,
                          "text": f"drive {m.d.vehicles[v]}"})  # fmt: skip


def _draw_section(m: _MapDrawing, row: Context, box: Box, y: float) -> None:
    """A Section inside its Location: Markers, payments, the pawns inside, clickable places."""
    k = row["k"]
    sx, sw = box.x + 6, box.w - 12
    mask = m.obs.public.section_markers[k]
    markers = [
        _marker(col, x=sx + sw - 88 + 17 * j, y=y + 16)
        for j, col in enumerate(col for col in range(5) if (mask >> col) & 1)
    ]
    inside = [ch for ch, at in enumerate(m.obs.public.character_section) if at == k]
    pay_rows = [
        {"i": i, "text": text, "x": sx + 6, "y": y + 32 + SECTION_LINE * j} for j, (i, text) in enumerate(row["lines"])
    ]
    m.sections.append({
        "k": k, "name": row["name"], "entry": row["entry"], "x": sx, "y": y, "w": sw, "h": row["h"],
        "markers": markers, "lines": pay_rows, "reach": k in m.enter,
        "marker_words": ", ".join(str(mk["colour"]) for mk in markers) or "no Markers",
    })  # fmt: skip
    for n, ch in enumerate(inside):
        m.pawns.append(_pawn(m.d, m.obs, ch, sx + sw - 64 + 24 * n, y + row["h"] - 14, 11, m.pawn))
    if k in m.enter:
        m.overlay.append({"kind": "section", "x": sx, "y": y, "w": sw, "h": row["h"], "act": m.enter[k]})
    if k == m.pending_section and m.resolve:
        for i, act in sorted(m.resolve.items()):
            mine = [pay for pay in pay_rows if pay["i"] == i]
            if mine:
                m.overlay.append({"kind": "pay", "x": sx + 2, "y": mine[0]["y"], "w": 170,
                                  "h": SECTION_LINE * len(mine) + 3, "act": act})  # fmt: skip


def _pawn_overlay(pawns: list[Context]) -> list[Context]:
    """A clickable place around each pawn that a legal action names."""
    return [
        {"kind": "pawn", "x": pawn["x"] - pawn["r"] - 3, "y": pawn["y"] - pawn["r"] - 3,
         "w": 2 * pawn["r"] + 6, "h": 2 * pawn["r"] + 6, "act": pawn["act"]}
        for pawn in pawns
        if pawn["act"] is not None
    ]  # fmt: skip


def _board(d: _Decoder, obs: PlanetObservation) -> Context:
    rows = _section_rows(d)
    boxes = _layout(d, rows)
    m = _map_drawing(d, obs, rows)
    for loc, box in boxes.items():
        _draw_location(m, loc, box)
    m.overlay.extend(_pawn_overlay(m.pawns))
    gauges = _gauges(d, obs, m.overlay)
    bottom = max(b.y + b.h for b in boxes.values()) + 16
    pool = _pool(d, obs, bottom, m.overlay)
    return {
        "width": WIDTH,
        "height": bottom + 70,
        "gauges": gauges,
        "links": _links(d, boxes),
        "locations": m.locations,
        "sections": m.sections,
        "pawns": m.pawns,
        "pool": pool,
        "overlay": m.overlay,
        "title": f"The Shadow Planet, round {obs.public.round}",
        "desc": _describe(d, obs),
    }


def _gauges(d: _Decoder, obs: PlanetObservation, overlay: list[Context]) -> list[Context]:
    adjust = {A.ADVANCE: -1, A.MOVE_BACK: +1}
    out = []
    for row, (key, label, top, end, fill) in enumerate(GAUGES):
        value = getattr(obs.public, key)
        y = GAUGE_TOP + GAUGE_ROW * row
        cells = [
            {"n": n, "x": GAUGE_X + CELL * n, "current": n == value, "end": n == end}
            for n in range(top + 1)
        ]  # fmt: skip
        out.append({"key": key, "label": label, "value": value, "top": top, "end": end, "fill": fill, "y": y,
                    "cells": cells, "words": f"{label} {value} of {top}, the game ends at {end}"})  # fmt: skip
        if key == "countdown":
            for a, step in adjust.items():
                if a in d.legal:  # on the cell it moves to (the current one when it cannot move further)
                    cell = min(top, max(0, value + step))
                    overlay.append({"kind": "gauge", "x": GAUGE_X + CELL * cell, "y": y, "w": CELL - 2,
                                    "h": 24, "act": Act(a, d.legal[a])})  # fmt: skip
    return out


def _pool(d: _Decoder, obs: PlanetObservation, y: float, overlay: list[Context]) -> Context:
    colour_acts = d.in_range(A.COLOUR, A.USE)
    p = obs.public
    chips = []
    for col in range(5):
        x = 100 + 58 * col
        chips.append(_marker(col, count=p.pool[col], x=x, y=y))
        if col in colour_acts:
            overlay.append({"kind": "pool", "x": x - 2, "y": y - 2, "w": 54, "h": 26, "act": colour_acts[col]})
    zones = p.zones
    piles = (
        f"Messages pile {zones.decks[4].size} · Temple pile {len(zones.temple)} · "
        f"Discarded {len(zones.discard)} · Removed {zones.removed}"
    )
    return {"y": y, "chips": chips, "piles": piles, "piles_y": y + 44}


def _describe(d: _Decoder, obs: PlanetObservation) -> str:
    """The board in words: indicators, where every Character and Vehicle is, Section Markers."""
    p = obs.public
    parts = [
        f"Round {p.round}. Countdown {p.countdown} of 12 (ends at 0), Repair {p.repair} of 10 "
        f"(ends at 0), Threat {p.threat} of 8 (ends at 8)."
    ]
    for ch, loc in enumerate(p.character_location):
        where = d.locations[loc]
        sec = p.character_section[ch]
        if sec >= 0:
            where = f"{d.sections[sec]} in {where}"
        who = p.controller[ch]
        ctrl = f", controlled by {d.people(who)}" if who >= 0 else ", not controlled"
        parts.append(f"{d.chars[ch]} ({d.colour_name(ch)}) is at {where}{ctrl}.")
    for v, loc in enumerate(p.vehicle_loc):
        parts.append(f"{d.vehicles[v]}: " + (f"at {d.locations[loc]}." if loc >= 0 else "not in play."))
    marks = [
        f"{d.sections[k]} has {', '.join(COLOURS[c] for c in range(5) if (m >> c) & 1)}"
        for k, m in enumerate(p.section_markers)
        if m
    ]
    parts.append("Section Markers: " + ("; ".join(marks) if marks else "none") + ".")
    parts.append("Marker pool: " + ", ".join(f"{p.pool[c]} {COLOURS[c]}" for c in range(5)) + ".")
    return " ".join(parts)


# -- the panel (HTML) -------------------------------------------------------------------------
def _card(d: _Decoder, card: int, acts: list[Act]) -> Context:
    k = d.cards[card]
    return {"id": card, "name": k["name"], "type": k["type"], "value": k["value"], "text": k["text"],
            "label": d.card_label(card), "acts": acts}  # fmt: skip


def _card_acts(d: _Decoder) -> dict[int, list[Act]]:
    """The legal actions on each card (play, choose, place, discard), by card."""
    card_acts: dict[int, list[Act]] = {}
    for low, high in ((A.PLAY, A.CHOOSE), (A.CHOOSE, A.PLACE), (A.PLACE, A.DISCARD), (A.DISCARD, A.DONE)):
        for card, act in sorted(d.in_range(low, high).items()):
            card_acts.setdefault(card, []).append(act)
    return card_acts


def _me(d: _Decoder, obs: PlanetObservation, seat: int) -> Context:
    """The seat's own Objective and the Character it controls."""
    p = obs.public
    objective = p.objectives[seat]
    ch = p.seat_character[seat]
    me: Context = {"seat": seat, "objective": None, "char": None}
    if isinstance(objective, int) and objective >= 0:
        ref = d.objectives[objective]
        me["objective"] = {"name": ref["name"], "role": ref["role"], "priority": ref["priority"],
                           "goal": ref["goal"]}  # fmt: skip
    if ch >= 0:
        char = d.ref["characters"][ch]
        me["char"] = {"name": char["name"], "colour": d.colour_name(ch), "ability": char["ability"],
                      "uncontrolled": char["uncontrolled"], "size": p.zones.gear[ch].size}  # fmt: skip
    return me


def _hand(d: _Decoder, obs: PlanetObservation, card_acts: dict[int, list[Act]]) -> list[Context]:
    """The cards in the Gear of the Character the seat controls (none: a spectator, or no Character)."""
    if obs.seat is None or obs.public.seat_character[obs.seat] < 0:
        return []
    gear = obs.public.zones.gear[obs.public.seat_character[obs.seat]]
    return [_card(d, card, card_acts.get(card, [])) for card in gear.known]


def _draft(d: _Decoder, obs: PlanetObservation) -> Context | None:
    """The Characters this seat may pick, the one set aside for it and its own pick."""
    draft = obs.public.draft
    seat = obs.seat
    picks = d.in_range(A.PICK, A.PLAY)
    offered = sorted(set(draft.received or []) | set(picks))
    if not (offered or draft.random is not None or (seat is not None and draft.picks[seat] is not None)):
        return None
    mine = draft.picks[seat] if seat is not None else None
    return {
        "offered": [
            {"name": d.chars[ch], "colour": d.colour_name(ch), "ability": d.ref["characters"][ch]["ability"],
             "uncontrolled": d.ref["characters"][ch]["uncontrolled"], "act": picks.get(ch)}
            for ch in offered
        ],
        "random": d.chars[draft.random] if draft.random is not None else None,
        "mine": d.chars[mine] if isinstance(mine, int) and mine >= 0 else None,
    }  # fmt: skip


def _players(d: _Decoder, obs: PlanetObservation) -> list[Context]:
    """Every seat: name, Objective (as far as this seat knows), Character, identity, Markers."""
    p = obs.public
    seat_acts = d.in_range(A.SEAT, A.COLOUR)
    players = []
    for i, objective in enumerate(p.objectives):
        ch = p.seat_character[i]
        ident = p.identity[i] if i < len(p.identity) else -1
        players.append({
            "seat": i,
            "name": d.people(i),
            "you": i == obs.seat,
            "protagonist": i == p.protagonist,
            "objective": "hidden" if objective is None else ("-" if objective < 0 else d.objectives[objective]["name"]),
            "controls": d.chars[ch] if ch >= 0 else "-",
            "identity": d.chars[ident] if ident >= 0 else None,
            "markers": [_marker(c, count=p.sheets[i * 5 + c]) for c in range(5)],
            "act": seat_acts.get(i),
        })  # fmt: skip
    return players


def _gear(d: _Decoder, obs: PlanetObservation) -> list[Context]:
    """Each Character's Gear as this seat knows it (its own hand is shown apart) and played cards."""
    p = obs.public
    seat = obs.seat
    gear = []
    for ch in range(len(d.chars)):
        g = p.zones.gear[ch]
        own = seat is not None and p.seat_character[seat] == ch
        gear.append({
            "name": d.chars[ch], "colour": d.colour_name(ch), "size": g.size,
            "seen": [] if own else [d.card_label(k) for k in g.known],
            "played": [_card(d, k, []) for k in p.zones.played[ch]],
            "ability": d.ref["characters"][ch]["ability"], "uncontrolled": d.ref["characters"][ch]["uncontrolled"],
        })  # fmt: skip
    return gear


def _tops(d: _Decoder, obs: PlanetObservation) -> list[Context]:
    """The known top cards of the Location decks and the Messages pile."""
    tops = []
    for loc, deck in enumerate(obs.public.zones.decks):
        known = [d.card_label(k) for k in deck.top if k is not None]
        if known:
            where = "Messages pile" if loc >= len(d.locations) else f"{d.locations[loc]} deck"
            tops.append({"where": where, "cards": known})
    return tops


def _messages(d: _Decoder, obs: PlanetObservation) -> Context:
    """The Messages from the Shadows: the piles, the known cards and the last reveal."""
    p = obs.public
    zones = p.zones
    return {
        "pile": zones.decks[4].size,
        "temple": len(zones.temple),
        "temple_known": [d.card_label(k) for k in zones.temple if k is not None],
        "discard": [d.card_label(k) for k in zones.discard],
        "removed": zones.removed,
        "reveal": [_card(d, k, []) for k in p.reveal_cards],
        "counts": [f"{n} {TYPE_NAMES[t].capitalize()}" for t, n in enumerate(p.revealed) if n],
        "phase": obs.pending.kind == "discard_message" or obs.pending.rule == "messages",
    }


def _prompt(obs: PlanetObservation, mine: bool, people: SeatNames) -> Context:
    """Who decides now, about what, with the decision's running figures."""
    pending = obs.pending
    who = pending.seat
    text = people.shown(pending.prompt)
    if who is None:
        actor, text = "The game is over", ""
    elif who < 0:
        setting_up = obs.public.round == 0  # a table waiting for its players shows the setup
        actor, text = ("Setting up", "before the first turn") if setting_up else ("Chance", "a card is drawn")
    elif who == obs.seat:
        actor = "You"
    else:
        actor = people(who)
    data = pending.data or {}
    details = []
    if "points" in data:
        details.append(f"Move points left: {data['points']}" if pending.kind != "play_search_cards" else
                       f"Search points: {data['points']}")  # fmt: skip
    if "total" in data:
        details.append(f"Move total so far: {data['total']}")
    return {"actor": actor, "text": text, "details": details, "mine": mine}


def _panel(d: _Decoder, obs: PlanetObservation, seen: SeatMessage) -> Context:
    card_acts = _card_acts(d)
    hand = _hand(d, obs, card_acts)
    in_hand = {c["id"] for c in hand}
    return {
        "prompt": _prompt(obs, seen.choices is not None, d.people),
        "me": _me(d, obs, obs.seat) if obs.seat is not None else None,
        "hand": hand,
        "choices": [_card(d, card, acts) for card, acts in sorted(card_acts.items()) if card not in in_hand],
        "draft": _draft(d, obs),
        "players": _players(d, obs),
        "gear": _gear(d, obs),
        "tops": _tops(d, obs),
        "messages": _messages(d, obs),
        "sections": d.ref["sections"],
        "links": d.ref["links"],
        "vehicles": d.ref["vehicles"],
        "outcome": _outcome(obs.outcome, d.people),
    }


OUTCOME_COUNTS = {
    "astronaut_repair": "Repair cards held by the Astronauts",
    "alien_get": "Get cards in the Alien's Gear",
    "alien_attack": "Attack cards in the Alien's Gear",
    "final_threat": "Threat after the Alien's move",
    "astronaut_attack": "Attack cards held by the Astronauts",
}
"""The figures an end-of-game rule may compare, in words."""


def _outcome(out: PlanetOutcome | None, people: SeatNames) -> Context | None:
    if out is None:
        return None
    counts = [f"{label}: {getattr(out, key)}" for key, label in OUTCOME_COUNTS.items() if getattr(out, key) is not None]
    seats = [
        {"seat": row.seat, "objective": row.objective, "role": row.role, "identity": row.identity,
         "markers": [_marker(c, count=n) for c, n in enumerate(row.markers)], "won": row.won,
         "why": people.shown(without_verdict(row.why))}
        for row in out.seats
    ]  # fmt: skip
    indicators = {f.name: getattr(out.indicators, f.name) for f in fields(out.indicators)}
    return {
        "reason": out.reason,
        "why": people.shown(out.why),
        # sorted: the message reaches a browser as JSON with sorted keys, and the page must read the same
        "indicators": ", ".join(f"{k.capitalize()} {v}" for k, v in sorted(indicators.items())),
        "roles": [f"{name}: {role}" for name, role in sorted(out.roles.items())],
        "phantom": out.phantom_guardian,
        "counts": counts,
        "seats": seats,
    }


# -- goal -------------------------------------------------------------------------------------
WIN_SENTENCE = {
    "alien": "You win when the game ends without the Repair Indicator check going to the Guardian and the "
    "Astronauts' Attack cards fall short of the Threat, after your Gear's Get cards push it up (Attack cards "
    "pull it down).",
    "astronaut": "You win when the Astronauts' Repair cards reach the Repair Indicator (or the Repair Indicator "
    "reaches 0) and their Attack cards then reach the final Threat.",
    "guardian": "You win when the Threat Indicator reaches 8, or the Countdown runs out with the Astronauts "
    "holding fewer Repair cards than the Repair Indicator.",
}


def _strategy(goal: str) -> str:
    """The role's strategy line of the rulebook quote: after the heading, up to the first clause end."""
    body = goal.split("\n\n", 1)[-1].split(" [...]", 1)[0]
    first = body.split("; ", 1)[0].split(". ", 1)[0].rstrip(".")
    return first + "."


def goal_text(game: Game[Any], obs: PlanetObservation) -> str:
    """How this seat's Objective wins: the role's strategy from the rulebook, then the win condition."""
    if obs.seat is None:
        return ""
    objective = obs.public.objectives[obs.seat]
    if not isinstance(objective, int) or objective < 0:
        return ""
    ref = game.words.reference()["objectives"][objective]
    role = ref["role"]
    return f"{ref['name']} ({role}): {_strategy(ref['goal'])} {WIN_SENTENCE.get(role, '')}".strip()


# -- entry point ------------------------------------------------------------------------------
def render_board(game: Game[Any], message: dict[str, Any]) -> BoardHtml:
    """The board, the panel and the goal for the seat that receives ``message``."""
    seen = SeatMessage.from_json(message)
    obs = typed_view(game, seen.obs)
    if not isinstance(obs, PlanetObservation):
        raise TypeError("render_board needs a Shadow Planet observation")
    d = _Decoder(game, seen.legal, seen.people)
    board = render("shadowtable.games.shadow_planet.boards:board.html", b=_board(d, obs))
    panel = render("shadowtable.games.shadow_planet.boards:panel.html", p=_panel(d, obs, seen))
    return BoardHtml(board=board, panel=panel, goal=goal_text(game, obs))
