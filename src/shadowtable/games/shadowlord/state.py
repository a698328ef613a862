"""The compact mutable state of a Shadowlord! game and its JSON form.

``apply`` copies a state and mutates the copy, so the copy must be cheap: flat lists of ints,
a stack of typed tasks (frozen, shared between copies; see :mod:`.tasks`) and three small typed
parts, each with its ``copy``: the turn's :class:`Battle`, the :class:`Ballot` being voted on and
the :class:`Offer` being made.  Their JSON is that of the dicts they replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from shadowtable.core.errors import StateFormatError
from shadowtable.core.events import Event
from shadowtable.core.kernel import Task

BAG, ACTIVE, CAPTIVE, REMOVED = range(4)
STATUS_NAMES = ("bag", "active", "captive", "removed")
BLACK = 4
NOBODY = -1

STOPPED = 1  # may not move further this turn
NO_MOVE = 2  # enlisted this turn: may not move at all
STARTED = 4  # has moved at least one galaxy this turn
SEARCHED = 8  # has searched for allies this turn
FREED = 16  # revealed by an event this turn: may move once given ships
MUST_LEAVE = 32  # a traitor next to enemies protected by a Diplomat: must move away this turn

LIST_FIELDS = (
    "owner",
    "loc",
    "status",
    "ships",
    "captor",
    "moves",
    "flags",
    "adjust",
    "pcards",
    "loose_col",
    "loose_n",
    "disc",
    "bag",
    "deck",
    "discard",
    "hand",
    "supply",
    "boxed",
    "alive",
    "perm",
    "seat_out",
)
INT_FIELDS = (
    "stone",
    "stone_passes",
    "timer",
    "cur",
    "turn",
    "first_round_turns",
    "bribed",
    "offers",
    "truce",
    "shadow_ctl",
    "winner",
    "steps_turn",
    "pool",
    "first_seat",
    "roll",
    "announced",
)
SUMMARY_FIELDS = ("last_duel", "last_vote")
"""The public summaries of the last Duel and the last closed vote (never mutated: shared by copies)."""


def clone(value: Any) -> Any:
    """Copy nested dicts and lists of plain values (tuples are immutable and shared)."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def _ints(data: Mapping[str, Any], name: str) -> list[int]:
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise StateFormatError(f"shadowlord state field {name!r} must be a list of ints")
    return list(value)


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(f"shadowlord state field {name!r} must be an int")
    return value


@dataclass(slots=True)
class PlannedBattle:
    """One Battle of the turn's plan: where, the attacking and defending colours, its kind
    (``normal``, ``loose``, ``fort``) and its status (0 due, 1 off, 2 fought)."""

    galaxy: int
    attacker: int
    defender: int
    kind: str
    status: int

    def copy(self) -> PlannedBattle:
        return PlannedBattle(self.galaxy, self.attacker, self.defender, self.kind, self.status)

    def to_json(self) -> list[Any]:
        """``[galaxy, attacker, defender, kind, status]``."""
        return [self.galaxy, self.attacker, self.defender, self.kind, self.status]

    @staticmethod
    def from_json(data: Any) -> PlannedBattle:
        if not isinstance(data, list) or len(data) != 5 or not isinstance(data[3], str):
            raise StateFormatError("shadowlord battle plan entries must be [galaxy, attacker, defender, kind, status]")
        return PlannedBattle(int(data[0]), int(data[1]), int(data[2]), data[3], int(data[4]))


@dataclass(slots=True)
class Duel:
    """A Duel of Battle ``battle`` between ``figures`` (attacker, defender): per side the cards
    drawn face up (value indices), the cards committed face down (a count per value) and how
    many were committed."""

    battle: int
    figures: list[int]
    drawn: list[list[int]]
    committed: list[list[int]]
    count: list[int]

    def copy(self) -> Duel:
        drawn, committed = self.drawn, self.committed
        return Duel(
            self.battle, self.figures[:], [drawn[0][:], drawn[1][:]], [committed[0][:], committed[1][:]], self.count[:]
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "idx": self.battle,
            "figs": self.figures[:],
            "drawn": [side[:] for side in self.drawn],
            "commit": [side[:] for side in self.committed],
            "count": self.count[:],
        }

    @staticmethod
    def from_json(data: Any) -> Duel:
        if not isinstance(data, Mapping):
            raise StateFormatError("a shadowlord duel must be an object")
        try:
            return Duel(
                _int(data, "idx"),
                _ints(data, "figs"),
                [list(side) for side in data["drawn"]],
                [list(side) for side in data["commit"]],
                _ints(data, "count"),
            )
        except (KeyError, TypeError) as exc:
            raise StateFormatError(f"bad shadowlord duel: {exc}") from exc


