"""The Shadow Planet observation encoder: a seat's observation to a flat ``float32`` vector.

The vector is a concatenation of named blocks (see docs/rl/shadow-planet-encoding.md); every
value lies in ``[0, 1]`` and the length depends only on the player count.  Only what the
observation shows is encoded, so a seat's vector never leaks hidden facts.
"""

from __future__ import annotations

from operator import add
from typing import Any

from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet.rules import PENDING_KINDS
from shadowtable.rl.encoding import ArrayEncoder, Features, slot, within

CHARACTERS, LOCATIONS, SECTIONS, VEHICLES, OBJECTIVES, COLOURS, TYPES = 6, 4, 7, 2, 5, 5, 5
KINDS = (*PENDING_KINDS, "over")
"""``pending.kind`` values: the game's decisions and chance nodes (rules.PENDING_KINDS), then ``over``."""
KIND_SLOT = {kind: index for index, kind in enumerate(KINDS)}
MAX_ROUNDS = 60
DECKS = 5
"""The four Location decks and the Messages pile."""
DECK_SCALE, GEAR_SCALE, POINTS_SCALE, SMALL_SCALE, REVEAL_SCALE = 20, 30, 20, 10, 6
SHIFTED, MEMBERS, SCALED = "shifted", "members", "scaled"
DRAFT_SIZE = 7 + CHARACTERS + 7 + 1
TURN_SIZE = 7 + 5 + 5 + 6 + 7 + 1


def objective_slot(objective: int | None) -> int:
    """0..4 an Objective, 5 hidden, 6 not dealt yet."""
    if objective is None:
        return OBJECTIVES
    return OBJECTIVES + 1 if objective < 0 else objective


def data_fields(players: int) -> list[tuple[str, str, float]]:
    """The ``pending.data`` fields encoded, in order: name, how (one-hot+1 or multi-hot over a
    size, or scaled by a top) and that size or top.  Absent fields encode as none/0."""
    n = players
    return [
        ("deck", SHIFTED, 6),
        *[(name, SCALED, top) for name, top in (("total", 20), ("cards", 10), ("points", 20), ("draws", 10))],
        ("drive", SHIFTED, 3),
        ("dest", SHIFTED, 5),
        ("passengers", MEMBERS, CHARACTERS),
        ("waiting", MEMBERS, CHARACTERS),
        ("rider", SHIFTED, 7),
        ("target", SHIFTED, n + 1),
        ("section", SHIFTED, SECTIONS + 1),
        ("reveal", SHIFTED, 3),
        *[(name, SCALED, SMALL_SCALE) for name in ("count", "amount", "remove", "looked")],
        ("size", SCALED, POINTS_SCALE),
        ("placed", SCALED, POINTS_SCALE),
        ("step", SCALED, n),
        ("giver", SHIFTED, n + 1),
    ]


def field_size(how: str, size: float) -> int:
    """Slots a pending-data field takes."""
    return 1 if how == SCALED else int(size)


