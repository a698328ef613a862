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

from dataclasses import dataclass, field
from typing import Any

from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.content import COLOURS
from shadowtable.games.shadow_planet.printed import printed
from shadowtable.web.boards import BoardHtml
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


class _Decoder:
    """Names from the game's printed material, and the legal actions sorted by their place."""

    def __init__(self, game: Any, message: dict[str, Any]) -> None:
        self.ref: dict[str, Any] = game.words.reference()
        c = printed(game)
        self.locations: list[str] = list(c.location_names)
        self.sections: list[str] = list(c.section_names)
        self.section_loc: list[int] = list(c.section_location)
        self.vehicles: list[str] = list(c.vehicle_names)
        self.chars: list[str] = [ch["name"] for ch in self.ref["characters"]]
        self.char_colour: list[int] = list(c.char_colour)
        self.objectives: list[dict[str, Any]] = self.ref["objectives"]
        self.cards: list[dict[str, Any]] = self.ref["cards"]
        legal = message.get("legal") or []
        self.legal: dict[int, str] = {int(a): str(w) for a, w in legal}

    def card_label(self, card: int) -> str:
        k = self.cards[card]
        return f"{k['name']} ({k['type'].capitalize()} {k['value']}) #{card}"

    def in_range(self, low: int, high: int) -> dict[int, Act]:
        """Legal actions with ids in ``[low, high)``, keyed by ``id - low``."""
        return {a - low: Act(a, w) for a, w in self.legal.items() if low <= a < high}

    def colour_name(self, ch: int) -> str:
        colour = self.char_colour[ch]
        return COLOURS[colour] if colour >= 0 else "beige"


# -- the board (SVG) --------------------------------------------------------------------------
def _section_rows(d: _Decoder) -> list[dict[str, Any]]:
    rows = []
    for k, section in enumerate(d.ref["sections"]):
        lines: list[tuple[int, str]] = []  # (payment index, text)
        for i, pay in enumerate(section["payments"]):
            for line in _wrap(f"{pay['label']}: pay {pay['cost']}", PAY_CHARS):
                lines.append((i, line))
        height = max(58, 36 + SECTION_LINE * len(lines) + 4)
        rows.append({"k": k, "name": section["name"], "entry": section["entry_cost"], "lines": lines, "h": height})
    return rows


def _layout(d: _Decoder, rows: list[dict[str, Any]]) -> dict[int, Box]:
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


def _links(d: _Decoder, boxes: dict[int, Box]) -> list[dict[str, Any]]:
    """Each Link as a line between facing edges, its cost in a badge (dashed: Vehicle only)."""
    index = {name: i for i, name in enumerate(d.locations)}
    out = []
    for link in d.ref["links"]:
        a, b = (index[name] for name in link["between"])
        ba, bb = boxes[a], boxes[b]
        same_row, same_col = ba.y == bb.y, ba.x == bb.x
        if same_row:
            left, right = (ba, bb) if ba.x < bb.x else (bb, ba)
            y = left.y + 40
            x1, y1, x2, y2 = left.x + left.w, y, right.x, y
            t = 0.5
        elif same_col:
            top, bottom = (ba, bb) if ba.y < bb.y else (bb, ba)
            x = top.x + top.w / 2
            x1, y1, x2, y2 = x, top.y + top.h, x, bottom.y
            t = 0.5
        else:  # diagonal: between the inner corners
            top, bottom = (ba, bb) if ba.y < bb.y else (bb, ba)
            x1 = top.x + top.w if top.x < bottom.x else top.x
            y1 = top.y + top.h
            x2 = bottom.x if top.x < bottom.x else bottom.x + bottom.w
            y2 = bottom.y
            t = 0.3 if top.x < bottom.x else 0.7  # the two diagonals' badges do not overlap
        bx, by = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        words = f"Link {link['between'][0]} to {link['between'][1]}: {link['cost']} Move" + (
            ", Vehicle only" if link["vehicle_only"] else ""
        )
        out.append(
            {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "bx": bx, "by": by, "cost": link["cost"],
             "vehicle": link["vehicle_only"], "words": words}
        )  # fmt: skip
    return out


def _pawn(
    d: _Decoder, obs: dict[str, Any], ch: int, x: float, y: float, r: float, acts: dict[int, Act]
) -> dict[str, Any]:
    colour = d.char_colour[ch]
    controller = obs["controller"][ch]
    seat = obs["seat"]
    words = f"{d.chars[ch]} ({d.colour_name(ch)})" + (f", controlled by seat {controller}" if controller >= 0 else "")
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
        "active": obs["active"] == ch,
        "words": words,
        "act": act,
    }


