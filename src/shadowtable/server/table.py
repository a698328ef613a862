"""A table in memory, in parts: its stored fields, its live game, its timers and its sockets.

:class:`Table` composes them; what a table is called by (``id``, ``status``, ``seats``, ...) reads
through to the part that holds it.  The functions below describe a table (public info, seat names,
the finished record) and read nothing but the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.undo import UNDO_SEAT, undo_metadata
from shadowtable.core.wording import NamedResult, SeatNames, bot_name
from shadowtable.server.bot_levels import LEVELS
from shadowtable.server.connections import Connection
from shadowtable.server.live import LiveTable
from shadowtable.server.names import default_name
from shadowtable.server.reservations import Reservation
from shadowtable.server.viewcache import ViewCache


class StoredClock(TypedDict):
    """A table's clock as stored: each human seat's starting time and its bonus per decision
    (milliseconds), and what happens when a seat runs out (``bot`` or ``skip``)."""

    initial_ms: int
    bonus_ms: int
    on_timeout: str


class TurnRules(TypedDict):
    """A turn-based table's rules, stored as the client gives them: each decision's time and the
    seat's reserve (whole seconds), what happens when both run out (``bot`` or ``skip``) and the
    most days of vacation each seat may take."""

    move_s: int
    reserve_s: int
    on_timeout: str
    vacation_days: int


REALTIME, TURN_BASED = "realtime", "turn-based"
"""A table's modes: played in one sitting, or over days (its :class:`TurnRules`)."""


class PublicClock(TypedDict):
    """A table's clock as a client gives it (whole seconds)."""

    initial_s: int
    bonus_s: int
    on_timeout: str


class SeatInfo(TypedDict):
    """What anyone may know of a seat."""

    seat: int
    kind: str
    bot: str | None
    name: str
    taken: bool
    bot_playing: bool
    vacated: bool
    reserved_until: float | None
    """While a rematch keeps the seat for the player who held it in the finished game: until when."""


class ChatLine(TypedDict):
    """A chat line as it is shown."""

    seat: int
    name: str
    text: str
    at: float


SeatRow = tuple[str, str | None, str | None, str | None, bool, int | None, str | None]
"""A seat's stored fields: kind, bot, name, key hash, zombie, clock (ms), left hash."""


@dataclass
class Seat:
    """A seat of a table as stored."""

    kind: str  # human | bot
    bot: str | None
    name: str | None
    key_hash: str | None
    zombie: bool = False
    clock_ms: int | None = None
    left_hash: str | None = None
    """The key hash of the player who left this seat in play: only their token takes it back."""
    reserved: Reservation | None = None
    """A rematch keeps the seat for the player who held it in the finished game (until it ends)."""
    deadline: float | None = None
    """Turn-based: the wall-clock time the seat's decision in progress runs out (``None``: none runs)."""
    reserve_ms: int | None = None
    """Turn-based: what is left of the seat's reserve (used once a decision's own time is spent)."""
    away_until: float | None = None
    """Turn-based: the seat's vacation ends then (its clock does not run before)."""
    away_used_s: float = 0.0
    """Turn-based: the vacation the seat has taken at this table (bounded by the table's rules)."""

    @property
    def taken(self) -> bool:
        """Held by a bot, by a key, or played by a bot for someone (a vacated seat is not free)."""
        return self.kind == "bot" or self.key_hash is not None or self.zombie

    @property
    def vacated(self) -> bool:
        """Left by its player in play: a bot plays it until that player or an invited one takes it."""
        return self.kind == "human" and self.key_hash is None and self.zombie

    def kept_until(self, now: float) -> float | None:
        """Until when a rematch keeps this free seat for its former holder (``None``: it does not)."""
        reserved = self.reserved
        return reserved.until if reserved is not None and not self.taken and reserved.live(now) else None

    def row(self) -> SeatRow:
        """The stored fields, in the order :meth:`from_row` reads them."""
        return (self.kind, self.bot, self.name, self.key_hash, self.zombie, self.clock_ms, self.left_hash)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        """The seat a ``seats`` row holds."""
        fields = ("kind", "bot", "name", "key_hash", "zombie", "clock_ms", "left_hash")
        kind, bot, name, key, zombie, clock_ms, left = (row[name] for name in fields)
        until = row.get("reserved_until")
        reserved = None if until is None else Reservation(row.get("reserved_hash"), row.get("reserved_account"), until)
        seat = cls(kind, bot, name, key, bool(zombie), clock_ms, left, reserved)
        seat.set_turn_fields(row)
        return seat

    def turn_fields(self) -> dict[str, Any]:
        """The stored fields of a turn-based table's seat clock."""
        return {
            "deadline": self.deadline,
            "reserve_ms": self.reserve_ms,
            "away_until": self.away_until,
            "away_used_s": self.away_used_s,
        }

    def set_turn_fields(self, row: dict[str, Any]) -> None:
        """Take the turn-based clock fields of a ``seats`` row."""
        self.deadline, self.reserve_ms = row.get("deadline"), row.get("reserve_ms")
        self.away_until, self.away_used_s = row.get("away_until"), float(row.get("away_used_s") or 0.0)