@dataclass(slots=True)
class Battle:
    """Step 6 of the current turn: the plan (one :class:`PlannedBattle` each), the allies sent to
    each side of each Battle (``allies[battle][side]``), the Duel being prepared, the prepared
    Duels waiting to be resolved, and the last Duel resolved (its public summary, never
    mutated)."""

    plan: list[PlannedBattle]
    allies: list[list[list[int]]]
    queue: list[int]
    duel: Duel | None
    ready: list[Duel]
    last: dict[str, Any] | None

    def copy(self) -> Battle:
        duel = self.duel
        return Battle(
            [entry.copy() for entry in self.plan],
            [[pair[0][:], pair[1][:]] for pair in self.allies],
            self.queue[:],
            None if duel is None else duel.copy(),
            [d.copy() for d in self.ready],
            self.last,
        )

    def to_json(self) -> dict[str, Any]:
        duel = self.duel
        return {
            "plan": [entry.to_json() for entry in self.plan],
            "allies": [[pair[0][:], pair[1][:]] for pair in self.allies],
            "queue": self.queue[:],
            "duel": None if duel is None else duel.to_json(),
            "ready": [d.to_json() for d in self.ready],
            "last": clone(self.last),
        }

    @staticmethod
    def from_json(data: Any) -> Battle:
        if not isinstance(data, Mapping):
            raise StateFormatError("shadowlord state field 'battle' must be an object or null")
        try:
            duel = data["duel"]
            return Battle(
                [PlannedBattle.from_json(entry) for entry in data["plan"]],
                [[list(pair[0]), list(pair[1])] for pair in data["allies"]],
                list(data["queue"]),
                None if duel is None else Duel.from_json(duel),
                [Duel.from_json(d) for d in data.get("ready", [])],
                clone(data["last"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise StateFormatError(f"bad shadowlord battle: {exc}") from exc


@dataclass(slots=True)
class Ballot:
    """A motion put to the vote: what (``motion``), about whom (``subject``, a figure or a
    seat), where a moved shadow came from (``origin``), the seats that vote and each seat's
    vote (-1 not cast, 0 no, 1 yes)."""

    motion: str
    subject: int
    origin: int
    voters: list[int]
    votes: list[int]

    def copy(self) -> Ballot:
        return Ballot(self.motion, self.subject, self.origin, self.voters[:], self.votes[:])

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.motion,
            "a": self.subject,
            "b": self.origin,
            "voters": self.voters[:],
            "votes": self.votes[:],
        }

    @staticmethod
    def from_json(data: Any) -> Ballot:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise StateFormatError("shadowlord state field 'vote' must be an object with a 'kind' or null")
        try:
            return Ballot(data["kind"], _int(data, "a"), _int(data, "b"), _ints(data, "voters"), _ints(data, "votes"))
        except KeyError as exc:
            raise StateFormatError(f"bad shadowlord vote: {exc}") from exc


@dataclass(slots=True)
class Offer:
    """An offer being made: from seat ``made_by`` to seat ``to``; Power Cards given (held in
    escrow) and wanted (a count per value), characters traded, captives released, Space Ships
    given (one figure id per ship), permissions given and asked (0 or 1), Truces (galaxies),
    and the number of items."""

    made_by: int
    to: int
    give: list[int]
    want: list[int]
    characters: list[int]
    release: list[int]
    ships: list[int]
    permission_give: int
    permission_want: int
    truce: list[int]
    items: int

    def copy(self) -> Offer:
        return Offer(
            self.made_by,
            self.to,
            self.give[:],
            self.want[:],
            self.characters[:],
            self.release[:],
            self.ships[:],
            self.permission_give,
            self.permission_want,
            self.truce[:],
            self.items,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.made_by,
            "to": self.to,
            "give": self.give[:],
            "want": self.want[:],
            "chars": self.characters[:],
            "release": self.release[:],
            "ships": self.ships[:],
            "perm_give": self.permission_give,
            "perm_want": self.permission_want,
            "truce": self.truce[:],
            "items": self.items,
        }

    @staticmethod
    def from_json(data: Any) -> Offer:
        if not isinstance(data, Mapping):
            raise StateFormatError("shadowlord state field 'offer' must be an object or null")
        try:
            return Offer(
                _int(data, "from"),
                _int(data, "to"),
                _ints(data, "give"),
                _ints(data, "want"),
                _ints(data, "chars"),
                _ints(data, "release"),
                _ints(data, "ships"),
                _int(data, "perm_give"),
                _int(data, "perm_want"),
                _ints(data, "truce"),
                _int(data, "items"),
            )
        except KeyError as exc:
            raise StateFormatError(f"bad shadowlord offer: {exc}") from exc


def new_offer(made_by: int, to: int, values: int) -> Offer:
    """An empty offer from ``made_by`` to ``to`` (``values``: the number of Power Card values)."""
    return Offer(made_by, to, [0] * values, [0] * values, [], [], [], 0, 0, [], 0)


class State:
    """Everything about one moment of a game; see ``docs/games/shadowlord.md``."""

    __slots__ = (
        *LIST_FIELDS,
        *INT_FIELDS,
        *SUMMARY_FIELDS,
        "battle",
        "vote",
        "offer",
        "stack",
        "end",
        "legal",
        "journal",
        "at",
    )

    owner: list[int]
    loc: list[int]
    status: list[int]
    ships: list[int]
    captor: list[int]
    moves: list[int]
    flags: list[int]
    adjust: list[int]
    pcards: list[int]
    loose_col: list[int]
    loose_n: list[int]
    disc: list[int]
    bag: list[int]
    deck: list[int]
    discard: list[int]
    hand: list[int]
    supply: list[int]
    boxed: list[int]
    alive: list[int]
    perm: list[int]
    seat_out: list[int]
    journal: list[Event] | None  # events of the action being carried out (None: not recording)
    stone: int
    stone_passes: int
    timer: int
    cur: int
    turn: int
    first_round_turns: int
    bribed: int
    offers: int
    truce: int
    shadow_ctl: int
    winner: int
    steps_turn: int
    pool: int
    first_seat: int
    last_duel: dict[str, Any] | None  # the last Duel resolved (figures, totals, winner, cards), public
    announced: int  # the last decision every seat read in full (narration.public_action), -1: none
    roll: int  # the last die roll or face-up draw, public to all (-1: none yet)
    battle: Battle | None  # Step 6 of the current turn
    vote: Ballot | None  # the motion being voted on
    last_vote: dict[str, Any] | None  # the last closed vote with every cast vote (each seat sees its own)
    offer: Offer | None  # the offer being made
    stack: list[Task]
    end: str
    legal: list[int] | None
    """The legal actions, listed by ``apply`` into the new state it builds (never into a
    caller's state; never serialised): states are not changed once ``apply`` returns them, so
    the list stays valid.  Code that edits a state by hand (scenario tests) resets it."""
    at: list[int] | None
    """The occupancy index: for each galaxy, a bitmask of the figures in it (``loc``), built
    when first asked for (:func:`shadowtable.games.shadowlord.board.figs_at`), then kept by
    :func:`~shadowtable.games.shadowlord.board.place`; ``None``: not built.  Never serialised;
    code that sets ``loc`` by hand (scenario tests) resets it, or uses ``place``."""

    def copy(self) -> State:
        """A deep-enough copy: lists copied, tasks (frozen) shared, small dicts cloned."""
        new = State.__new__(State)
        new.journal = None
        new.owner, new.loc, new.status, new.ships = self.owner[:], self.loc[:], self.status[:], self.ships[:]
        new.captor, new.moves, new.flags, new.adjust = self.captor[:], self.moves[:], self.flags[:], self.adjust[:]
        new.pcards, new.loose_col, new.loose_n, new.disc = (
            self.pcards[:],
            self.loose_col[:],
            self.loose_n[:],
            self.disc[:],
        )
        new.bag, new.deck, new.discard, new.hand = self.bag[:], self.deck[:], self.discard[:], self.hand[:]
        new.supply, new.boxed, new.alive, new.perm = self.supply[:], self.boxed[:], self.alive[:], self.perm[:]
        new.seat_out = self.seat_out[:]
        new.stone, new.stone_passes, new.timer, new.cur = self.stone, self.stone_passes, self.timer, self.cur
        new.turn, new.first_round_turns, new.bribed = self.turn, self.first_round_turns, self.bribed
        new.offers, new.truce, new.shadow_ctl, new.winner = self.offers, self.truce, self.shadow_ctl, self.winner
        new.steps_turn, new.pool, new.first_seat = self.steps_turn, self.pool, self.first_seat
        new.roll, new.announced = self.roll, self.announced
        new.last_duel = self.last_duel  # never mutated: shared
        new.last_vote = self.last_vote  # never mutated: shared
        battle, vote, offer = self.battle, self.vote, self.offer
        new.battle = None if battle is None else battle.copy()
        new.vote = None if vote is None else vote.copy()
        new.offer = None if offer is None else offer.copy()
        new.stack = self.stack[:]
        new.end = self.end
        new.legal = None
        at = self.at
        new.at = None if at is None else at[:]
        return new


def state_to_json(state: State) -> dict[str, Any]:
    """The full state as JSON data (each task as ``Task.to_json()``)."""
    data: dict[str, Any] = {name: list(getattr(state, name)) for name in LIST_FIELDS}
    data.update({name: getattr(state, name) for name in INT_FIELDS})
    data.update({name: clone(getattr(state, name)) for name in SUMMARY_FIELDS})
    battle, vote, offer = state.battle, state.vote, state.offer
    data["battle"] = None if battle is None else battle.to_json()
    data["vote"] = None if vote is None else vote.to_json()
    data["offer"] = None if offer is None else offer.to_json()
    data["stack"] = [task.to_json() for task in state.stack]
    data["end"] = state.end
    return data


def state_from_json(data: Mapping[str, Any], task_from_json: Callable[[Mapping[str, Any]], Task]) -> State:
    """Rebuild a state (``task_from_json``: the rulebook's); raises :class:`StateFormatError`
    naming the bad field."""
    if not isinstance(data, Mapping):
        raise StateFormatError("shadowlord state must be a JSON object")
    state = State.__new__(State)
    state.journal = None
    for name in LIST_FIELDS:
        value = data.get(name)
        if not isinstance(value, list):
            raise StateFormatError(f"shadowlord state field {name!r} must be a list")
        setattr(state, name, list(value))
    for name in INT_FIELDS:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise StateFormatError(f"shadowlord state field {name!r} must be an int")
        setattr(state, name, value)
    for name in SUMMARY_FIELDS:
        value = data.get(name)
        if value is not None and not isinstance(value, dict):
            raise StateFormatError(f"shadowlord state field {name!r} must be an object or null")
        setattr(state, name, clone(value) if value is not None else None)
    battle, vote, offer = data.get("battle"), data.get("vote"), data.get("offer")
    state.battle = None if battle is None else Battle.from_json(battle)
    state.vote = None if vote is None else Ballot.from_json(vote)
    state.offer = None if offer is None else Offer.from_json(offer)
    stack = data.get("stack")
    if not isinstance(stack, list) or not all(isinstance(t, Mapping) for t in stack):
        raise StateFormatError("shadowlord state field 'stack' must be a list of tasks")
    state.stack = [task_from_json(task) for task in stack]
    end = data.get("end")
    if not isinstance(end, str):
        raise StateFormatError("shadowlord state field 'end' must be a string")
    state.end = end
    state.legal = None
    state.at = None
    return state