def _board(d: _Decoder, message: dict[str, Any]) -> dict[str, Any]:
    obs = message["obs"]
    rows = _section_rows(d)
    boxes = _layout(d, rows)
    goto = d.in_range(A.GOTO, A.ENTER)
    enter = d.in_range(A.ENTER, A.DRIVE)
    deck_acts = d.in_range(A.DECK, A.IDENTITY)
    drive = d.in_range(A.DRIVE, A.RIDE)
    resolve = d.in_range(A.RESOLVE, A.LEAVE)
    pawn_acts = {**d.in_range(A.CANCEL, A.SEAT), **d.in_range(A.IDENTITY, A.NUM_ACTIONS)}
    pending_section = (obs["pending"].get("data") or {}).get("section", -1)
    pending_section = pending_section if isinstance(pending_section, int) else -1
    decks = obs["zones"]["decks"]

    locations = []
    sections = []
    pawns = []
    overlay: list[dict[str, Any]] = []
    for loc, box in boxes.items():
        here = [ch for ch, at in enumerate(obs["char_loc"]) if at == loc and obs["char_section"][ch] < 0]
        vehicles = [v for v, at in enumerate(obs["vehicle_loc"]) if at == loc]
        deck = {"x": box.x + box.w - 84, "y": box.y + 5, "w": 78, "h": 20, "size": decks[loc]["size"]}
        reach = loc in goto
        loc_view = {
            "loc": loc, "name": d.locations[loc], "box": box, "deck": deck, "reach": reach,
            "vehicles": [
                {"name": d.vehicles[v], "x": box.x + 8 + 86 * i, "y": box.y + box.h - 26, "w": 80, "h": 20}
                for i, v in enumerate(vehicles)
            ],
        }  # fmt: skip
        if reach:
            act = goto[loc]
            overlay.append({"kind": "location", "x": box.x, "y": box.y, "w": box.w, "h": box.h, "act": act})
        if loc in deck_acts:
            overlay.append({"kind": "deck", "x": deck["x"], "y": deck["y"], "w": deck["w"], "h": deck["h"],
                            "act": deck_acts[loc]})  # fmt: skip
        for i, (v, act) in enumerate(
            (divmod(key, 4)[0], act) for key, act in sorted(drive.items()) if divmod(key, 4)[1] == loc
        ):
            x = box.x + box.w - 8 - 92 * (i + 1)
            overlay.append({"kind": "drive", "x": x, "y": box.y + box.h - 26, "w": 88, "h": 20, "act": act,
                            "text": f"drive {d.vehicles[v]}"})  # fmt: skip
        y = box.y + TITLE_H
        for row in rows:
            k = row["k"]
            if d.section_loc[k] != loc:
                continue
            sx, sw = box.x + 6, box.w - 12
            mask = obs["section_markers"][k]
            markers = [
                {"colour": COLOURS[col], "letter": COLOUR_LETTER[col], "fill": COLOUR_FILL[col],
                 "ink": COLOUR_INK[col], "x": sx + sw - 88 + 17 * j, "y": y + 16}
                for j, col in enumerate(col for col in range(5) if (mask >> col) & 1)
            ]  # fmt: skip
            inside = [ch for ch, at in enumerate(obs["char_section"]) if at == k]
            pay_rows = []
            for j, (i, text) in enumerate(row["lines"]):
                pay_rows.append({"i": i, "text": text, "x": sx + 6, "y": y + 32 + SECTION_LINE * j})
            sec = {
                "k": k, "name": row["name"], "entry": row["entry"], "x": sx, "y": y, "w": sw, "h": row["h"],
                "markers": markers, "lines": pay_rows, "reach": k in enter,
                "marker_words": ", ".join(str(m["colour"]) for m in markers) or "no Markers",
            }  # fmt: skip
            sections.append(sec)
            for n, ch in enumerate(inside):
                pawns.append(_pawn(d, obs, ch, sx + sw - 64 + 24 * n, y + row["h"] - 14, 11, pawn_acts))
            if k in enter:
                overlay.append({"kind": "section", "x": sx, "y": y, "w": sw, "h": row["h"], "act": enter[k]})
            if k == pending_section and resolve:
                for i, act in sorted(resolve.items()):
                    mine = [p for p in pay_rows if p["i"] == i]
                    if not mine:
                        continue
                    top = mine[0]["y"]
                    overlay.append({"kind": "pay", "x": sx + 2, "y": top, "w": 170,
                                    "h": SECTION_LINE * len(mine) + 3, "act": act})  # fmt: skip
            y += row["h"] + 4
        for n, ch in enumerate(here):
            pawns.append(_pawn(d, obs, ch, box.x + 22 + 36 * n, box.y + box.h - 46, 14, pawn_acts))
        locations.append(loc_view)
    for pawn in pawns:
        if pawn["act"] is not None:
            overlay.append({"kind": "pawn", "x": pawn["x"] - pawn["r"] - 3, "y": pawn["y"] - pawn["r"] - 3,
                            "w": 2 * pawn["r"] + 6, "h": 2 * pawn["r"] + 6, "act": pawn["act"]})  # fmt: skip

    gauges = _gauges(d, obs, overlay)
    bottom = max(b.y + b.h for b in boxes.values()) + 16
    pool = _pool(d, obs, bottom, overlay)
    height = bottom + 70
    return {
        "width": WIDTH,
        "height": height,
        "gauges": gauges,
        "links": _links(d, boxes),
        "locations": locations,
        "sections": sections,
        "pawns": pawns,
        "pool": pool,
        "overlay": overlay,
        "title": f"The Shadow Planet, round {obs['round']}",
        "desc": _describe(d, obs),
    }