BOT_PACES = {"instant": 0.0, "quick": 0.15, "relaxed": 0.8}
"""The bot paces a table may choose: the seconds its bots wait before each move."""


@dataclass
class StoredTable:
    """A table's fields as the database holds them (its ``tables``, ``seats`` and ``chat`` rows)."""

    id: str
    status: str  # open | playing | over
    clock: StoredClock | None
    listed: bool
    created_at: float
    seats: list[Seat]
    returns: list[float] | None = None
    rematch: str | None = None
    host_seat: int | None = None
    """The creator's seat: its holder may invite someone to a vacated seat."""
    chat: list[ChatLine] = field(default_factory=list)
    pace: str | None = None
    """The bots' pace (a key of :data:`BOT_PACES`); ``None``: the server's default delay."""
    undo: bool = False
    """Whether a seat may take back its last decisions while they revealed nothing."""
    turn: TurnRules | None = None
    """A turn-based table's rules (``None``: a real-time table)."""

    @property
    def mode(self) -> str:
        """:data:`TURN_BASED` or :data:`REALTIME`."""
        return REALTIME if self.turn is None else TURN_BASED

    def bot_delay_s(self, default: float) -> float:
        """The seconds this table's bots wait before each move (``default`` without a pace; none
        at a turn-based table: its bots act at once)."""
        if self.turn is not None:
            return 0.0
        return default if self.pace is None else BOT_PACES[self.pace]


@dataclass
class LiveGame:
    """The game in play: its rules, the replayed log with its channels, the acknowledged act ids
    and the views built for its current version."""

    game: Game[Any]
    live: LiveTable
    acked: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    """Acknowledged act ids: (seat, id) -> (turn, action) of the decision it made."""
    views: ViewCache = field(default_factory=ViewCache)


@dataclass
class TableTimers:
    """What runs by itself at a table: the bot's move, the decision's clock, the away periods."""

    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    clock_for: tuple[int, int] | None = None
    """The decision (seat, steps stored) whose clock runs."""
    turn_started: float = 0.0
    skip_once: tuple[int, int] | None = None
    """A decision a bot makes once for a human whose clock ran out (``skip`` policy)."""
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    fast_forward: bool = False
    """Bots move without the table's pace delay (a seated player asked) until a person decides."""
    now: Callable[[], float] = time.time
    """The wall clock turn-based deadlines are read against (the server's ``now``)."""
    announced: tuple[int, ...] | None = None
    """The seats last announced as deciding (:meth:`TableService.after_change`); ``None``: not yet."""
    hurry: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while the bots fast-forward: it cuts short the pace delay a bot is waiting."""

    def set_fast_forward(self, on: bool) -> None:
        """Start (``on``) or stop fast-forwarding the bots."""
        self.fast_forward = on
        if on:
            self.hurry.set()
        else:
            self.hurry.clear()

    async def pace(self, seconds: float) -> None:
        """Wait the bots' pace delay, or less if a fast-forward starts meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.hurry.wait(), seconds)

    def cancel(self, *, bot: bool = True) -> None:
        """Stop the clock, the away periods and (``bot``) the bot's move."""
        for task in [self.bot_task if bot else None, self.clock_task, *self.away.values()]:
            if task is not None:
                task.cancel()


@dataclass
class TableSockets:
    """Who is connected: this process's sockets and, as last heard, the other processes' seats."""

    connections: set[Connection] = field(default_factory=set)
    remote: dict[str, tuple[float, frozenset[int]]] = field(default_factory=dict)
    """Seats connected to other processes: process id -> (valid until, seats)."""
    owned: bool = True
    """Whether this process runs the table's bots, clocks and takeovers (always, in one process)."""


@dataclass
class Table:
    """A table in memory: its stored fields, its live game, its timers and who is connected."""

    stored: StoredTable
    play: LiveGame
    timers: TableTimers = field(default_factory=TableTimers)
    sockets: TableSockets = field(default_factory=TableSockets)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Every change of the table is worked out and stored under it (one writer per table)."""

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def status(self) -> str:
        return self.stored.status

    @property
    def seats(self) -> list[Seat]:
        return self.stored.seats

    @property
    def host_seat(self) -> int | None:
        return self.stored.host_seat

    @property
    def game(self) -> Game[Any]:
        return self.play.game

    @property
    def live(self) -> LiveTable:
        return self.play.live

    @property
    def connections(self) -> set[Connection]:
        return self.sockets.connections

    @property
    def steps(self) -> int:
        """How many rows the table's log stores (the table's version): actions, undone ones and
        undo rows."""
        return self.play.live.logged


def seat_name(index: int, seat: Seat) -> str:
    """The name a seat is shown under: a bot's by its seat and level (``Brook (ISMCTS bot)``)."""
    if seat.kind == "bot":
        named = (seat.bot or "bot").partition(":")[0]  # a level, or the operator's bot spec
        level = LEVELS.get(named)
        return bot_name(index, level.shown if level is not None else named)
    return seat.name or default_name(index)


