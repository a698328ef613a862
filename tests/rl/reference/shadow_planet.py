"""The Shadow Planet observation encoder as it was (test-only reference).

The vector is a concatenation of named blocks (see docs/rl/shadow-planet-encoding.md); every
value lies in ``[0, 1]`` and the length depends only on the player count.  Only what the
observation shows is encoded, so a seat's vector never leaks hidden facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rl.reference.encoding import Block, BlockEncoder, bits, one_hot, one_hot_shifted
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet.rules import PENDING_KINDS

CHARACTERS, LOCATIONS, SECTIONS, VEHICLES, OBJECTIVES, COLOURS, TYPES = 6, 4, 7, 2, 5, 5, 5
KINDS = (*PENDING_KINDS, "over")
"""``pending.kind`` values: the game's decisions and chance nodes (rules.PENDING_KINDS), then ``over``."""
MAX_ROUNDS = 60
DECKS = 5
"""The four Location decks and the Messages pile."""
DECK_SCALE, GEAR_SCALE, POINTS_SCALE, SMALL_SCALE, REVEAL_SCALE = 20, 30, 20, 10, 6


def scaled(value: float, top: float) -> float:
    """``value / top`` clipped to ``[0, 1]``."""
    return min(1.0, max(0.0, value / top))


def each_shifted(values: Sequence[int | None], size: int) -> list[float]:
    """:func:`one_hot_shifted` of each value, concatenated."""
    return [v for x in values for v in one_hot_shifted(x, size)]


def members(items: Sequence[int | None], size: int) -> list[float]:
    """Multi-hot of the non-negative ints in ``items``."""
    vector = [0.0] * size
    for item in items:
        if item is not None and 0 <= item < size:
            vector[item] = 1.0
    return vector


def objective_slot(objective: int | None) -> int:
    """0..4 an Objective, 5 hidden, 6 not dealt yet."""
    if objective is None:
        return OBJECTIVES
    return OBJECTIVES + 1 if objective < 0 else objective