def _gauges(d: _Decoder, obs: dict[str, Any], overlay: list[dict[str, Any]]) -> list[dict[str, Any]]:
    adjust = {A.ADVANCE: -1, A.MOVE_BACK: +1}
    out = []
    for row, (key, label, top, end, fill) in enumerate(GAUGES):
        value = obs[key]
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


def _pool(d: _Decoder, obs: dict[str, Any], y: float, overlay: list[dict[str, Any]]) -> dict[str, Any]:
    colour_acts = d.in_range(A.COLOUR, A.USE)
    chips = []
    for col in range(5):
        x = 100 + 58 * col
        chips.append({"colour": COLOURS[col], "letter": COLOUR_LETTER[col], "fill": COLOUR_FILL[col],
                      "ink": COLOUR_INK[col], "count": obs["pool"][col], "x": x, "y": y})  # fmt: skip
        if col in colour_acts:
            overlay.append({"kind": "pool", "x": x - 2, "y": y - 2, "w": 54, "h": 26, "act": colour_acts[col]})
    zones = obs["zones"]
    piles = (
        f"Messages pile {zones['decks'][4]['size']} · Temple pile {len(zones['temple'])} · "
        f"Discarded {len(zones['discard'])} · Removed {zones['removed']}"
    )
    return {"y": y, "chips": chips, "piles": piles, "piles_y": y + 44}


def _describe(d: _Decoder, obs: dict[str, Any]) -> str:
    """The board in words: indicators, where every Character and Vehicle is, Section Markers."""
    parts = [
        f"Round {obs['round']}. Countdown {obs['countdown']} of 12 (ends at 0), Repair {obs['repair']} of 10 "
        f"(ends at 0), Threat {obs['threat']} of 8 (ends at 8)."
    ]
    for ch, loc in enumerate(obs["char_loc"]):
        where = d.locations[loc]
        sec = obs["char_section"][ch]
        if sec >= 0:
            where = f"{d.sections[sec]} in {where}"
        who = obs["controller"][ch]
        ctrl = f", controlled by seat {who}" if who >= 0 else ", not controlled"
        parts.append(f"{d.chars[ch]} ({d.colour_name(ch)}) is at {where}{ctrl}.")
    for v, loc in enumerate(obs["vehicle_loc"]):
        parts.append(f"{d.vehicles[v]}: " + (f"at {d.locations[loc]}." if loc >= 0 else "not in play."))
    marks = [
        f"{d.sections[k]} has {', '.join(COLOURS[c] for c in range(5) if (m >> c) & 1)}"
        for k, m in enumerate(obs["section_markers"])
        if m
    ]
    parts.append("Section Markers: " + ("; ".join(marks) if marks else "none") + ".")
    parts.append("Marker pool: " + ", ".join(f"{obs['pool'][c]} {COLOURS[c]}" for c in range(5)) + ".")
    return " ".join(parts)


