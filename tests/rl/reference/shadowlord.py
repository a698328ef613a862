"""The Shadowlord! observation encoder as it was (test-only reference).

The vector is a concatenation of named blocks (see ``docs/rl/shadowlord-encoding.md``); every
value lies in ``[0, 1]`` and the length is the same for every configuration (seats, colours,
figures and galaxies are padded to the engine's fixed maxima).  Only what the observation shows
is encoded, so a seat's vector never depends on facts hidden from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rl.reference.encoding import Block, BlockEncoder, bits, one_hot, one_hot_shifted
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadowlord.content import CARD_VALUES, MAX_FIGURES, MAX_GALAXIES
from shadowtable.games.shadowlord.game import ShadowlordGame

SEATS = 4
COLOURS = 5
"""Red, blue, yellow, green and black (the shadows)."""
KINDS = 6
"""Master, Warrior, Merchant, Diplomat, Shadowlord, Shadow."""
CELL_KINDS = ("galaxy", "ruins", "space_base", "home", "lost_fortress")
STATUSES = 4
"""Face down (bag), active, captive, removed."""
FLAG_BITS = 5
"""Stopped, may not move, started moving, searched, freed this turn."""
DECISION_KINDS = (
    "place_starting_ship",
    "surrender",
    "build",
    "move",
    "move_shadow",
    "choose_event_target",
    "discard_storm_ship",
    "place_shadow",
    "enlist",
    "place_character",
    "dismiss",
    "want",
    "vote",
    "propose_truce",
    "answer_truce",
    "challenge_loose_ships",
    "call_own_character",
    "send_ally",
    "choose_next_battle",
    "place_attacker",
    "face",
    "place_defender",
    "blast",
    "commit",
    "give_stone",
    "teleport",
    "build_offer",
    "answer_offer",
    "give_dismissed",
    "shift_from",
    "shift_to",
    "place_traded",
)
"""The engine's decision kinds (the last four come with the engine's next revision)."""
PENDING_SLOTS = len(DECISION_KINDS) + 2
"""Each decision kind, then 'chance or automatic', then 'game over'."""
EVENT_SLOTS = 7
"""none, defect, escape, spacestorm, discover, steal, draw 2."""
VOTE_KINDS = ("defect", "place_shadow", "move_shadow")
DISC_KINDS = 11
"""Warrior, Merchant, Diplomat and the eight shadow 'Attacks' discs."""
END_REASONS = ("master_of_universe", "surrender", "shadowlord_timer", "shadowlord_wins", "truncated")
RING_SCALE, SHIP_SCALE, LOOSE_SCALE, CARD_SCALE, HAND_SCALE = 9.0, 36.0, 30.0, 10.0, 30.0
DECK_SCALE, SUPPLY_SCALE, MOVES_SCALE, TIMER_SCALE = 50.0, 30.0, 7.0, 10.0


def scaled(value: float, top: float) -> float:
    """``value / top`` clipped to ``[0, 1]``."""
    return min(1.0, max(0.0, value / top))


def padded(values: Sequence[float], size: int) -> list[float]:
    """``values`` cut or zero-padded to ``size``."""
    out = [float(x) for x in values[:size]]
    return out + [0.0] * (size - len(out))


def pending_of(observation: Observation) -> dict[str, Any]:
    """``observation["pending"]``: the seat to act, the decision kind and its public data."""
    return dict(observation.get("pending") or {})


class ReferenceShadowlordEncoder(BlockEncoder):
    """Encodes observations of one configured Shadowlord! game as one flat vector."""

    def __init__(self, game: Game[Any]) -> None:
        if not isinstance(game, ShadowlordGame):
            raise TypeError(f"the Shadowlord! encoder cannot encode {game.spec.id}")
        ctx = game.ctx
        self.content = ctx.content
        self.seat_of: list[int] = [ctx.seat_of(c) for c in range(4)]
        self.players = game.players
        self.turn_cap = float(game.options.get("turn_cap") or 150)
        self.timer_top = float(max(self.content.timer_notches, self.content.timer_every_turn_notches, 1))
        self.cells = [CELL_KINDS.index(k) if k in CELL_KINDS else 0 for k in self.content.cell_kind]
        self.set_blocks(self._blocks())

    # -- blocks ---------------------------------------------------------------------------------
    def _blocks(self) -> list[Block]:
        nf, ng, nv = MAX_FIGURES, MAX_GALAXIES, CARD_VALUES
        return [
            ("seat", SEATS, lambda o: one_hot(o["seat"], SEATS)),
            ("colours", 4 * 4, self._colours),
            ("current_colour", 4, lambda o: one_hot_shifted(o["public"]["cur"], 5)[1:]),
            ("pending", PENDING_SLOTS, self._pending),
            ("pending_seat", SEATS + 1, self._pending_seat),
            ("event", EVENT_SLOTS, self._event),
            ("clock", 4, self._clock),
            ("end_reason", len(END_REASONS), self._end_reason),
            ("winner", SEATS, lambda o: padded(one_hot_shifted(o["public"]["winner"], SEATS + 1)[1:], SEATS)),
            ("cards", nv + SEATS + 2, self._cards),
            ("discs_left", DISC_KINDS, lambda o: [scaled(x, 4) for x in padded(o["public"]["bag"], DISC_KINDS)]),
            ("supply", COLOURS, lambda o: [scaled(x, SUPPLY_SCALE) for x in padded(o["public"]["supply"], COLOURS)]),
            ("permissions", 16, lambda o: [b for m in padded(o["public"]["perm"], 4) for b in bits(int(m), 4)]),
            ("turn_flags", 3, self._turn_flags),
            ("galaxies", ng * self._galaxy_size(), self._galaxies),
            ("figures", nf * self._figure_size(), self._figures),
            ("duel", 2 * nv + 2 + nv + 1, self._duel),
            ("vote", len(VOTE_KINDS) + 2, self._vote),
            ("offer", 2 * nv + 6, self._offer),
        ]

    def _colours(self, o: Observation) -> list[float]:
        """Per colour: in play, this seat's, alive, its seat out of the game."""
        pub = o["public"]
        out: list[float] = []
        for colour in range(4):
            seat = self.seat_of[colour]
            out += [
                float(seat >= 0),
                float(seat >= 0 and seat == o["seat"]),
                float(bool(pub["alive"][colour])),
                float(seat >= 0 and bool(pub["seat_out"][seat])),
            ]
        return out

    def _pending(self, o: Observation) -> list[float]:
        """The pending decision's kind (then: chance, game over)."""
        pending = pending_of(o)
        kind = str(pending.get("kind") or "over")
        if o["public"].get("end") or kind == "over":
            return one_hot(PENDING_SLOTS - 1, PENDING_SLOTS)
        index = DECISION_KINDS.index(kind) if kind in DECISION_KINDS else len(DECISION_KINDS)
        return one_hot(index, PENDING_SLOTS)

    def _pending_seat(self, o: Observation) -> list[float]:
        """The seat to decide (last slot: nobody, a chance node or the end)."""
        pending = pending_of(o)
        seat = pending.get("seat")
        if str(pending.get("kind")) in DECISION_KINDS and isinstance(seat, int) and 0 <= seat < SEATS:
            return one_hot(seat, SEATS + 1)
        return one_hot(SEATS, SEATS + 1)

    def _event(self, o: Observation) -> list[float]:
        pending = pending_of(o)
        event = (pending.get("data") or {}).get("event")
        if pending.get("kind") == "choose_event_target" and isinstance(event, int):
            return one_hot(min(event, EVENT_SLOTS - 1), EVENT_SLOTS)
        return [0.0] * EVENT_SLOTS

    def _clock(self, o: Observation) -> list[float]:
        """Turn, Power Stone Timer (and whether it is gone), first round."""
        pub = o["public"]
        timer = int(pub["timer"])
        return [
            scaled(pub["turn"], self.turn_cap),
            scaled(timer, self.timer_top) if timer >= 0 else 0.0,
            float(timer < 0),
            float(pub["first_round_turns"] > 0),
        ]

    def _end_reason(self, o: Observation) -> list[float]:
        end = o["public"].get("end") or ""
        return [float(end == reason) for reason in END_REASONS]

    def _cards(self, o: Observation) -> list[float]:
        """Own Attack Hand by value, every seat's hand size, deck and discard sizes."""
        pub, private = o["public"], o.get("private") or {}
        hand = private.get("hand") or [0] * CARD_VALUES
        return (
            [scaled(x, CARD_SCALE) for x in padded(hand, CARD_VALUES)]
            + [scaled(x, HAND_SCALE) for x in padded(pub["hand_counts"], SEATS)]
            + [scaled(pub["deck_count"], DECK_SCALE), scaled(pub["discard_count"], DECK_SCALE)]
        )

    def _turn_flags(self, o: Observation) -> list[float]:
        """Bribery used this turn, offers made this turn, Space Ships waiting to be built."""
        pub = o["public"]
        return [float(bool(pub["bribed"])), scaled(pub["offers"], 3), scaled(pub["pool"], SHIP_SCALE)]

    # -- the board ----------------------------------------------------------------------------
    @staticmethod
    def _galaxy_size() -> int:
        return len(CELL_KINDS) + (COLOURS + 1) + 3 * COLOURS + 1 + 2 * KINDS + 2

    def _galaxies(self, o: Observation) -> list[float]:
        pub = o["public"]
        mine = {c for c in range(4) if self.seat_of[c] == o["seat"]}
        count = len(self.cells)
        rings = [[0] * COLOURS for _ in range(MAX_GALAXIES)]
        ships = [[0] * COLOURS for _ in range(MAX_GALAXIES)]
        kinds = [[0] * (2 * KINDS) for _ in range(MAX_GALAXIES)]
        for f, g in enumerate(pub["loc"]):
            if pub["status"][f] != 1 or not 0 <= g < MAX_GALAXIES:
                continue
            colour = min(int(pub["owner"][f]), COLOURS - 1)
            rings[g][colour] += 1
            ships[g][colour] += int(pub["ships"][f])
            kind = int(self.content.fig_kind[f])
            kinds[g][kind + (0 if colour in mine else KINDS)] += 1
        due = self._battle_galaxies(pub)
        out: list[float] = []
        for g in range(MAX_GALAXIES):
            if g >= count:
                out += [0.0] * self._galaxy_size()
                continue
            loose = [0.0] * COLOURS
            if pub["loose_n"][g] > 0 and 0 <= pub["loose_col"][g] < COLOURS:
                loose[pub["loose_col"][g]] = scaled(pub["loose_n"][g], LOOSE_SCALE)
            out += one_hot(self.cells[g], len(CELL_KINDS))
            out += one_hot_shifted(self._control(pub, g, rings[g]), COLOURS + 1)
            out += [scaled(x, RING_SCALE) for x in rings[g]]
            out += [scaled(x, SHIP_SCALE) for x in ships[g]]
            out += loose
            out.append(float(bool(pub["disc"][g])))
            out += [scaled(x, RING_SCALE) for x in kinds[g]]
            out += [float(g in due), float(bool(int(pub["truce"]) >> g & 1))]
        return out

    def _control(self, pub: dict[str, Any], g: int, rings: list[int]) -> int:
        """The controlling colour (rings, then loose ships; a Home Planet defaults to its owner)."""
        cols = {c for c in range(COLOURS) if rings[c]}
        loose = int(pub["loose_col"][g]) if pub["loose_n"][g] > 0 else -1
        homes = list(self.content.home_of)
        if g in homes:
            owner = homes.index(g)
            if pub["alive"][owner] and not (cols - {owner}) and loose in (-1, owner):
                return owner
        if len(cols) == 1:
            return next(iter(cols))
        if cols:
            return loose if loose in cols else -1
        return loose

    @staticmethod
    def _battle_galaxies(pub: dict[str, Any]) -> set[int]:
        battle = pub.get("battle") or {}
        return {int(e[0]) for e in battle.get("plan") or [] if len(e) > 4 and e[4] == 0}

    @staticmethod
    def _figure_size() -> int:
        return STATUSES + (COLOURS + 1) + 1 + 1 + 1 + 1 + CARD_VALUES + 1 + FLAG_BITS + 1 + (MAX_GALAXIES + 1) + 2 + 2

    def _figures(self, o: Observation) -> list[float]:
        pub = o["public"]
        portraits = (o.get("private") or {}).get("portraits") or {}
        duel = (pub.get("battle") or {}).get("duel") or {}
        duel_figs = list(duel.get("figs") or [])
        vote = pub.get("vote") or {}
        offer = pub.get("offer") or {}
        mine = {c for c in range(4) if self.seat_of[c] == o["seat"]}
        out: list[float] = []
        for f in range(MAX_FIGURES):
            if f >= len(pub["owner"]):
                out += [0.0] * self._figure_size()
                continue
            owner, status, captor = int(pub["owner"][f]), int(pub["status"][f]), int(pub["captor"][f])
            own_cards = portraits.get(str(f)) or [0] * CARD_VALUES
            out += one_hot(min(max(status, 0), STATUSES - 1), STATUSES)
            out += one_hot_shifted(min(owner, COLOURS - 1), COLOURS + 1)
            out.append(float(owner in mine))
            out.append(scaled(pub["ships"][f], 6))
            out.append(float(pub["stone"] == f))
            out.append(scaled(pub["portrait_counts"][f], CARD_SCALE))
            out += [scaled(x, CARD_SCALE) for x in padded(own_cards, CARD_VALUES)]
            out.append(float(captor >= 0 and int(pub["owner"][captor]) in mine))
            out += bits(int(pub["flags"][f]), FLAG_BITS)
            out.append(scaled(pub["moves"][f], MOVES_SCALE))
            out += one_hot_shifted(int(pub["loc"][f]), MAX_GALAXIES + 1)
            out += [float(len(duel_figs) > side and duel_figs[side] == f) for side in (0, 1)]
            out += [
                float(vote.get("a") == f),
                float(f in (offer.get("chars") or []) or f in (offer.get("release") or [])),
            ]
        return out

    # -- Battle, vote, offer ------------------------------------------------------------------
    def _duel(self, o: Observation) -> list[float]:
        """Cards drawn by each side (by value), cards committed by each side, own commitment."""
        duel = ((o["public"].get("battle") or {}).get("duel")) or {}
        drawn: list[list[int]] = list(duel.get("drawn") or [[], []])
        counts = list(duel.get("count") or [0, 0])
        out: list[float] = []
        for side in (0, 1):
            per_value = [0] * CARD_VALUES
            for v in drawn[side] if side < len(drawn) else []:
                if 0 <= v < CARD_VALUES:
                    per_value[v] += 1
            out += [scaled(x, 3) for x in per_value]
        out += [scaled(counts[0], CARD_SCALE), scaled(counts[1], CARD_SCALE)]
        commits = (o.get("private") or {}).get("commit") or [None, None]
        own = next((c for c in commits if c), None) or [0] * CARD_VALUES
        out += [scaled(x, CARD_SCALE) for x in padded(own, CARD_VALUES)]
        out.append(float(bool(duel)))
        return out

    def _vote(self, o: Observation) -> list[float]:
        """Vote kind, own vote cast (and whether it was yes)."""
        vote = o["public"].get("vote") or {}
        kind = vote.get("kind")
        out = [float(kind == k) for k in VOTE_KINDS]
        votes = vote.get("votes") or []
        own = votes[o["seat"]] if isinstance(o["seat"], int) and o["seat"] < len(votes) else -1
        return [*out, float(own in (0, 1)), float(own == 1)]

    def _offer(self, o: Observation) -> list[float]:
        """The open offer: cards given and wanted, from/to this seat, permissions, Truces."""
        offer = o["public"].get("offer") or {}
        give = padded(offer.get("give") or [], CARD_VALUES)
        want = padded(offer.get("want") or [], CARD_VALUES)
        return (
            [scaled(x, 4) for x in give]
            + [scaled(x, 4) for x in want]
            + [
                float(bool(offer) and offer.get("from") == o["seat"]),
                float(bool(offer) and offer.get("to") == o["seat"]),
                float(bool(offer.get("perm_give"))),
                float(bool(offer.get("perm_want"))),
                scaled(len(offer.get("truce") or []), 4),
                float(bool(offer)),
            ]
        )
