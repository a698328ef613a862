"""The compact mutable state of a Shadowlord! game and its JSON form.

``apply`` copies a state and mutates the copy, so the copy must be cheap: flat lists of ints,
a stack of typed tasks (frozen, shared between copies; see :mod:`.tasks`) and three small dicts
(battle, vote, offer) that :func:`clone` copies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
DICT_FIELDS = ("battle", "vote", "offer", "last_duel", "last_vote")


def clone(value: Any) -> Any:
    """Copy nested dicts and lists of plain values (tuples are immutable and shared)."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def _copy_flat(data: dict[str, Any]) -> dict[str, Any]:
    """Copy a dict whose values are ints or lists of ints (votes, offers)."""
    return {k: v[:] if isinstance(v, list) else v for k, v in data.items()}


def _copy_duel(duel: dict[str, Any]) -> dict[str, Any]:
    return {
        "idx": duel["idx"],
        "figs": duel["figs"][:],
        "drawn": [duel["drawn"][0][:], duel["drawn"][1][:]],
        "commit": [duel["commit"][0][:], duel["commit"][1][:]],
        "count": duel["count"][:],
    }


def copy_battle(battle: dict[str, Any]) -> dict[str, Any]:
    """A copy of the battle plan sharing what is never mutated (the last Duel's summary)."""
    return {
        "plan": [entry[:] for entry in battle["plan"]],
        "allies": [[pair[0][:], pair[1][:]] for pair in battle["allies"]],
        "queue": battle["queue"][:],
        "duel": None if battle["duel"] is None else _copy_duel(battle["duel"]),
        "ready": [_copy_duel(duel) for duel in battle.get("ready", [])],
        "last": battle["last"],
    }


class State:
    """Everything about one moment of a game; see ``docs/games/shadowlord.md``."""

    __slots__ = (*LIST_FIELDS, *INT_FIELDS, *DICT_FIELDS, "stack", "end", "legal", "journal", "at")

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
    battle: dict[str, Any] | None
    vote: dict[str, Any] | None
    last_vote: dict[str, Any] | None  # the last closed vote with every cast vote (each seat sees its own)
    offer: dict[str, Any] | None
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
        new.battle = copy_battle(self.battle) if self.battle is not None else None
        new.vote = _copy_flat(self.vote) if self.vote is not None else None
        new.offer = _copy_flat(self.offer) if self.offer is not None else None
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
    data.update({name: clone(getattr(state, name)) for name in DICT_FIELDS})
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
    for name in DICT_FIELDS:
        value = data.get(name)
        if value is not None and not isinstance(value, dict):
            raise StateFormatError(f"shadowlord state field {name!r} must be an object or null")
        setattr(state, name, clone(value) if value is not None else None)
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