# -- the panel (HTML) -------------------------------------------------------------------------
def _card(d: _Decoder, card: int, acts: list[Act]) -> dict[str, Any]:
    k = d.cards[card]
    return {"id": card, "name": k["name"], "type": k["type"], "value": k["value"], "text": k["text"],
            "label": d.card_label(card), "acts": acts}  # fmt: skip


def _panel(d: _Decoder, message: dict[str, Any]) -> dict[str, Any]:
    obs = message["obs"]
    seat = obs["seat"]
    pending = obs["pending"]
    zones = obs["zones"]
    card_acts: dict[int, list[Act]] = {}
    for low, high in ((A.PLAY, A.CHOOSE), (A.CHOOSE, A.PLACE), (A.PLACE, A.DISCARD), (A.DISCARD, A.DONE)):
        for card, act in sorted(d.in_range(low, high).items()):
            card_acts.setdefault(card, []).append(act)

    me: dict[str, Any] | None = None
    hand: list[dict[str, Any]] = []
    if seat is not None:
        objective = obs["objectives"][seat]
        ch = obs["seat_char"][seat]
        me = {"seat": seat, "objective": None, "char": None}
        if isinstance(objective, int) and objective >= 0:
            ref = d.objectives[objective]
            me["objective"] = {"name": ref["name"], "role": ref["role"], "priority": ref["priority"],
                               "goal": ref["goal"]}  # fmt: skip
        if ch >= 0:
            char = d.ref["characters"][ch]
            me["char"] = {"name": char["name"], "colour": d.colour_name(ch), "ability": char["ability"],
                          "uncontrolled": char["uncontrolled"], "size": zones["gear"][ch]["size"]}  # fmt: skip
            hand = [_card(d, card, card_acts.get(card, [])) for card in zones["gear"][ch]["known"]]
    in_hand = {c["id"] for c in hand}
    choices = [_card(d, card, acts) for card, acts in sorted(card_acts.items()) if card not in in_hand]

    draft_view = None
    draft = obs["draft"]
    picks = d.in_range(A.PICK, A.PLAY)
    offered = sorted(set(draft["received"] or []) | set(picks))
    if offered or draft["random"] is not None or (seat is not None and draft["picks"][seat] is not None):
        mine = draft["picks"][seat] if seat is not None else None
        draft_view = {
            "offered": [
                {"name": d.chars[ch], "colour": d.colour_name(ch), "ability": d.ref["characters"][ch]["ability"],
                 "uncontrolled": d.ref["characters"][ch]["uncontrolled"], "act": picks.get(ch)}
                for ch in offered
            ],
            "random": d.chars[draft["random"]] if draft["random"] is not None else None,
            "mine": d.chars[mine] if isinstance(mine, int) and mine >= 0 else None,
        }  # fmt: skip

    seat_acts = d.in_range(A.SEAT, A.COLOUR)
    names = {p.get("seat"): p.get("name") for p in message.get("presence") or [] if isinstance(p, dict)}
    players = []
    for i, objective in enumerate(obs["objectives"]):
        ch = obs["seat_char"][i]
        ident = obs["identity"][i] if i < len(obs["identity"]) else -1
        players.append({
            "seat": i,
            "name": str(names.get(i) or f"seat {i}"),
            "you": i == seat,
            "protagonist": i == obs["protagonist"],
            "objective": "hidden" if objective is None else ("-" if objective < 0 else d.objectives[objective]["name"]),
            "controls": d.chars[ch] if ch >= 0 else "-",
            "identity": d.chars[ident] if ident >= 0 else None,
            "markers": [
                {"colour": COLOURS[c], "letter": COLOUR_LETTER[c], "fill": COLOUR_FILL[c], "ink": COLOUR_INK[c],
                 "count": obs["sheets"][i * 5 + c]}
                for c in range(5)
            ],
            "act": seat_acts.get(i),
        })  # fmt: skip

    gear = []
    for ch in range(len(d.chars)):
        g = zones["gear"][ch]
        own = seat is not None and obs["seat_char"][seat] == ch
        gear.append({
            "name": d.chars[ch], "colour": d.colour_name(ch), "size": g["size"],
            "seen": [] if own else [d.card_label(k) for k in g["known"]],
            "played": [_card(d, k, []) for k in zones["played"][ch]],
            "ability": d.ref["characters"][ch]["ability"], "uncontrolled": d.ref["characters"][ch]["uncontrolled"],
        })  # fmt: skip

    tops = []
    for loc, deck in enumerate(zones["decks"]):
        known = [d.card_label(k) for k in deck["top"] if k is not None]
        if known:
            where = "Messages pile" if loc >= len(d.locations) else f"{d.locations[loc]} deck"
            tops.append({"where": where, "cards": known})
    temple_known = [d.card_label(k) for k in zones["temple"] if k is not None]
    messages = {
        "pile": zones["decks"][4]["size"],
        "temple": len(zones["temple"]),
        "temple_known": temple_known,
        "discard": [d.card_label(k) for k in zones["discard"]],
        "removed": zones["removed"],
        "reveal": [_card(d, k, []) for k in obs["reveal_cards"]],
        "counts": [f"{n} {TYPE_NAMES[t].capitalize()}" for t, n in enumerate(obs["revealed"]) if n],
        "phase": pending.get("kind") == "discard_message" or pending.get("rule") == "messages",
    }

    who = pending.get("seat")
    text = pending.get("prompt", "")
    if who is None:
        actor, text = "The game is over", ""
    elif who < 0:
        actor = "Chance"
    elif who == seat:
        actor = "You"
    else:
        actor = f"Seat {who}"
    data = pending.get("data") or {}
    details = []
    if "points" in data:
        details.append(f"Move points left: {data['points']}" if pending.get("kind") != "play_search_cards" else
                       f"Search points: {data['points']}")  # fmt: skip
    if "total" in data:
        details.append(f"Move total so far: {data['total']}")

    return {
        "prompt": {
            "actor": actor,
            "text": text,
            "details": details,
            "mine": message.get("legal") is not None,
        },  # fmt: skip
        "me": me,
        "hand": hand,
        "choices": choices,
        "draft": draft_view,
        "players": players,
        "gear": gear,
        "tops": tops,
        "messages": messages,
        "sections": d.ref["sections"],
        "links": d.ref["links"],
        "vehicles": d.ref["vehicles"],
        "outcome": _outcome(obs),
    }


