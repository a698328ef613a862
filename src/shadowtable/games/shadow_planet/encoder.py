"""The Shadow Planet observation encoder: a seat's typed observation to a flat ``float32`` vector.

The vector is a concatenation of named blocks (see docs/rl/shadow-planet-encoding.md); every
value lies in ``[0, 1]`` and the length depends only on the player count.  Only what the
observation shows is encoded, so a seat's vector never leaks hidden facts.  The block sizes
come from the game's printed tables (:class:`Sizes`), the pending kinds from its decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import add
from typing import Any

from shadowtable.core.game import Game
from shadowtable.games.shadow_planet.printed import Printed, printed
from shadowtable.games.shadow_planet.view import PlanetObservation
from shadowtable.rl.encoding import ArrayEncoder, Features, shifted_slot, slot, within

MAX_ROUNDS = 60
DECK_SCALE, GEAR_SCALE, POINTS_SCALE, SMALL_SCALE, REVEAL_SCALE = 20, 30, 20, 10, 6
SHIFTED, MEMBERS, SCALED = "shifted", "members", "scaled"
REVEAL_SLOTS = 3
"""``pending.data.reveal``: none, then the two Section reveals."""
END_BITS = 3
"""The end conditions (Threat, Repair, Countdown) of ``latched`` and ``end_reason``."""


@dataclass(frozen=True)
class Sizes:
    """The counts of the printed material the layout is built from."""

    characters: int
    locations: int
    sections: int
    vehicles: int
    objectives: int
    colours: int
    types: int

    @classmethod
    def of(cls, material: Printed) -> Sizes:
        """The counts of ``material`` (the Markers' colours: those of the Characters)."""
        return cls(
            characters=len(material.char_names),
            locations=len(material.location_names),
            sections=len(material.section_names),
            vehicles=len(material.vehicle_names),
            objectives=len(material.objective_names),
            colours=max(material.char_colour) + 1,
            types=len(material.types),
        )

    @property
    def decks(self) -> int:
        """The Location decks and the Messages pile."""
        return self.locations + 1

    @property
    def draft(self) -> int:
        """The ``draft`` block: random card (one-hot+1), offered, own pick (one-hot+1), step."""
        return 2 * (self.characters + 1) + self.characters + 1

    @property
    def turn(self) -> int:
        """The ``turn`` block: active, forbid, excl, auras, cancelled (one-hot+1), bonus."""
        return 2 * (self.characters + 1) + 2 * self.types + self.characters + 1


def objective_slot(objective: int | None, objectives: int) -> int:
    """0..``objectives - 1`` an Objective, then hidden, then not dealt yet."""
    if objective is None:
        return objectives
    return objectives + 1 if objective < 0 else objective


def data_fields(players: int, sizes: Sizes) -> list[tuple[str, str, float]]:
    """The ``pending.data`` fields encoded, in order: name, how (one-hot+1 or multi-hot over a
    size, or scaled by a top) and that size or top.  Absent fields encode as none/0."""
    n, characters = players, sizes.characters
    return [
        ("deck", SHIFTED, sizes.decks + 1),
        *[(name, SCALED, top) for name, top in (("total", 20), ("cards", 10), ("points", 20), ("draws", 10))],
        ("drive", SHIFTED, sizes.vehicles + 1),
        ("dest", SHIFTED, sizes.locations + 1),
        ("passengers", MEMBERS, characters),
        ("waiting", MEMBERS, characters),
        ("rider", SHIFTED, characters + 1),
        ("target", SHIFTED, n + 1),
        ("section", SHIFTED, sizes.sections + 1),
        ("reveal", SHIFTED, REVEAL_SLOTS),
        *[(name, SCALED, SMALL_SCALE) for name in ("count", "amount", "remove", "looked")],
        ("size", SCALED, POINTS_SCALE),
        ("placed", SCALED, POINTS_SCALE),
        ("step", SCALED, n),
        ("giver", SHIFTED, n + 1),
    ]


def field_size(how: str, size: float) -> int:
    """Slots a pending-data field takes."""
    return 1 if how == SCALED else int(size)


class ShadowPlanetEncoder(ArrayEncoder[PlanetObservation]):
    """Encodes observations of one configured Shadow Planet game (fixed player count)."""

    def __init__(self, game: Game[Any]) -> None:
        material = printed(game)
        self.sizes = Sizes.of(material)
        self.players = game.players
        self.cards = material.num_cards
        self.countdown_max = float(material.countdown_max)
        self.repair_max = float(material.repair_max)
        self.threat_max = float(material.threat_max)
        self.markers_max = float(material.markers_per_colour)
        self.kind_slot = {kind: index for index, kind in enumerate((*material.decisions, "over"))}
        """``pending.kind`` values: the game's decisions and chance nodes, then ``over``."""
        super().__init__(game, self._layout())
        self._index_data()
        self._index_board()

    def _layout(self) -> list[tuple[str, int]]:
        n, cards, z = self.players, self.cards, self.sizes
        characters, locations, sections, colours, objective = (
            z.characters,
            z.locations,
            z.sections,
            z.colours,
            z.objectives + 2,
        )
        return [
            ("seat", n),
            ("own_objective", objective),
            ("objectives", n * objective),
            ("removed_objectives", 1),
            ("to_act", n + 2),
            ("my_turn", 1),
            ("pending", len(self.kind_slot)),
            ("pending_data", sum(field_size(how, size) for _, how, size in data_fields(n, z))),
            ("round", 1),
            ("protagonist", n),
            ("indicators", 3),
            ("latched", END_BITS),
            ("end_reason", END_BITS),
            ("pool", colours),
            ("sheets", n * colours),
            ("section_markers", sections * colours),
            ("char_loc", characters * locations),
            ("char_section", characters * (sections + 1)),
            ("controller", characters * (n + 1)),
            ("seat_char", n * (characters + 1)),
            ("vehicle_loc", z.vehicles * (locations + 1)),
            ("identity", n * (characters + 1)),
            ("draft", z.draft),
            ("turn", z.turn),
            ("reveals", 2 * z.types + 2),
            ("zone_sizes", z.decks + characters + 3),
            ("hand", cards),
            ("private", cards),
            *[(f"deck_{d}", cards) for d in range(z.decks)],
            *[(f"deck_{d}_depth", cards) for d in range(z.decks)],
            ("temple", cards),
            ("discard", cards),
            *[(f"gear_{ch}", cards) for ch in range(characters)],
            *[(f"played_{ch}", cards) for ch in range(characters)],
            ("shown", cards),
            ("secret", cards + 1),
            ("winners", n),
        ]

    def _index_board(self) -> None:
        """Positions (and tops) of the scalars read by name, and where each card zone starts."""
        at, z = self.offsets, self.sizes
        self.board_at = [at["round"], at["indicators"], at["indicators"] + 1, at["indicators"] + 2]
        self.board_tops = [MAX_ROUNDS, self.countdown_max, self.repair_max, self.threat_max]
        sizes, reveals = at["zone_sizes"] + z.decks + z.characters, at["reveals"] + 2 * z.types
        self.zone_at = [reveals, reveals + 1, sizes, sizes + 1, sizes + 2]  # Temple, removed, discard, unknowns
        self.zone_tops = [5, self.cards, self.cards, 5, DECK_SCALE]
        self.deck_at = [at[f"deck_{d}"] for d in range(z.decks)]
        self.depth_at = [at[f"deck_{d}_depth"] for d in range(z.decks)]
        self.gear_at = [at[f"gear_{ch}"] for ch in range(z.characters)]
        self.played_at = [at[f"played_{ch}"] for ch in range(z.characters)]

    def _index_data(self) -> None:
        """Where each ``pending.data`` field goes (precomputed: the block is read by name)."""
        offset = self.offsets["pending_data"]
        self._data_slots: list[tuple[str, str, int, int]] = []
        self._scaled_names: list[str] = []
        self._scaled_at: list[int] = []
        self._scaled_tops: list[float] = []
        for name, how, size in data_fields(self.players, self.sizes):
            if how == SCALED:
                self._scaled_names.append(name)
                self._scaled_at.append(offset)
                self._scaled_tops.append(size)
            else:
                self._data_slots.append((name, how, offset, int(size)))
            offset += field_size(how, size)

    # -- collecting -----------------------------------------------------------------------------
    def collect(self, view: PlanetObservation, features: Features) -> None:
        self._seats(view, features)
        self._pending(view, features)
        self._board(view, features)
        self._draft(view, features)
        self._turn(view, features)
        self._zones(view, features)
        self._secret(view, features)

    def _seats(self, o: PlanetObservation, f: Features) -> None:
        """Own seat and Objective, every seat's Objective, the Protagonist, the winners."""
        at, n, seat, pub = self.offsets, self.players, o.seat, o.public
        objectives, size = pub.objectives, self.sizes.objectives
        f.one_hot(at["seat"], seat, n)
        own = objective_slot(objectives[seat] if seat is not None else None, size)
        f.one_hot(at["own_objective"], own, size + 2)
        base = at["objectives"]
        f.ones.extend([base + k * (size + 2) + objective_slot(x, size) for k, x in enumerate(objectives)])
        f.scaled(at["removed_objectives"], pub.removed_objectives, 2)
        f.members(at["protagonist"], [pub.protagonist], n)
        f.members(at["winners"], o.outcome.winners if o.outcome else [], n)

    def _pending(self, o: PlanetObservation, f: Features) -> None:
        """Who acts, the decision's kind and its public arguments."""
        at, n, pending = self.offsets, self.players, o.pending
        who = pending.seat
        f.one_hot(at["to_act"], n + 1 if who is None else who if who >= 0 else n, n + 2)
        f.flag(at["my_turn"], who == o.seat)
        f.ones.append(at["pending"] + self.kind_slot[pending.kind])
        data, ones = pending.data, f.ones
        for name, how, offset, size in self._data_slots:
            value = data.get(name)
            if how == SHIFTED:
                ones.append(offset + shifted_slot(value, size))  # absent: slot 0
            elif value:
                f.members(offset, value, size)
        f.scaled_tops(self._scaled_at, [data.get(name, 0) for name in self._scaled_names], self._scaled_tops)

    def _board(self, o: PlanetObservation, f: Features) -> None:
        """Round, indicators, Markers, Characters and Vehicles on the board, identities."""
        at, n, z, pub = self.offsets, self.players, self.sizes, o.public
        f.scaled_tops(self.board_at, [pub.round, pub.countdown, pub.repair, pub.threat], self.board_tops)
        f.bits(at["latched"], pub.latched, END_BITS)
        f.bits(at["end_reason"], pub.end_reason, END_BITS)
        f.scaled_run(at["pool"], pub.pool, self.markers_max)
        f.scaled_run(at["sheets"], pub.sheets, self.markers_max)
        f.each_bits(at["section_markers"], pub.section_markers, z.colours)
        base, places, locations = at["char_loc"], pub.character_location, z.locations
        if within(places, 0, locations - 1):
            f.ones.extend(map(add, range(base, base + locations * len(places), locations), places))
        else:
            for k, location in enumerate(places):
                f.one_hot(base + k * locations, location, locations)
        f.each_shifted(at["char_section"], pub.character_section, z.sections + 1)
        f.each_shifted(at["controller"], pub.controller, n + 1)
        f.each_shifted(at["seat_char"], pub.seat_character, z.characters + 1)
        f.each_shifted(at["vehicle_loc"], pub.vehicle_loc, locations + 1)
        f.each_shifted(at["identity"], pub.identity, z.characters + 1)

    def _draft(self, o: PlanetObservation, f: Features) -> None:
        """The random draft card, the Characters offered, own pick, picks made."""
        base, draft, seat, characters = self.offsets["draft"], o.public.draft, o.seat, self.sizes.characters
        f.shifted(base, draft.random, characters + 1)
        base += characters + 1
        f.members(base, draft.received or [], characters)
        base += characters
        f.shifted(base, draft.picks[seat] if seat is not None else None, characters + 1)
        f.scaled(base + characters + 1, o.pending.data.get("step", 0), self.players)

    def _turn(self, o: PlanetObservation, f: Features) -> None:
        """The active Character, restrictions, auras, the cancelled card, the bonus."""
        base, pub, characters, types = self.offsets["turn"], o.public, self.sizes.characters, self.sizes.types
        auras = [0] * characters
        for ch, amount, _ in pub.auras:
            auras[ch] += amount
        f.one_hot(base, min(pub.active, characters), characters + 1)
        base += characters + 1
        f.bits(base, pub.forbid, types)
        f.bits(base + types, pub.exclusive, types)
        base += 2 * types
        f.scaled_run(base, auras, 3)
        f.shifted(base + characters, pub.cancelled, characters + 1)
        f.scaled(base + 2 * characters + 1, pub.bonus, SMALL_SCALE)

    def _zones(self, o: PlanetObservation, f: Features) -> None:
        """Reveals, zone sizes and every card whose place the observation shows."""
        at, cards, seat, pub, z = self.offsets, self.cards, o.seat, o.public, self.sizes
        zones = pub.zones
        decks, gear, temple, discard = zones.decks, zones.gear, zones.temple, zones.discard
        unknown_temple = temple.count(None)
        unknown_tops = sum([d.top.count(None) for d in decks])
        f.scaled_tops(
            self.zone_at, [len(temple), zones.removed, len(discard), unknown_temple, unknown_tops], self.zone_tops
        )
        f.scaled_run(at["reveals"], pub.revealed, REVEAL_SCALE)
        f.scaled_run(at["reveals"] + z.types, pub.last_reveal, REVEAL_SCALE)
        f.scaled_run(at["zone_sizes"], [deck.size for deck in decks], DECK_SCALE)
        f.scaled_run(at["zone_sizes"] + z.decks, [g.size for g in gear], GEAR_SCALE)
        for base, deck in zip(self.depth_at, decks, strict=False):
            if deck.top:
                for i, c in enumerate(deck.top):
                    if c is not None:
                        f.at.append(base + (c if 0 <= c < cards else slot(c, cards)))
                        f.ratios.append(1.0 / (1 + i))
        ch = pub.seat_character[seat] if seat is not None else -1
        blocks: list[tuple[int, tuple[int | None, ...]]] = [
            (at["hand"], gear[ch].known if ch >= 0 else ()),
            (at["private"], o.private),
        ]
        blocks += [(base, deck.top) for base, deck in zip(self.deck_at, decks, strict=False)]
        blocks += [(base, deck.rest_known) for base, deck in zip(self.deck_at, decks, strict=False)]
        blocks += [(at["temple"], temple), (at["discard"], discard), (at["shown"], o.pending.data.get("shown", ()))]
        blocks += [(base, held.known) for base, held in zip(self.gear_at, gear, strict=False)]
        blocks += [(base, played) for base, played in zip(self.played_at, zones.played, strict=False)]
        f.members_each(blocks, cards)

    def _secret(self, o: PlanetObservation, f: Features) -> None:
        """Cards chosen face down in the pending work that this seat knows; the last slot: one
        that is hidden from it."""
        base, cards = self.offsets["secret"], self.cards
        for task in o.tasks:
            for name in ("given", "taken"):
                if name in task:
                    card = task[name]
                    f.one_hot(base, cards if card is None else card, cards + 1)
