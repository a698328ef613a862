"""Reference data a player needs to choose: the characters (kind, strength, starting colour),
the Power Cards, the Special Event table, the galaxies, the first-round moves and how to win,
all from the content files; then the same material as ids for bots, encoders and boards: the
colours by id, the Alliances each seat plays and the board's geometry (:mod:`.printed` reads them
back as typed tables).

Entries are keyed by the names the observation uses (figure names, galaxy names such as
``c3``), so a front end looks up what the observation shows.  Nothing here is secret.
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.rules_help import quote
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.content import CELL_KINDS, EVENTS, KIND_NAMES
from shadowtable.games.shadowlord.context import Context

PACKAGE = "shadowtable.games.shadowlord"

EVENT_WORDS = {
    "none": "no event",
    "defect": "a character of another Alliance Defects to yours (a Vote in 3-4 player games)",
    "escape": "one of your captured characters Escapes to your Master's galaxy",
    "spacestorm": "another player loses 1d8 Space Ships (a Vote in 3-4 player games)",
    "discover": "turn over a face-down character disc and follow Searching for Allies",
    "steal": "steal two random cards from another player's Attack Hand (a Vote in 3-4 player games)",
    "draw2": "draw 2 Power Cards (mandatory)",
}
"""What each Special Event does, in short."""

CELL_WORDS = {
    "space_base": "Space Base: +3 Space Ships a turn to the player who controls it",
    "ruins": "Ruins: +1 Power Card a turn to the player who controls it",
    "home": "Home Planet: shadows cannot enter; characters on it cannot be Bribed or Defect",
    "lost_fortress": "the Lost Fortress: the Shadowlord's base",
    "galaxy": "a galaxy",
}


DIRECTION_WORDS = {
    "n": "one galaxy north (up the grid)",
    "e": "one galaxy east (right on the grid)",
    "s": "one galaxy south (down the grid)",
    "w": "one galaxy west (left on the grid)",
}
"""What the direction letter that ends a move's notation ("move Red Warrior s") means."""


def reference(ctx: Context) -> dict[str, Any]:
    """The game's reference data as JSON (see the module's documentation)."""
    c = ctx.content
    colours = [*c.colours, "black"]
    first_round = {
        c.colours[colour]: [c.galaxy_name(g) for g in ctx.config.first_round[colour]] for colour in ctx.config.alliances
    }
    return {
        "figures": [
            {
                "name": c.fig_name[f],
                "kind": KIND_NAMES[c.fig_kind[f]],
                "strength": c.fig_strength[f],
                "colour": colours[c.fig_colour[f]] if 0 <= c.fig_colour[f] < len(colours) else None,
            }
            for f in range(c.num_figures)
        ],
        "power_cards": [
            {"value": value, "copies": count, "text": f"Power Card {value}: adds {value} to a Duel, "
             f"or discard it for {counted(value, 'Space Ship')}"}
            for value, count in zip(c.card_values, c.card_counts, strict=True)
        ],
        "special_events": [
            {"roll": roll, "event": EVENTS[c.events[roll]], "text": EVENT_WORDS[EVENTS[c.events[roll]]]}
            for roll in range(2, len(c.events))
        ],
        "galaxies": [
            {"name": c.galaxy_name(g), "kind": CELL_KINDS.get(kind, kind), "text": CELL_WORDS.get(
                CELL_KINDS.get(kind, kind), kind)}
            for g, kind in enumerate(c.cell_kind)
        ],
        "first_round_moves": first_round,
        "directions": DIRECTION_WORDS,
        "goal": quote(PACKAGE, "goal"),
        "colours": colours,
        "seat_alliances": [list(alliances) for alliances in ctx.seat_alliances],
        "board": board(ctx),
    }  # fmt: skip


def board(ctx: Context) -> dict[str, Any]:
    """The board's geometry by galaxy id: size, the four steps and the neighbours of each galaxy,
    the special galaxies, the Home Planet of each colour, and the Power Stone Timer's notches."""
    c = ctx.content
    return {
        "rows": c.rows,
        "cols": c.cols,
        "steps": [list(step) for step in ctx.steps],
        "neighbours": [list(near) for near in c.neighbours],
        "fortress": c.fortress,
        "ruins": sorted(c.ruins),
        "bases": sorted(c.bases),
        "home_of": list(c.home_of),
        "timer_notches": c.timer_notches,
        "timer_every_turn_notches": c.timer_every_turn_notches,
    }


CONTENT_PARTS_BY_CLAUSE: dict[str, tuple[str, ...]] = {
    "SL-GEN-1": ("power_cards",),
    "SL-GEN-2": ("supplies",),
    "SL-GEN-12": ("strengths",),
    "SL-SETUP-3": ("shadows", "supplies"),
    "SL-SETUP-4": ("timer", "power_cards"),
    "SL-SETUP-5": ("discs", "board"),
    "SL-SETUP-6": ("turn_order",),
    "SL-SETUP-7": ("board",),
    "SL-DRAW-1": ("board",),
    "SL-DRAW-3": ("timer",),
    "SL-DRAW-4": ("timer",),
    "SL-EVENT": ("special_events", "mandatory_events"),
    "SL-BUILD-1": ("board",),
    "SL-BUILD-4": ("supplies",),
    "SL-SEARCH": ("discs",),
    "SL-SEARCH-7": ("supplies",),
    "SL-DUEL": ("duel",),
    "SL-STONE-3": ("duel",),
    "SL-FORT-2": ("shadow_decider",),
    "SL-FORT-3": ("shadows",),
    "SL-END-4": ("timer",),
    "SL-3P": ("configurations",),
    "SL-2P-1": ("configurations", "colours"),
    "SL-2PM-1": ("configurations",),
    "SL-D-1": ("power_cards",),
    "SL-D-2": ("strengths",),
    "SL-D-3": ("supplies",),
    "SL-D-4": ("supplies",),
    "SL-D-5": ("colours", "configurations"),
    "SL-D-6": ("supplies",),
    "SL-D-7": ("shadows",),
    "SL-D-8": ("discs",),
    "SL-D-9": ("board",),
    "SL-D-10": ("board", "turn_order"),
    "SL-D-11": ("board",),
    "SL-D-12": ("configurations",),
    "SL-D-13": ("supplies",),
    "SL-D-14": ("special_events", "mandatory_events"),
    "SL-D-15": ("timer",),
    "SL-D-16": ("duel",),
    "SL-D-17": ("shadow_decider",),
}
"""The parts of the content document (its top-level keys) that change a ledger entry, by id or
id group (``SL-EVENT`` covers every ``SL-EVENT-...``); the designer's lab names them."""
