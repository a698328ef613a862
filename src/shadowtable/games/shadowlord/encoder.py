"""The Shadowlord! observation encoder: a seat's typed observation to a flat ``float32`` vector.

The vector is a concatenation of named blocks (see ``docs/rl/shadowlord-encoding.md``); every
value lies in ``[0, 1]`` and the length is the same for every configuration (seats, colours,
figures and galaxies are padded to the engine's fixed maxima).  Only what the observation shows
is encoded, so a seat's vector never depends on facts hidden from it.  The counts come from the
game (its spec, content, state codes and task list); the orders of the decision kinds and cell
kinds are the layout's own, checked against the game's by the tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import compress
from operator import add
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.kernel import task_kind
from shadowtable.games.shadowlord import tasks
from shadowtable.games.shadowlord.content import CARD_VALUES, EVENTS, KIND_NAMES, MAX_FIGURES, MAX_GALAXIES
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.printed import printed
from shadowtable.games.shadowlord.state import BLACK, FREED, STATUS_NAMES
from shadowtable.games.shadowlord.view import LordObservation, LordPublic
from shadowtable.rl.encoding import ArrayEncoder, Features, set_bits, shifted_slot, within

SEATS = ShadowlordGame.SPEC.max_players
ALLIANCES = BLACK
"""Red, blue, yellow and green; the shadows' black comes after them."""
COLOURS = BLACK + 1
KINDS = len(KIND_NAMES)
"""Master, Warrior, Merchant, Diplomat, Shadowlord, Shadow."""
CELL_KINDS = ("galaxy", "ruins", "space_base", "home", "lost_fortress")
"""The layout's order of the content's cell kinds."""
STATUSES = len(STATUS_NAMES)
"""Face down (bag), active, captive, removed."""
FLAG_BITS = FREED.bit_length()
"""Stopped, may not move, started moving, searched, freed this turn (the flags up to ``FREED``)."""
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
"""The layout's order of the game's decision kinds (:func:`decision_kinds`); a kind it lacks
encodes as 'chance or automatic'."""
PENDING_SLOTS = len(DECISION_KINDS) + 2
"""Each decision kind, then 'chance or automatic', then 'game over'."""
EVENT_SLOTS = len(EVENTS)
"""none, defect, escape, spacestorm, discover, steal, draw 2."""
VOTE_KINDS = ("defect", "place_shadow", "move_shadow")
DISC_KINDS = 11
"""Warrior, Merchant, Diplomat and the eight shadow 'Attacks' discs."""
END_REASONS = ("master_of_universe", "surrender", "shadowlord_timer", "shadowlord_wins", "truncated")
RING_SCALE, SHIP_SCALE, LOOSE_SCALE, CARD_SCALE, HAND_SCALE = 9.0, 36.0, 30.0, 10.0, 30.0
TURN_SCALE = 150
"""The turn count's top: the turn cap, but at most the simulations' default, with which every shipped
policy was trained (a game people play has a cap of 1,000, as none; past turn 150 the count reads 1)."""
DECK_SCALE, SUPPLY_SCALE, MOVES_SCALE, TIMER_SCALE = 50.0, 30.0, 7.0, 10.0


def decision_kinds() -> tuple[str, ...]:
    """The kinds of the game's decisions: its task list's :class:`~tasks.SeatDecision` types."""
    found = [
        task_kind(cls)
        for cls in vars(tasks).values()
        if isinstance(cls, type) and issubclass(cls, tasks.SeatDecision) and cls is not tasks.SeatDecision
    ]
    return tuple(found)