class ShadowPlanetEncoder(ArrayEncoder):
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
        super().__init__(self._layout())
        self._index_data()
        self._index_board()

    def _layout(self) -> list[tuple[str, int]]:
        n, cards = self.players, self.cards
        return [
            ("seat", n),
            ("own_objective", OBJECTIVES + 2),
            ("objectives", n * (OBJECTIVES + 2)),
            ("removed_objectives", 1),
            ("to_act", n + 2),
            ("my_turn", 1),
            ("pending", len(KINDS)),
            ("pending_data", sum(field_size(how, size) for _, how, size in data_fields(n))),
            ("round", 1),
            ("protagonist", n),
            ("indicators", 3),
            ("latched", 3),
            ("end_reason", 3),
            ("pool", COLOURS),
            ("sheets", n * COLOURS),
            ("section_markers", SECTIONS * COLOURS),
            ("char_loc", CHARACTERS * LOCATIONS),
            ("char_section", CHARACTERS * (SECTIONS + 1)),
            ("controller", CHARACTERS * (n + 1)),
            ("seat_char", n * (CHARACTERS + 1)),
            ("vehicle_loc", VEHICLES * (LOCATIONS + 1)),
            ("identity", n * (CHARACTERS + 1)),
            ("draft", DRAFT_SIZE),
            ("turn", TURN_SIZE),
            ("reveals", 2 * TYPES + 2),
            ("zone_sizes", DECKS + CHARACTERS + 3),
            ("hand", cards),
            ("private", cards),
            *[(f"deck_{d}", cards) for d in range(DECKS)],
            *[(f"deck_{d}_depth", cards) for d in range(DECKS)],
            ("temple", cards),
            ("discard", cards),
            *[(f"gear_{ch}", cards) for ch in range(CHARACTERS)],
            *[(f"played_{ch}", cards) for ch in range(CHARACTERS)],
            ("shown", cards),
            ("secret", cards + 1),
            ("winners", n),
        ]

    def _index_board(self) -> None:
        """Positions (and tops) of the scalars read by name, and where each card zone starts."""
        at = self.offsets
        self.board_at = [at["round"], at["indicators"], at["indicators"] + 1, at["indicators"] + 2]
        self.board_tops = [MAX_ROUNDS, self.countdown_max, self.repair_max, self.threat_max]
        sizes, reveals = at["zone_sizes"] + DECKS + CHARACTERS, at["reveals"] + 2 * TYPES
        self.zone_at = [reveals, reveals + 1, sizes, sizes + 1, sizes + 2]  # Temple, removed, discard, unknowns
        self.zone_tops = [5, self.cards, self.cards, 5, DECK_SCALE]
        self.deck_at = [at[f"deck_{d}"] for d in range(DECKS)]
        self.depth_at = [at[f"deck_{d}_depth"] for d in range(DECKS)]
        self.gear_at = [at[f"gear_{ch}"] for ch in range(CHARACTERS)]
        self.played_at = [at[f"played_{ch}"] for ch in range(CHARACTERS)]

    def _index_data(self) -> None:
        """Where each ``pending.data`` field goes (precomputed: the block is read by name)."""
        offset = self.offsets["pending_data"]
        self._data_slots: list[tuple[str, str, int, int]] = []
        self._scaled_names: list[str] = []
        self._scaled_at: list[int] = []
        self._scaled_tops: list[float] = []
        for name, how, size in data_fields(self.players):
            if how == SCALED:
                self._scaled_names.append(name)
                self._scaled_at.append(offset)
                self._scaled_tops.append(size)
            else:
                self._data_slots.append((name, how, offset, int(size)))
            offset += field_size(how, size)

    # -- collecting -----------------------------------------------------------------------------
    def collect(self, observation: Observation, features: Features) -> None:
        self._seats(observation, features)
        self._pending(observation, features)
        self._board(observation, features)
        self._draft(observation, features)
        self._turn(observation, features)
        self._zones(observation, features)
        self._secret(observation, features)

    def _seats(self, o: Observation, f: Features) -> None:
        """Own seat and Objective, every seat's Objective, the Protagonist, the winners."""
        at, n, seat = self.offsets, self.players, o["seat"]
        objectives = o["objectives"]
        f.one_hot(at["seat"], seat, n)
        f.one_hot(at["own_objective"], objective_slot(objectives[seat] if seat is not None else None), OBJECTIVES + 2)
        base = at["objectives"]
        f.ones.extend([base + k * (OBJECTIVES + 2) + objective_slot(x) for k, x in enumerate(objectives)])
        f.scaled(at["removed_objectives"], o["removed_objectives"], 2)
        f.members(at["protagonist"], [o["protagonist"]], n)
        outcome = o.get("outcome")
        f.members(at["winners"], outcome["winners"] if outcome else [], n)

    def _pending(self, o: Observation, f: Features) -> None:
        """Who acts, the decision's kind and its public arguments."""
        at, n = self.offsets, self.players
        pending = o["pending"]
        who = pending["seat"]
        f.one_hot(at["to_act"], n + 1 if who is None else who if who >= 0 else n, n + 2)
        f.flag(at["my_turn"], pending["seat"] == o["seat"])
        f.ones.append(at["pending"] + KIND_SLOT[pending["kind"]])
        data = pending["data"]
        for name, how, offset, size in self._data_slots:
            if how == SHIFTED:
                f.shifted(offset, data.get(name), size)
            else:
                f.members(offset, data.get(name, []), size)
        f.scaled_tops(self._scaled_at, [data.get(name, 0) for name in self._scaled_names], self._scaled_tops)

    def _board(self, o: Observation, f: Features) -> None:
        """Round, indicators, Markers, Characters and Vehicles on the board, identities."""
        at, n = self.offsets, self.players
        f.scaled_tops(self.board_at, [o["round"], o["countdown"], o["repair"], o["threat"]], self.board_tops)
        f.bits(at["latched"], o["latched"], 3)
        f.bits(at["end_reason"], o["end_reason"], 3)
        f.scaled_run(at["pool"], o["pool"], self.markers_max)
        f.scaled_run(at["sheets"], o["sheets"], self.markers_max)
        f.each_bits(at["section_markers"], o["section_markers"], COLOURS)
        base, places = at["char_loc"], o["char_loc"]
        if within(places, 0, LOCATIONS - 1):
            f.ones.extend(map(add, range(base, base + LOCATIONS * len(places), LOCATIONS), places))
        else:
            for k, location in enumerate(places):
                f.one_hot(base + k * LOCATIONS, location, LOCATIONS)
        f.each_shifted(at["char_section"], o["char_section"], SECTIONS + 1)
        f.each_shifted(at["controller"], o["controller"], n + 1)
        f.each_shifted(at["seat_char"], o["seat_char"], CHARACTERS + 1)
        f.each_shifted(at["vehicle_loc"], o["vehicle_loc"], LOCATIONS + 1)
        f.each_shifted(at["identity"], o["identity"], CHARACTERS + 1)

    def _draft(self, o: Observation, f: Features) -> None:
        """The random draft card, the Characters offered, own pick, picks made."""
        base, draft, seat = self.offsets["draft"], o["draft"], o["seat"]
        f.shifted(base, draft["random"], 7)
        f.members(base + 7, draft["received"] or [], CHARACTERS)
        f.shifted(base + 7 + CHARACTERS, draft["picks"][seat] if seat is not None else None, 7)
        f.scaled(base + 14 + CHARACTERS, o["pending"]["data"].get("step", 0), self.players)

    def _turn(self, o: Observation, f: Features) -> None:
        """The active Character, restrictions, auras, the cancelled card, the bonus."""
        base = self.offsets["turn"]
        auras = [0] * CHARACTERS
        for ch, amount, _ in o["auras"]:
            auras[ch] += amount
        f.one_hot(base, min(o["active"], CHARACTERS), CHARACTERS + 1)
        f.bits(base + 7, o["forbid"], 5)
        f.bits(base + 12, o["excl"], 5)
        f.scaled_run(base + 17, auras, 3)
        f.shifted(base + 23, o["cancelled"], 7)
        f.scaled(base + 30, o["bonus"], SMALL_SCALE)

    def _zones(self, o: Observation, f: Features) -> None:
        """Reveals, zone sizes and every card whose place the observation shows."""
        at, cards, seat = self.offsets, self.cards, o["seat"]
        zones = o["zones"]
        decks, gear, temple, discard = zones["decks"], zones["gear"], zones["temple"], zones["discard"]
        unknown_temple = sum(1 for c in temple if c is None)
        unknown_tops = sum(1 for d in decks for c in d["top"] if c is None)
        f.scaled_tops(
            self.zone_at, [len(temple), zones["removed"], len(discard), unknown_temple, unknown_tops], self.zone_tops
        )
        f.scaled_run(at["reveals"], o["revealed"], REVEAL_SCALE)
        f.scaled_run(at["reveals"] + TYPES, o["last_reveal"], REVEAL_SCALE)
        f.scaled_run(at["zone_sizes"], [deck["size"] for deck in decks], DECK_SCALE)
        f.scaled_run(at["zone_sizes"] + DECKS, [g["size"] for g in gear], GEAR_SCALE)
        depth = [
            (base + (c if 0 <= c < cards else slot(c, cards)), i)
            for base, deck in zip(self.depth_at, decks, strict=False)
            for i, c in enumerate(deck["top"])
            if c is not None
        ]
        f.at.extend([position for position, _ in depth])
        f.ratios.extend([1.0 / (1 + i) for _, i in depth])
        ch = o["seat_char"][seat] if seat is not None else -1
        blocks = [(at["hand"], gear[ch]["known"] if ch >= 0 else []), (at["private"], o["private"])]
        blocks += [(base, deck["top"]) for base, deck in zip(self.deck_at, decks, strict=False)]
        blocks += [(base, deck["rest_known"]) for base, deck in zip(self.deck_at, decks, strict=False)]
        blocks += [
            (at["temple"], temple),
            (at["discard"], discard),
            (at["shown"], o["pending"]["data"].get("shown", [])),
        ]
        blocks += [(base, held["known"]) for base, held in zip(self.gear_at, gear, strict=False)]
        blocks += [(base, played) for base, played in zip(self.played_at, zones["played"], strict=False)]
        f.members_each(blocks, cards)

    def _secret(self, o: Observation, f: Features) -> None:
        """Cards chosen face down in the pending work that this seat knows; the last slot: one
        that is hidden from it."""
        base, cards = self.offsets["secret"], self.cards
        for task in o["tasks"]:
            for name in ("given", "taken"):
                if name in task:
                    card = task[name]
                    f.one_hot(base, cards if card is None else card, cards + 1)