class ReferenceShadowPlanetEncoder(BlockEncoder):
    """Encodes observations of one configured Shadow Planet game (fixed player count)."""

    def __init__(self, game: Game[Any]) -> None:
        rules = getattr(game, "ctx", None)
        self.players = game.players
        self.cards = int(rules.num_cards) if rules is not None else 121
        content = rules.content if rules is not None else None
        self.countdown_max = float(content.countdown_max) if content is not None else 12.0
        self.repair_max = float(content.repair_max) if content is not None else 10.0
        self.threat_max = float(content.threat_max) if content is not None else 8.0
        self.markers_max = float(content.markers_per_colour) if content is not None else 15.0
        self.set_blocks(self._blocks())

    # -- blocks ---------------------------------------------------------------------------------
    def _blocks(self) -> list[Block]:
        n, cards = self.players, self.cards
        return [
            ("seat", n, lambda o: one_hot(o["seat"], n)),
            ("own_objective", OBJECTIVES + 2, self._own_objective),
            ("objectives", n * (OBJECTIVES + 2), self._objectives),
            ("removed_objectives", 1, lambda o: [scaled(o["removed_objectives"], 2)]),
            ("to_act", n + 2, self._to_act),
            ("my_turn", 1, lambda o: [float(o["pending"]["seat"] == o["seat"])]),
            ("pending", len(KINDS), lambda o: one_hot(KINDS.index(o["pending"]["kind"]), len(KINDS))),
            ("pending_data", self._data_size(), self._data),
            ("round", 1, lambda o: [scaled(o["round"], MAX_ROUNDS)]),
            ("protagonist", n, lambda o: members([o["protagonist"]], n)),
            ("indicators", 3, self._indicators),
            ("latched", 3, lambda o: bits(o["latched"], 3)),
            ("end_reason", 3, lambda o: bits(o["end_reason"], 3)),
            ("pool", COLOURS, lambda o: [scaled(x, self.markers_max) for x in o["pool"]]),
            ("sheets", n * COLOURS, lambda o: [scaled(x, self.markers_max) for x in o["sheets"]]),
            ("section_markers", SECTIONS * COLOURS, lambda o: [b for m in o["section_markers"] for b in bits(m, 5)]),
            ("char_loc", CHARACTERS * LOCATIONS, lambda o: [v for x in o["char_loc"] for v in one_hot(x, LOCATIONS)]),
            ("char_section", CHARACTERS * (SECTIONS + 1), self._char_section),
            (
                "controller",
                CHARACTERS * (n + 1),
                lambda o: each_shifted(o["controller"], n + 1),
            ),
            ("seat_char", n * (CHARACTERS + 1), lambda o: each_shifted(o["seat_char"], 7)),
            (
                "vehicle_loc",
                VEHICLES * (LOCATIONS + 1),
                lambda o: each_shifted(o["vehicle_loc"], 5),
            ),
            ("identity", n * (CHARACTERS + 1), lambda o: each_shifted(o["identity"], 7)),
            ("draft", 7 + CHARACTERS + 7 + 1, self._draft),
            ("turn", self._turn_size(), self._turn),
            ("reveals", 2 * TYPES + 2, self._reveals),
            ("zone_sizes", DECKS + CHARACTERS + 3, self._zone_sizes),
            ("hand", cards, self._hand),
            ("private", cards, lambda o: members(o["private"], cards)),
            *[(f"deck_{d}", cards, self._deck(d)) for d in range(DECKS)],
            *[(f"deck_{d}_depth", cards, self._depth(d)) for d in range(DECKS)],
            ("temple", cards, lambda o: members(o["zones"]["temple"], cards)),
            ("discard", cards, lambda o: members(o["zones"]["discard"], cards)),
            *[(f"gear_{ch}", cards, self._gear(ch)) for ch in range(CHARACTERS)],
            *[(f"played_{ch}", cards, self._played(ch)) for ch in range(CHARACTERS)],
            ("shown", cards, lambda o: members(o["pending"]["data"].get("shown", []), cards)),
            ("secret", cards + 1, self._secret),
            ("winners", n, self._winners),
        ]

    def _own_objective(self, o: Observation) -> list[float]:
        seat = o["seat"]
        return one_hot(objective_slot(o["objectives"][seat] if seat is not None else None), OBJECTIVES + 2)

    def _objectives(self, o: Observation) -> list[float]:
        return [v for x in o["objectives"] for v in one_hot(objective_slot(x), OBJECTIVES + 2)]

    def _to_act(self, o: Observation) -> list[float]:
        n, who = self.players, o["pending"]["seat"]
        return one_hot(n + 1 if who is None else who if who >= 0 else n, n + 2)

    def _indicators(self, o: Observation) -> list[float]:
        return [
            scaled(o["countdown"], self.countdown_max),
            scaled(o["repair"], self.repair_max),
            scaled(o["threat"], self.threat_max),
        ]

    def _char_section(self, o: Observation) -> list[float]:
        return each_shifted(o["char_section"], SECTIONS + 1)

    def _draft(self, o: Observation) -> list[float]:
        draft = o["draft"]
        own = draft["picks"][o["seat"]] if o["seat"] is not None else None
        return [
            *one_hot_shifted(draft["random"], 7),
            *members(draft["received"] or [], CHARACTERS),
            *one_hot_shifted(own, 7),
            scaled(o["pending"]["data"].get("step", 0), self.players),
        ]

    def _turn_size(self) -> int:
        return 7 + 5 + 5 + 6 + 7 + 1

    def _turn(self, o: Observation) -> list[float]:
        auras = [0.0] * CHARACTERS
        for ch, amount, _ in o["auras"]:
            auras[ch] += amount
        return [
            *one_hot(min(o["active"], CHARACTERS), CHARACTERS + 1),
            *bits(o["forbid"], 5),
            *bits(o["excl"], 5),
            *[scaled(x, 3) for x in auras],
            *one_hot_shifted(o["cancelled"], 7),
            scaled(o["bonus"], SMALL_SCALE),
        ]

    def _data_size(self) -> int:
        n = self.players
        return 6 + 4 + 3 + 5 + 6 + 6 + 7 + (n + 1) + 8 + 3 + 6 + 1 + (n + 1)

    def _data(self, o: Observation) -> list[float]:
        """The pending decision's public arguments (``pending.data``), by name; absent ones as none/0."""
        d, n = o["pending"]["data"], self.players
        return [
            *one_hot_shifted(d.get("deck"), 6),
            scaled(d.get("total", 0), POINTS_SCALE),
            scaled(d.get("cards", 0), SMALL_SCALE),
            scaled(d.get("points", 0), POINTS_SCALE),
            scaled(d.get("draws", 0), SMALL_SCALE),
            *one_hot_shifted(d.get("drive"), 3),
            *one_hot_shifted(d.get("dest"), 5),
            *members(d.get("passengers", []), CHARACTERS),
            *members(d.get("waiting", []), CHARACTERS),
            *one_hot_shifted(d.get("rider"), 7),
            *one_hot_shifted(d.get("target"), n + 1),
            *one_hot_shifted(d.get("section"), SECTIONS + 1),
            *one_hot_shifted(d.get("reveal"), 3),
            *[scaled(d.get(name, 0), SMALL_SCALE) for name in ("count", "amount", "remove", "looked")],
            scaled(d.get("size", 0), POINTS_SCALE),
            scaled(d.get("placed", 0), POINTS_SCALE),
            scaled(d.get("step", 0), n),
            *one_hot_shifted(d.get("giver"), n + 1),
        ]

    def _reveals(self, o: Observation) -> list[float]:
        return [
            *[scaled(x, REVEAL_SCALE) for x in o["revealed"]],
            *[scaled(x, REVEAL_SCALE) for x in o["last_reveal"]],
            scaled(len(o["zones"]["temple"]), 5),
            scaled(o["zones"]["removed"], self.cards),
        ]

    def _zone_sizes(self, o: Observation) -> list[float]:
        zones = o["zones"]
        return [
            *[scaled(deck["size"], DECK_SCALE) for deck in zones["decks"]],
            *[scaled(gear["size"], GEAR_SCALE) for gear in zones["gear"]],
            scaled(len(zones["discard"]), self.cards),
            scaled(sum(1 for c in zones["temple"] if c is None), 5),
            scaled(sum(1 for deck in zones["decks"] for c in deck["top"] if c is None), DECK_SCALE),
        ]

    def _hand(self, o: Observation) -> list[float]:
        ch = o["seat_char"][o["seat"]] if o["seat"] is not None else -1
        return members(o["zones"]["gear"][ch]["known"] if ch >= 0 else [], self.cards)

    def _deck(self, d: int) -> Callable[[Observation], list[float]]:
        def block(o: Observation) -> list[float]:
            deck = o["zones"]["decks"][d]
            return members([*deck["top"], *deck["rest_known"]], self.cards)

        return block

    def _depth(self, d: int) -> Callable[[Observation], list[float]]:
        def block(o: Observation) -> list[float]:
            vector = [0.0] * self.cards
            for i, card in enumerate(o["zones"]["decks"][d]["top"]):
                if card is not None:
                    vector[card] = 1.0 / (1 + i)
            return vector

        return block

    def _gear(self, ch: int) -> Callable[[Observation], list[float]]:
        return lambda o: members(o["zones"]["gear"][ch]["known"], self.cards)

    def _played(self, ch: int) -> Callable[[Observation], list[float]]:
        return lambda o: members(o["zones"]["played"][ch], self.cards)

    def _secret(self, o: Observation) -> list[float]:
        """Cards chosen face down in the pending work that this seat knows; the last slot: one
        that is hidden from it."""
        vector = [0.0] * (self.cards + 1)
        for task in o["tasks"]:
            for name in ("given", "taken"):
                if name in task:
                    card = task[name]
                    vector[self.cards if card is None else card] = 1.0
        return vector

    def _winners(self, o: Observation) -> list[float]:
        outcome = o.get("outcome")
        return members(outcome["winners"] if outcome else [], self.players)