def columns(sizes: Sequence[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Where each named column of a block starts, and the block's size."""
    starts: dict[str, int] = {}
    total = 0
    for name, size in sizes:
        starts[name] = total
        total += size
    return starts, total


DECISION_SLOT = {kind: index for index, kind in enumerate(DECISION_KINDS)}
END_SLOT = {reason: index for index, reason in enumerate(END_REASONS)}
GALAXY_COLUMNS, GALAXY_SIZE = columns(
    [
        ("cell", len(CELL_KINDS)),
        ("control", COLOURS + 1),
        ("rings", COLOURS),
        ("ships", COLOURS),
        ("loose", COLOURS),
        ("disc", 1),
        ("kinds", 2 * KINDS),
        ("due", 1),
        ("truce", 1),
    ]
)
"""Per galaxy: cell kind, controlling colour (one-hot+1), rings, ships, loose ships, disc, figure
kinds (own, others'), Battle due, Truce."""
FIGURE_COLUMNS, FIGURE_SIZE = columns(
    [
        ("status", STATUSES),
        ("owner", COLOURS + 1),
        ("mine", 1),
        ("ships", 1),
        ("stone", 1),
        ("portraits", 1),
        ("cards", CARD_VALUES),
        ("captive", 1),
        ("flags", FLAG_BITS),
        ("moves", 1),
        ("loc", MAX_GALAXIES + 1),
        ("duel", 2),
        ("vote", 1),
        ("offer", 1),
    ]
)
"""Per figure: status, owner (one-hot+1), own, ships, Power Stone, portrait cards (count, own by
value), captive of own, flags, moves, galaxy (one-hot+1), Duel sides, vote subject, in the offer."""
G_CONTROL, G_RINGS, G_SHIPS, G_LOOSE, G_DISC, G_KINDS, G_DUE, G_TRUCE = (
    GALAXY_COLUMNS[name] for name in ("control", "rings", "ships", "loose", "disc", "kinds", "due", "truce")
)
F_OWNER, F_MINE, F_SHIPS, F_STONE, F_PORTRAITS, F_CARDS, F_CAPTIVE = (
    FIGURE_COLUMNS[name] for name in ("owner", "mine", "ships", "stone", "portraits", "cards", "captive")
)
F_FLAGS, F_MOVES, F_LOC, F_DUEL, F_VOTE, F_OFFER = (
    FIGURE_COLUMNS[name] for name in ("flags", "moves", "loc", "duel", "vote", "offer")
)


NOBODY: frozenset[int] = frozenset()


def on_board(
    status: Sequence[int], owner: Sequence[int], loc: Sequence[int], count: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The active figures (status 1) in one of the ``count`` galaxies: their ids, galaxies,
    colours (owners, at most the shadows' 4) and where each colour lands in a per-colour list
    (a negative one counts from the end, as a list index would)."""
    figs = [k for k, g in enumerate(loc) if status[k] == 1 and 0 <= g < count]
    gals = [loc[k] for k in figs]
    colours = [owner[k] for k in figs]
    if not figs or within(colours, 0, COLOURS - 1):
        return figs, gals, colours, colours
    colours = [min(int(c), COLOURS - 1) for c in colours]
    return figs, gals, colours, [c if c >= 0 else c + COLOURS for c in colours]


def rulers(
    count: int, rings: Counter[int], loose: dict[int, int], homes: Sequence[tuple[int, int]], alive: Sequence[int]
) -> list[int]:
    """Each galaxy's controlling colour (-1: nobody).  ``rings`` counts rings by ``galaxy *
    COLOURS + colour``, ``loose`` holds the colour of the loose ships in a galaxy, ``homes``
    pairs each Home Planet with its owner.

    The only colour with rings in a galaxy controls it; among several, the loose ships' colour
    if it is one of them (else nobody); with none, a Home Planet's living owner unless another
    colour's loose ships are there, else the loose ships' colour."""
    ruler = [-1] * count
    for g, colour in loose.items():
        ruler[g] = colour
    for g, owner in homes:
        if alive[owner] and ruler[g] in (-1, owner):
            ruler[g] = owner
    several: set[int] = set()
    held: dict[int, int] = {}
    for cell in rings:
        g, colour = divmod(cell, COLOURS)
        if g in held:
            several.add(g)
        held[g] = colour
    for g, colour in held.items():
        ruler[g] = colour
    for g in several:
        colour = loose.get(g, -1)
        ruler[g] = colour if 0 <= colour < COLOURS and g * COLOURS + colour in rings else -1
    return ruler


def battle_galaxies(pub: LordPublic) -> set[int]:
    """Galaxies where a Battle is due."""
    plan = pub.battle.plan if pub.battle else ()
    return {battle.galaxy for battle in plan if battle.status == 0}


class ShadowlordEncoder(ArrayEncoder[LordObservation]):
    """Encodes observations of one configured Shadowlord! game as one flat vector."""

    def __init__(self, game: Game[Any]) -> None:
        if not isinstance(game, ShadowlordGame):
            raise TypeError(f"the Shadowlord! encoder cannot encode {game.spec.id}")
        self.content = printed(game)
        self.seat_of: list[int] = [self.content.seat_of(c) for c in range(ALLIANCES)]
        self.players = game.players
        self.turn_cap = float(min(game.options.get("turn_cap") or TURN_SCALE, TURN_SCALE))
        self.timer_top = float(max(self.content.timer_notches, self.content.timer_every_turn_notches, 1))
        self.cells = [CELL_KINDS.index(k) if k in CELL_KINDS else 0 for k in self.content.cell_kind]
        self.fig_kind = [int(k) for k in self.content.fig_kind]
        super().__init__(game, self._layout())
        homes = list(self.content.home_of)
        self.home_owner = [homes.index(g) if g in homes else -1 for g in range(len(self.cells))]
        self.mine = {
            seat: frozenset(c for c in range(ALLIANCES) if self.seat_of[c] == seat) for seat in [None, *range(SEATS)]
        }
        self._index_colours()
        self._index_galaxies(homes)
        self._index_figures()

    def _index_colours(self) -> None:
        """Positions of the colour flags known from the configuration, and of the counts."""
        colours, seat_of = self.offsets["colours"], self.seat_of
        self.colour_ones = {  # in play; played by the seat
            seat: [
                colours + 4 * c + k
                for c in range(ALLIANCES)
                for k in (0, 1)
                if seat_of[c] >= 0 and (k == 0 or seat_of[c] == seat)
            ]
            for seat in [None, *range(SEATS)]
        }
        self.alive_at = [colours + 4 * c + 2 for c in range(ALLIANCES)]
        self.seat_out_at = [(colours + 4 * c + 3, seat_of[c]) for c in range(ALLIANCES) if seat_of[c] >= 0]
        cards, flags = self.offsets["cards"] + CARD_VALUES + SEATS, self.offsets["turn_flags"]
        self.count_at = [
            self.offsets["clock"],
            cards,
            cards + 1,
            flags + 1,
            flags + 2,
        ]  # turn, deck, discard, offers, pool
        self.count_tops = [self.turn_cap, DECK_SCALE, DECK_SCALE, 3.0, SHIP_SCALE]

    def _index_galaxies(self, homes: list[int]) -> None:
        """Where each galaxy's block and its columns start; the cell kinds (they never change)."""
        galaxies = self.offsets["galaxies"]
        self.galaxy_at = [galaxies + g * GALAXY_SIZE for g in range(min(len(self.cells), MAX_GALAXIES))]
        self.cell_ones = [at + cell for at, cell in zip(self.galaxy_at, self.cells, strict=False)]
        self.home_pairs = [(g, self.home_owner[g]) for g in sorted(set(homes)) if 0 <= g < len(self.galaxy_at)]
        self.control_at = [b + G_CONTROL + 1 for b in self.galaxy_at]  # where colour 0 goes; -1 just before
        self.ring_at = [b + G_RINGS + c for b in self.galaxy_at for c in range(COLOURS)]
        self.fleet_at = [b + G_SHIPS + c for b in self.galaxy_at for c in range(COLOURS)]
        self.kind_at = [b + G_KINDS + k for b in self.galaxy_at for k in range(2 * KINDS)]
        self.disc_at = [b + G_DISC for b in self.galaxy_at]

    def _index_figures(self) -> None:
        """Where each figure's block and its columns start."""
        figures = self.offsets["figures"]
        self.figure_at = [figures + f * FIGURE_SIZE for f in range(MAX_FIGURES)]
        self.owner_at = [b + F_OWNER + 1 for b in self.figure_at]  # one-hot+1: where owner 0 goes
        self.loc_at = [b + F_LOC + 1 for b in self.figure_at]
        self.mine_at = [b + F_MINE for b in self.figure_at]
        self.figure_of_key = {str(f): f for f in range(MAX_FIGURES)}
        columns = ((F_SHIPS, 6.0), (F_PORTRAITS, CARD_SCALE), (F_MOVES, MOVES_SCALE))
        self.figure_scaled_at = [b + column for column, _ in columns for b in self.figure_at]
        self.figure_tops = [top for _, top in columns for _ in self.figure_at]
        self.figure_columns = {column: [b + column for b in self.figure_at] for column, _ in columns}

    @staticmethod
    def _layout() -> list[tuple[str, int]]:
        nv = CARD_VALUES
        return [
            ("seat", SEATS),
            ("colours", ALLIANCES * 4),
            ("current_colour", ALLIANCES),
            ("pending", PENDING_SLOTS),
            ("pending_seat", SEATS + 1),
            ("event", EVENT_SLOTS),
            ("clock", 4),
            ("end_reason", len(END_REASONS)),
            ("winner", SEATS),
            ("cards", nv + SEATS + 2),
            ("discs_left", DISC_KINDS),
            ("supply", COLOURS),
            ("permissions", ALLIANCES * ALLIANCES),
            ("turn_flags", 3),
            ("galaxies", MAX_GALAXIES * GALAXY_SIZE),
            ("figures", MAX_FIGURES * FIGURE_SIZE),
            ("duel", 2 * nv + 2 + nv + 1),
            ("vote", len(VOTE_KINDS) + 2),
            ("offer", 2 * nv + 6),
        ]

    def collect(self, view: LordObservation, features: Features) -> None:
        self._colours(view, features)
        self._pending(view, features)
        self._counts(view, features)
        self._galaxies(view, features)
        self._figures(view, features)
        self._duel(view, features)
        self._vote(view, features)
        self._offer(view, features)

    def _colours(self, o: LordObservation, f: Features) -> None:
        """The seat; per colour: in play, this seat's, alive, its seat out of the game; the
        current colour and the winner."""
        at, pub, seat = self.offsets, o.public, o.seat
        f.one_hot(at["seat"], seat, SEATS)
        f.ones.extend(self.colour_ones.get(seat, self.colour_ones[None]))
        f.ones.extend(compress(self.alive_at, pub.alive[:ALLIANCES]))
        seat_out = pub.seat_out
        f.ones.extend([position for position, owner in self.seat_out_at if seat_out[owner]])
        for name, value in (("current_colour", pub.current_colour), ("winner", pub.winner)):
            index = shifted_slot(value, SEATS + 1)
            if index:
                f.ones.append(at[name] + index - 1)

    def _pending(self, o: LordObservation, f: Features) -> None:
        """The pending decision's kind (then: chance, game over), the seat to decide (last slot:
        nobody), the event drawn."""
        at, pending = self.offsets, o.pending
        kind = pending.kind or "over"
        over = o.public.end or kind == "over"
        f.ones.append(at["pending"] + (PENDING_SLOTS - 1 if over else DECISION_SLOT.get(kind, len(DECISION_KINDS))))
        seat = pending.seat
        if not (pending.kind in DECISION_SLOT and isinstance(seat, int) and 0 <= seat < SEATS):
            seat = SEATS  # nobody decides
        f.ones.append(at["pending_seat"] + seat)
        event = pending.data.get("event")
        if pending.kind == "choose_event_target" and isinstance(event, int):
            f.one_hot(at["event"], min(event, EVENT_SLOTS - 1), EVENT_SLOTS)

    def _counts(self, o: LordObservation, f: Features) -> None:
        """Clock, end reason, cards, discs, supply, permissions and this turn's flags."""
        at, pub = self.offsets, o.public
        timer = pub.timer
        counts = [pub.turn, pub.deck_count, pub.discard_count, pub.offers, pub.pool]
        f.scaled_tops(self.count_at, counts, self.count_tops)
        if timer >= 0:
            f.scaled(at["clock"] + 1, timer, self.timer_top)
        f.flag(at["clock"] + 2, timer < 0)
        f.flag(at["clock"] + 3, pub.first_round_turns > 0)
        f.flag(at["turn_flags"], pub.bribed)
        if pub.end in END_SLOT:
            f.ones.append(at["end_reason"] + END_SLOT[pub.end])
        hand = o.private.hand or (0,) * CARD_VALUES
        f.scaled_run(at["cards"], hand[:CARD_VALUES], CARD_SCALE)
        f.scaled_run(at["cards"] + CARD_VALUES, pub.hand_counts[:SEATS], HAND_SCALE)
        f.scaled_run(at["discs_left"], pub.bag[:DISC_KINDS], 4)
        f.scaled_run(at["supply"], pub.supply[:COLOURS], SUPPLY_SCALE)
        f.each_bits(at["permissions"], pub.permissions[:ALLIANCES], ALLIANCES)

    # -- the board ----------------------------------------------------------------------------
    def _galaxies(self, o: LordObservation, f: Features) -> None:
        """Per galaxy: cell kind, controlling colour, rings, ships and figure kinds by colour,
        loose ships, disc, Battle due, Truce."""
        pub = o.public
        at, kind_of = self.galaxy_at, self.fig_kind
        figs, gals, colours, slots = on_board(pub.status, pub.owner, pub.loc, len(at))
        cells = [g * COLOURS + c for g, c in zip(gals, slots, strict=True)]  # galaxy * COLOURS + colour
        rings = Counter(cells)
        f.scaled_each(map(self.ring_at.__getitem__, rings), rings.values(), RING_SCALE)
        weights = [pub.ships[k] for k in figs]
        fleet: dict[int, int] = {}
        for cell, ships in compress(zip(cells, weights, strict=True), weights):
            fleet[cell] = fleet.get(cell, 0) + ships
        f.scaled_each(map(self.fleet_at.__getitem__, fleet), fleet.values(), SHIP_SCALE)
        mine = self.mine.get(o.seat, NOBODY)  # kinds of this seat's figures first, then the others'
        kinds = Counter(
            [
                g * 2 * KINDS + kind_of[k] + (0 if c in mine else KINDS)
                for k, g, c in zip(figs, gals, colours, strict=True)
            ]
        )
        f.scaled_each(map(self.kind_at.__getitem__, kinds), kinds.values(), RING_SCALE)
        f.ones.extend(self.cell_ones)
        self._control(pub, rings, f)
        f.ones.extend(compress(self.disc_at, pub.disc))
        f.ones.extend([at[g] + G_DUE for g in battle_galaxies(pub) if 0 <= g < len(at)])
        truce = pub.truce
        if truce:
            f.ones.extend([base + G_TRUCE for g, base in enumerate(at) if truce >> g & 1])

    def _control(self, pub: LordPublic, rings: Counter[int], f: Features) -> None:
        """Each galaxy's controlling colour (one-hot+1) and loose ships."""
        at, loose_col, loose_n = self.galaxy_at, pub.loose_colour, pub.loose_count
        count = len(at)
        loose = {g: loose_col[g] for g in compress(range(count), loose_n[:count]) if loose_n[g] > 0}
        ruler = rulers(count, rings, loose, self.home_pairs, pub.alive)
        if within(ruler, -1, COLOURS - 1):
            f.ones.extend(map(add, self.control_at, ruler))
        else:
            f.ones.extend([p + min(COLOURS - 1, max(-1, r)) for p, r in zip(self.control_at, ruler, strict=True)])
        shown = [g for g, colour in loose.items() if 0 <= colour < COLOURS]
        f.scaled_each([at[g] + G_LOOSE + loose[g] for g in shown], [loose_n[g] for g in shown], LOOSE_SCALE)

    def _figures(self, o: LordObservation, f: Features) -> None:
        """Per figure: status, owner, ships, Power Stone, portrait cards, captivity, flags,
        moves, galaxy, its part in a Duel, a vote or an offer."""
        pub, ones = o.public, f.ones
        owner = pub.owner[:MAX_FIGURES]
        nf = len(owner)
        if not nf:
            return
        at = self.figure_at if nf == MAX_FIGURES else self.figure_at[:nf]
        self._figure_places(pub, owner, at, f)
        mine = self.mine.get(o.seat, NOBODY)
        if mine:
            ones.extend(compress(self.mine_at, map(mine.__contains__, owner)))
            captors = pub.captor
            if captors and max(captors) >= 0:  # any captive at all
                ones.extend([b + F_CAPTIVE for b, c in zip(at, captors, strict=False) if c >= 0 and owner[c] in mine])
        flags = pub.flags
        if any(flags):
            ones.extend([b + F_FLAGS + i for b, m in zip(at, flags, strict=False) if m for i in set_bits(m, FLAG_BITS)])
        self._figure_counts(o, nf, at, f)
        ones.extend([at[fig] + column for fig, column in self._figure_marks(pub) if fig in range(nf)])

    def _figure_places(self, pub: LordPublic, owner: Sequence[int], at: Sequence[int], f: Features) -> None:
        """Each figure's status, owner (one-hot+1) and galaxy (one-hot+1)."""
        nf, ones, status, loc = len(owner), f.ones, pub.status, pub.loc
        if within(status, 0, STATUSES - 1) and within(owner, -1, COLOURS - 1) and within(loc, -1, MAX_GALAXIES - 1):
            ones.extend(map(add, at, status))  # one-hots (one-hot+1: the slot of 0 precomputed)
            ones.extend(map(add, self.owner_at, owner))
            ones.extend(map(add, self.loc_at, loc))
        else:
            ones.extend([b + min(max(s, 0), STATUSES - 1) for b, s in zip(at, status, strict=False)])
            f.each_shifted(at[0] + F_OWNER, [min(x, COLOURS - 1) for x in owner], COLOURS + 1, FIGURE_SIZE)
            f.each_shifted(at[0] + F_LOC, loc[:nf], MAX_GALAXIES + 1, FIGURE_SIZE)

    def _figure_counts(self, o: LordObservation, nf: int, at: Sequence[int], f: Features) -> None:
        """Each figure's ships, portrait card count and moves, and the cards under this seat's
        portraits."""
        pub = o.public
        ships, portraits, moves = pub.ships, pub.portrait_counts, pub.moves
        if len(ships) == len(portraits) == len(moves) == nf == MAX_FIGURES:
            f.scaled_tops(self.figure_scaled_at, ships + portraits + moves, self.figure_tops)
        else:
            columns = self.figure_columns
            f.scaled_each(columns[F_SHIPS][:nf], ships[:nf], 6.0)
            f.scaled_each(columns[F_PORTRAITS][:nf], portraits[:nf], CARD_SCALE)
            f.scaled_each(columns[F_MOVES][:nf], moves[:nf], MOVES_SCALE)
        for key, cards in o.private.portraits.items():
            fig = self.figure_of_key.get(key)
            if fig is not None and fig < nf and cards:
                f.scaled_run(at[fig] + F_CARDS, cards[:CARD_VALUES], CARD_SCALE)

    @staticmethod
    def _figure_marks(pub: LordPublic) -> list[tuple[int, int]]:
        """(figure, column) of the Power Stone's holder, the vote's subject, the Duel's sides and
        the figures in the offer."""
        duel = pub.battle.duel if pub.battle else None
        marks = [(pub.stone, F_STONE)]
        if pub.vote:
            marks.append((pub.vote.subject, F_VOTE))
        marks += [(fig, F_DUEL + side) for side, fig in enumerate((duel.figures if duel else ())[:2])]
        if pub.offer:
            marks += [(fig, F_OFFER) for fig in {*pub.offer.characters, *pub.offer.release}]
        return marks

    # -- Battle, vote, offer ------------------------------------------------------------------
    def _duel(self, o: LordObservation, f: Features) -> None:
        """Cards drawn by each side (by value), cards committed by each side, own commitment."""
        base = self.offsets["duel"]
        duel = o.public.battle.duel if o.public.battle else None
        commits = o.private.commit or (None, None)
        if not duel and not any(commits):
            return  # all zeros
        drawn = (duel.drawn if duel else ()) or ((), ())
        counts = (duel.count if duel else ()) or (0, 0)
        for side in (0, 1):
            per_value = [0] * CARD_VALUES
            for v in drawn[side] if side < len(drawn) else ():
                if 0 <= v < CARD_VALUES:
                    per_value[v] += 1
            f.scaled_run(base + side * CARD_VALUES, per_value, 3)
        f.scaled(base + 2 * CARD_VALUES, counts[0], CARD_SCALE)
        f.scaled(base + 2 * CARD_VALUES + 1, counts[1], CARD_SCALE)
        own = next((c for c in commits if c), None) or (0,) * CARD_VALUES
        f.scaled_run(base + 2 * CARD_VALUES + 2, own[:CARD_VALUES], CARD_SCALE)
        f.flag(base + 3 * CARD_VALUES + 2, duel)

    def _vote(self, o: LordObservation, f: Features) -> None:
        """Vote kind, own vote cast (and whether it was yes)."""
        base, seat, vote = self.offsets["vote"], o.seat, o.public.vote
        if not vote:
            return  # all zeros
        f.ones.extend([base + k for k, name in enumerate(VOTE_KINDS) if vote.kind == name])
        votes = vote.votes
        own = votes[seat] if isinstance(seat, int) and seat < len(votes) else -1
        f.flag(base + len(VOTE_KINDS), own in (0, 1))
        f.flag(base + len(VOTE_KINDS) + 1, own == 1)

    def _offer(self, o: LordObservation, f: Features) -> None:
        """The open offer: cards given and wanted, from/to this seat, permissions, Truces."""
        base, seat, offer = self.offsets["offer"], o.seat, o.public.offer
        if not offer:
            return  # all zeros
        f.scaled_run(base, offer.give[:CARD_VALUES], 4)
        f.scaled_run(base + CARD_VALUES, offer.want[:CARD_VALUES], 4)
        base += 2 * CARD_VALUES
        f.flag(base, offer.sender == seat)
        f.flag(base + 1, offer.receiver == seat)
        f.flag(base + 2, offer.permission_give)
        f.flag(base + 3, offer.permission_want)
        f.scaled(base + 4, len(offer.truce), 4)
        f.flag(base + 5, offer)