def seat_info(index: int, seat: Seat, now: float | None = None) -> SeatInfo:
    """What anyone may know of a seat (at ``now``: whether a rematch still keeps it)."""
    return {
        "seat": index,
        "kind": seat.kind,
        "bot": seat.bot,
        "name": seat_name(index, seat),
        "taken": seat.taken,
        "bot_playing": seat.kind == "bot" or seat.zombie,
        "vacated": seat.vacated,
        "reserved_until": seat.kept_until(time.time() if now is None else now),
    }


def public_clock(clock: StoredClock) -> PublicClock:
    """A stored clock as a client gives it (seconds)."""
    return PublicClock(
        initial_s=clock["initial_ms"] // 1000, bonus_s=clock["bonus_ms"] // 1000, on_timeout=clock["on_timeout"]
    )


def info(table: Table) -> dict[str, Any]:
    """What anyone may know of a table: the lobby's and the REST API's description."""
    stored, game = table.stored, table.game
    return {
        "id": stored.id,
        "game": game.spec.id,
        "version": game.spec.version,
        "players": game.players,
        "options": game.options,
        "status": stored.status,
        "listed": stored.listed,
        "clock": None if stored.clock is None else public_clock(stored.clock),
        "seats": [seat_info(i, seat) for i, seat in enumerate(stored.seats)],
        "created_at": stored.created_at,
        "returns": stored.returns,
        "rematch": stored.rematch,
        "host_seat": stored.host_seat,
        "pace": stored.pace,
        "undo": stored.undo,
        "mode": stored.mode,
        "turn": stored.turn,
    }


def chat_message(seat: int, seats: list[Seat], text: str, at: float) -> ChatLine:
    """A chat line as it is shown."""
    return {"seat": seat, "name": seat_name(seat, seats[seat]), "text": text, "at": at}


def finished_record(table: Table) -> GameRecord:
    """The full record of a finished table: every action, no seed (the draws came from the OS)."""
    game, state = table.game, table.live.state
    return GameRecord(
        game=game.spec.id,
        version=game.spec.version,
        players=game.players,
        options=dict(game.options),
        seats=[seat_name(i, seat) for i, seat in enumerate(table.seats)],
        actions=table.live.actions,
        seed=None,
        returns=list(game.returns(state)),
        truncated=False,
        metadata={"table": table.id, **game.summary(state), **undo_metadata(table.live.undos)},
    )


def person_decides(table: Table) -> bool:
    """Whether a seated person (not a bot, nor a bot playing for an away player) decides now."""
    player = table.game.current_player(table.live.state)
    if table.status != "playing" or player < 0:
        return False
    seat = table.seats[player]
    return seat.kind != "bot" and not seat.zombie


def deciding(table: Table) -> tuple[int, ...]:
    """The seats whose decision the table waits for (none before the start, at the end or while
    chance acts)."""
    player = table.game.current_player(table.live.state) if table.status == "playing" else -1
    return (player,) if player >= 0 else ()


def seat_results(table: Table) -> list[NamedResult]:
    """Each seat's result of a finished table (empty while it runs): name, result and why, as
    the game words them from its own outcome and the public log (worked out once per version)."""
    cache = table.play.views
    cache.at(table.steps)
    if cache.results is None:
        names = SeatNames.of([seat_name(seat, info) for seat, info in enumerate(table.seats)])
        cache.results = [result.named(names) for result in table.live.results()]
    return cache.results


def acked_ids(
    earlier: list[tuple[int, int]], rows: list[tuple[int, int, str | None]]
) -> dict[tuple[int, str], tuple[int, int]]:
    """The act ids of stored ``rows`` (seat, action, client id), following the ``earlier`` rows of
    the log: (seat, id) -> (turn, action), the turn being the seat's decisions before it."""
    decisions: dict[int, int] = {}
    for seat, _ in earlier:
        decisions[seat] = decisions.get(seat, 0) + 1
    seats = [seat for seat, _ in earlier]
    out: dict[tuple[int, str], tuple[int, int]] = {}
    for seat, action, client_id in rows:
        if seat == UNDO_SEAT:  # the last seat to decide took back ``action`` decisions
            who = seats[-1]
            del seats[-action:]
            decisions[who] -= action
            out = forget_undone(out, who, decisions[who])
            continue
        seats.append(seat)
        if client_id is not None:
            out[(seat, client_id)] = (decisions.get(seat, 0), action)
        decisions[seat] = decisions.get(seat, 0) + 1
    return out


def forget_undone(
    acked: dict[tuple[int, str], tuple[int, int]], seat: int, decisions: int
) -> dict[tuple[int, str], tuple[int, int]]:
    """``acked`` without the act ids of ``seat``'s decisions taken back (those of turn ``decisions``
    on): an id of an undone decision may be used again."""
    return {key: done for key, done in acked.items() if key[0] != seat or done[0] < decisions}


def forget_all_undone(
    acked: dict[tuple[int, str], tuple[int, int]], live: LiveTable
) -> dict[tuple[int, str], tuple[int, int]]:
    """``acked`` without the act ids of any decision taken back (:func:`forget_undone` for every seat)."""
    for seat in range(live.game.players):
        acked = forget_undone(acked, seat, live.decisions(seat))
    return acked