def _outcome(obs: dict[str, Any]) -> dict[str, Any] | None:
    out = obs.get("outcome")
    if not isinstance(out, dict):
        return None
    labels = {
        "astronaut_repair": "Repair cards held by the Astronauts",
        "alien_get": "Get cards in the Alien's Gear",
        "alien_attack": "Attack cards in the Alien's Gear",
        "final_threat": "Threat after the Alien's move",
        "astronaut_attack": "Attack cards held by the Astronauts",
    }
    counts = [f"{label}: {out[key]}" for key, label in labels.items() if key in out]
    indicators = out.get("indicators") or {}
    seats = []
    for row in out.get("seats", []):
        seats.append({
            "seat": row["seat"], "objective": row["objective"], "role": row["role"], "identity": row["identity"],
            "markers": [
                {"colour": COLOURS[c], "letter": COLOUR_LETTER[c], "fill": COLOUR_FILL[c], "ink": COLOUR_INK[c],
                 "count": n}
                for c, n in enumerate(row["markers"])
            ],
            "won": row["won"], "why": row["why"],
        })  # fmt: skip
    return {
        "reason": out.get("reason", ""),
        "why": out.get("why", ""),
        # sorted: the message reaches a browser as JSON with sorted keys, and the page must read the same
        "indicators": ", ".join(f"{k.capitalize()} {v}" for k, v in sorted(indicators.items())),
        "roles": [f"{name}: {role}" for name, role in sorted((out.get("roles") or {}).items())],
        "phantom": out.get("phantom_guardian"),
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


def goal_text(game: Any, message: dict[str, Any]) -> str:
    """How this seat's Objective wins: the role's strategy from the rulebook, then the win condition."""
    obs = message["obs"]
    seat = obs.get("seat")
    if seat is None:
        return ""
    objective = obs["objectives"][seat]
    if not isinstance(objective, int) or objective < 0:
        return ""
    ref = game.words.reference()["objectives"][objective]
    role = ref["role"]
    return f"{ref['name']} ({role}): {_strategy(ref['goal'])} {WIN_SENTENCE.get(role, '')}".strip()


# -- entry point ------------------------------------------------------------------------------
def render_board(game: Any, message: dict[str, Any]) -> BoardHtml:
    """The board, the panel and the goal for the seat that receives ``message``."""
    d = _Decoder(game, message)
    board = render("shadowtable.games.shadow_planet.boards:board.html", b=_board(d, message))
    panel = render("shadowtable.games.shadow_planet.boards:panel.html", p=_panel(d, message))
    return BoardHtml(board=board, panel=panel, goal=goal_text(game, message))
