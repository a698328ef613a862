"""The table service: tables and seats, the write path, bots, clocks and what each seat is sent.

Each table is a single writer: every change takes the table's lock, is worked out without
touching the table, is **stored** (:class:`~shadowtable.server.store.Store`), then acknowledged,
then made the table's own, and only then does every connection get its new view.  The
``actions`` rows are the truth; a table not in memory is rebuilt by replaying them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.server import schema
from shadowtable.server.bot_levels import LEVELS, check_seat_bot, run_spec
from shadowtable.server.bots import BotRunner
from shadowtable.server.cluster import Bus, Leases
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Conflict, Forbidden, NotFound, ServiceError, Stale, Unavailable
from shadowtable.server.live import LiveTable, Step, plan, replayed
from shadowtable.server.names import default_name, name_key, reserved_problem
from shadowtable.server.outbox import Outbox
from shadowtable.server.protocol import Act, Chat, Hello, Message, Ping, ProtocolError, Sync, parse_frame
from shadowtable.server.ratings import unrated
from shadowtable.server.store import Append, Statement, Store, StoreConflict, StoreError
from shadowtable.server.throttle import Throttle
from shadowtable.server.tokens import SeatClaim, SeatTokens, TokenError, key_hash, matches, new_key
from shadowtable.server.viewcache import ViewCache
from shadowtable.server.views import encode, joined, seat_view, view_parts

log = logging.getLogger("shadowtable.server")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
NAME_LIMIT = 32
CHAT_SHOWN = 50
TIMEOUT_POLICIES = ("bot", "skip")
OUTBOX_LIMIT = 2000
"""Messages queued for a socket before it is cut off as not reading (the default)."""
OUTBOX_BYTES = 16 * 1024 * 1024
"""Bytes queued for a socket before it is cut off as not reading (the default)."""
INVITE_TTL_S = 24 * 3600
"""How long an invite link to a vacated seat may be used (once)."""
RETURN_GRACE_MS = 30_000
"""The least time a seat whose clock ran out has once its player takes it back."""
SERVER_REFUSED_OPTIONS = frozenset({"content"})
"""Options naming a file on the server's own disk: never accepted from a client."""

Renderer = Callable[[Game[Any], dict[str, Any], dict[str, Any]], dict[str, str]]
"""Turns a seat's ``view`` message (and the table's public description) into HTML fragments."""


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

    @property
    def taken(self) -> bool:
        """Held by a bot, by a key, or played by a bot for someone (a vacated seat is not free)."""
        return self.kind == "bot" or self.key_hash is not None or self.zombie

    @property
    def vacated(self) -> bool:
        """Left by its player in play: a bot plays it until that player or an invited one takes it."""
        return self.kind == "human" and self.key_hash is None and self.zombie


class Connection:
    """One WebSocket: an outbox drained by the socket's sender, and who it speaks for."""

    def __init__(
        self,
        cookie_tokens: dict[str, str] | None = None,
        *,
        max_messages: int = OUTBOX_LIMIT,
        max_bytes: int = OUTBOX_BYTES,
    ) -> None:
        self.outbox = Outbox(max_messages, max_bytes)
        self.key = secrets.token_hex(8)
        """This connection's name in the rate limits."""
        self.seat: int | None = None
        self.greeted = False
        self.sent_v = 0
        self.told_over = False
        self.cut_off = False
        self.html = False
        self.cookie_tokens = cookie_tokens or {}
        self.close_code = 1000
        self.close_reason = ""
        self.on_cut_off: Callable[[], None] | None = None
        """Called once when the client stops reading (its outbox is full): the socket must close."""

    def push(self, message: dict[str, Any]) -> None:
        """Queue ``message``."""
        self.push_text(encode(message))

    def push_text(self, text: str, *, replaceable: bool = False) -> None:
        """Queue an encoded message (``replaceable``: an answer to ``sync``); a client that reads
        nothing until the outbox is full is cut off (it reconnects and resyncs)."""
        if self.cut_off:
            return
        if not self.outbox.put(text, replaceable=replaceable):
            self.cut_off = True
            self.end(4429, "not reading: too much is queued for this connection")
            if self.on_cut_off is not None:
                self.on_cut_off()

    def end(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is queued, with ``code`` (the first one given stays)."""
        if self.close_code == 1000:
            self.close_code, self.close_reason = code, reason
        self.outbox.end()

    def close(self) -> None:
        self.outbox.end()


@dataclass
class Table:
    """A table in memory: its stored fields, its live game and who is connected."""

    id: str
    game: Game[Any]
    status: str  # open | playing | over
    clock: dict[str, Any] | None
    listed: bool
    created_at: float
    seats: list[Seat]
    live: LiveTable
    returns: list[float] | None = None
    rematch: str | None = None
    host_seat: int | None = None
    """The creator's seat: its holder may invite someone to a vacated seat."""
    chat: list[dict[str, Any]] = field(default_factory=list)
    acked: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    """Acknowledged act ids: (seat, id) -> (turn, action) of the decision it made."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    clock_for: tuple[int, int] | None = None
    turn_started: float = 0.0
    skip_once: tuple[int, int] | None = None
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    owned: bool = True
    """Whether this process runs the table's bots, clocks and takeovers (always, in one process)."""
    remote: dict[str, tuple[float, frozenset[int]]] = field(default_factory=dict)
    """Seats connected to other processes: process id -> (valid until, seats)."""
    views: ViewCache = field(default_factory=ViewCache)


@dataclass(frozen=True)
class NewTable:
    """What a table is created with (validated by :meth:`TableService.create`)."""

    game: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    """Per seat: ``"human"`` or ``"bot:<level>"`` (e.g. ``"bot:heuristic"``; see ``bot_levels``)."""
    clock: dict[str, Any] | None = None
    listed: bool = True


class TableService:
    """Every table of the server, the store they persist to and the bots that play for them."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        tokens: SeatTokens,
        bots: BotRunner,
        renderer: Renderer | None = None,
    ) -> None:
        self.config = config
        self.renderer = renderer
        self.store = store
        self.tokens = tokens
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.on_over: list[Callable[[str], Awaitable[Any]]] = []
        """Called with a table's id once its end is stored (the ratings); each in its own task."""
        clustered = bool(config.redis_url)
        self.leases = Leases(store, config.process_id, config.lease_s) if clustered else None
        self.bus = Bus(config.redis_url, config.process_id) if clustered else None
        self._lease_task: asyncio.Task[None] | None = None
        self.frames = Throttle(config.ws_frame_rate, config.ws_flood_factor)
        """Frames per connection."""
        self.pings = Throttle(config.ws_ping_rate, config.ws_flood_factor)
        """Pings per connection."""
        self.chats = Throttle(config.chat_rate)
        """Chat lines per seat of a table."""

    async def start(self) -> None:
        """Join the other processes (with ``--redis``): listen on the bus, keep and take leases."""
        if self.bus is not None:
            await self.bus.start(self._on_bus, on_reconnect=self._resync)
            self._lease_task = asyncio.ensure_future(self._lease_loop())

    # -- life -----------------------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Load every table in play (replaying its actions) so its bots and clocks go on.  With
        several processes each table goes to whichever process's lease round finds it orphaned."""
        if self.leases is not None:
            return 0
        rows = await self.store.fetch(sa.select(schema.tables.c.id).where(schema.tables.c.status == "playing"))
        for row in rows:
            with contextlib.suppress(ServiceError):
                await self.table(row["id"])
        return len(rows)

    async def stop(self) -> None:
        """Stop bots, clocks and sockets; queued writes are finished by the store's close; leases
        are given up so another process takes this one's tables over at once."""
        self.closing = True
        if self._lease_task is not None:
            self._lease_task.cancel()
        if self.leases is not None:
            with contextlib.suppress(StoreError):
                await self.leases.release([t.id for t in self.tables.values() if t.owned])
        if self.bus is not None:
            await self.bus.stop()
        for table in self.tables.values():
            for task in [table.bot_task, table.clock_task, *table.away.values()]:
                if task is not None:
                    task.cancel()
            for connection in table.connections:
                connection.push({"t": "notice", "text": "the server is restarting: reconnect in a moment"})
                connection.end(1012, "the server is restarting")
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- tables ---------------------------------------------------------------------------------
    async def create(self, new: NewTable, *, default_bot_seats: bool = False) -> Table:
        """Create, store and return a table; :class:`ServiceError` for a bad request.  Seats are
        bot levels only, and with ``default_bot_seats`` (a rematch) also the server's default bot."""
        refused = sorted(name for name in SERVER_REFUSED_OPTIONS & set(new.options) if new.options[name] is not None)
        if refused:
            raise ServiceError(f"option {refused[0]!r} is not accepted by the server (it names a file on its disk)")
        game = _new_game(new.game, new.players, new.options)
        seats = _seats(new.seats, game, self.config.default_bot if default_bot_seats else None)
        clock = _clock(new.clock)
        if clock is not None:
            for seat in seats:
                seat.clock_ms = clock["initial_ms"] if seat.kind == "human" else None
        table_id = secrets.token_urlsafe(9)
        now = time.time()
        table = Table(table_id, game, "open", clock, new.listed, now, seats, LiveTable.new(game))
        await self._write(
            sa.insert(schema.tables).values(
                id=table_id,
                game=game.spec.id,
                version=game.spec.version,
                players=game.players,
                options=game.options,
                status="open",
                clock=clock,
                listed=new.listed,
                created_at=now,
            ),
            sa.insert(schema.seats).values([_seat_row(table_id, i, s) for i, s in enumerate(seats)]),
            table_id=table_id,
        )
        if self.leases is not None:
            # owned by the process its seats reach first (nginx hashes a table's pages and sockets
            # to one process), not necessarily the one that answered the creation
            table.owned = False
        self.tables[table_id] = table
        log.info("table created", extra={"event": "create", "table": table_id, "game": game.spec.id})
        if all(seat.taken for seat in seats):
            await self._start_game(table)
        return table

    async def table(self, table_id: str) -> Table:
        """The table ``table_id``, loaded and replayed from the store if not in memory."""
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            raise NotFound("no such table")
        if table_id in self.tables:
            return self.tables[table_id]
        if table_id in self._loading:
            return await asyncio.shield(self._loading[table_id])
        future: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            if self.leases is not None and table.status != "over":
                table.owned = await self._acquire(table_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved here, so an unawaited failure is not reported twice
            raise
        finally:
            self._loading.pop(table_id, None)
        future.set_result(table)
        self.tables[table_id] = table
        self._after_change(table, local=False)
        return table

    async def _load(self, table_id: str) -> Table:
        found = await self._fetch(sa.select(schema.tables).where(schema.tables.c.id == table_id))
        if not found:
            raise NotFound("no such table")
        row = found[0]
        seat_rows = await self._fetch(
            sa.select(schema.seats).where(schema.seats.c.table_id == table_id).order_by(schema.seats.c.seat)
        )
        action_rows = await self._fetch(
            sa.select(schema.actions).where(schema.actions.c.table_id == table_id).order_by(schema.actions.c.idx)
        )
        chat_rows = await self._fetch(
            sa.select(schema.chat).where(schema.chat.c.table_id == table_id).order_by(schema.chat.c.seq)
        )
        try:
            game = make(row["game"], players=row["players"], **row["options"])
        except ShadowTableError as exc:
            raise Unavailable(f"table {table_id} cannot be played by this server: {exc}") from exc
        seats = [
            Seat(r["kind"], r["bot"], r["name"], r["key_hash"], bool(r["zombie"]), r["clock_ms"], r["left_hash"])
            for r in seat_rows
        ]
        live = LiveTable.new(game)
        stored = [(r["seat"], r["action"]) for r in action_rows]
        try:
            live.commit(await asyncio.to_thread(replayed, game, stored))
        except ShadowTableError as exc:
            log.error("table does not replay", extra={"event": "load_failed", "table": table_id})
            raise Unavailable(f"table {table_id} does not replay on this server: {exc}") from exc
        table = Table(
            table_id,
            game,
            row["status"],
            row["clock"],
            bool(row["listed"]),
            row["created_at"],
            seats,
            live,
            returns=row["returns"],
            rematch=row["rematch"],
            host_seat=row["host_seat"],
            chat=[_chat_message(r["seat"], seats, r["text"], r["at"]) for r in chat_rows],
            acked=_acked([], [(r["seat"], r["action"], r["client_id"]) for r in action_rows]),
        )
        log.info("table replayed", extra={"event": "load", "table": table_id, "steps": len(stored)})
        return table

    def info(self, table: Table) -> dict[str, Any]:
        """What anyone may know of a table: the lobby's and the REST API's description."""
        return {
            "id": table.id,
            "game": table.game.spec.id,
            "version": table.game.spec.version,
            "players": table.game.players,
            "options": table.game.options,
            "status": table.status,
            "listed": table.listed,
            "clock": _public_clock(table.clock),
            "seats": [_seat_info(i, seat) for i, seat in enumerate(table.seats)],
            "created_at": table.created_at,
            "returns": table.returns,
            "rematch": table.rematch,
            "host_seat": table.host_seat,
        }

    async def lobby(self, status: str, limit: int) -> list[dict[str, Any]]:
        """Listed tables with ``status`` (``open``: waiting for players), newest first."""
        query = (
            sa.select(schema.tables.c.id)
            .where(schema.tables.c.status == status, schema.tables.c.listed.is_(True))
            .order_by(schema.tables.c.created_at.desc())
            .limit(limit)
        )
        out = []
        for row in await self._fetch(query):
            with contextlib.suppress(ServiceError):
                out.append(self.info(await self.table(row["id"])))
        return out

    async def record(self, table_id: str) -> GameRecord:
        """The full record of a finished table (refused before the end: it holds every secret)."""
        table = await self.table(table_id)
        if table.status != "over":
            raise Conflict("the record is available once the game is over")
        return _finished_record(table)

    # -- seats ----------------------------------------------------------------------------------
    async def seat_name(self, name: str | None, seat: int, account_id: str | None) -> str:
        """The name ``seat`` is taken under (:func:`display_name`).  A guest (no ``account_id``) may
        not take a reserved name (:func:`~shadowtable.server.names.reserved_problem`) other than the
        seat's own default, nor an account's name whatever its case; :class:`ServiceError` then."""
        shown = display_name(name, seat)
        if account_id is not None:
            return shown
        if name_key(shown) == name_key(default_name(seat)):
            return default_name(seat)
        problem = reserved_problem(shown)
        if problem is not None:
            raise ServiceError(problem)
        query = sa.select(schema.accounts.c.id).where(schema.accounts.c.name_key == name_key(shown)).limit(1)
        if await self._fetch(query):
            raise ServiceError(f"name: {shown!r} is an account's name: sign in to use it, or choose another")
        return shown

    async def join(
        self,
        table_id: str,
        name: str | None,
        wanted: int | None,
        account_id: str | None = None,
        *,
        holder: object = None,
        move: bool = False,
        invite: str | None = None,
        as_host: bool = False,
    ) -> tuple[Table, int, str]:
        """Sit at a free seat (``wanted`` or the first one), or at the vacated seat an ``invite`` code
        names (used up here), as the signed-in ``account_id`` if any; returns the table, seat and token.

        ``holder`` is the token the asker already holds for this table, if any: sitting at a second
        seat is refused unless ``move`` (before the game starts), which frees the first seat and
        carries its host rights over in the same transaction.  ``as_host``: the seat taken is the
        table's host seat unless the table has one."""
        table = await self.table(table_id)
        if self.bus is not None:
            await self.refresh(table)  # the seats as they are now, whichever process took them
        async with table.lock:
            if table.status == "over":
                raise Conflict("the game is over")
            current = self.held_seat(table, holder)
            seat = await self._seat_to_take(table, wanted, current, move=move, invite=invite)
            if current is not None and name is None and table.seats[current].name != default_name(current):
                shown = display_name(table.seats[current].name, seat)  # moving keeps the name
            else:
                shown = await self.seat_name(name, seat, account_id)
            key = new_key()
            then: list[sa.Executable] = []
            host = table.host_seat
            if current is not None:
                then.append(_seat_update(table.id, current, key_hash=None, name=None, account_id=None))
                if host == current:
                    host = seat
            elif as_host and host is None:
                host = seat
            if host != table.host_seat:
                then.append(sa.update(schema.tables).where(schema.tables.c.id == table.id).values(host_seat=host))
            taken = await self._guarded(_claim(table.id, seat, key, shown, account_id, invite), *then)
            if not taken:
                if invite is not None:
                    raise Conflict("this invite link is not valid: it was used, replaced by a newer one or expired")
                raise Conflict(f"seat {seat} was taken a moment ago: try again")
            table.seats[seat].key_hash = key_hash(key)
            table.seats[seat].name = shown
            table.seats[seat].left_hash = None
            if current is not None:
                table.seats[current].key_hash = None
                table.seats[current].name = None
            table.host_seat = host
            starts = table.status == "open" and all(s.taken for s in table.seats)
        log.info("seat joined", extra={"event": "join", "table": table.id, "seat": seat})
        if current is not None:
            for connection in [c for c in table.connections if c.seat == current]:
                connection.push({"t": "refused", "why": f"you moved to seat {seat}"})
                connection.end(4403, "refused: you moved to another seat")
        if starts:
            await self._start_game(table)
        self._publish(table)
        self._send_presence(table)
        return table, seat, self.tokens.issue(table.id, seat, key)

    async def _seat_to_take(
        self, table: Table, wanted: int | None, current: int | None, *, move: bool, invite: str | None
    ) -> int:
        """The seat a join takes: the one a live ``invite`` names, else a free one; someone who sits
        at ``current`` already may only move to another, and only before the game starts."""
        if invite is not None:
            seat = await self._invited_seat(table, invite)
            if seat is None:
                raise Conflict("this invite link is not valid: it was used, replaced by a newer one or expired")
            if current is not None:
                raise Conflict(f"you already sit at seat {current} of this table: an invite is for someone else")
            return seat
        seat = self._free_seat(table, wanted)
        if current is not None and not move:
            raise Conflict(
                f"you already sit at seat {current} of this table: ask to move (move: true) to give it"
                f" up for seat {seat}"
            )
        if current is not None and table.status != "open":
            raise Conflict("seats can be changed only before the game starts")
        return seat

    def _free_seat(self, table: Table, wanted: int | None) -> int:
        """The seat a plain join takes: ``wanted`` if free, else the first free one; vacated seats
        are never free."""
        free = [i for i, seat in enumerate(table.seats) if not seat.taken]
        if wanted is None:
            if not free:
                raise Conflict("every seat is taken")
            return free[0]
        if not 0 <= wanted < len(table.seats):
            raise ServiceError(f"seat must be between 0 and {len(table.seats) - 1}")
        if table.seats[wanted].vacated:
            raise Conflict(
                f"seat {wanted} is played by a bot since its player left: only that player, or someone the"
                " table's host invites, can take it"
            )
        if wanted not in free:
            raise Conflict(f"seat {wanted} is not free")
        return wanted

    def held_seat(self, table: Table, token: object) -> int | None:
        """The seat ``token`` holds at ``table`` (``None``: none, or a token no longer valid), or the
        seat its holder left in play (they may take only that one back)."""
        if token is None:
            return None
        left = self.left_seat(table, token)
        if left is not None:
            return left
        try:
            return self.claim(table, token).seat
        except Forbidden:
            return None

    async def _invited_seat(self, table: Table, code: object) -> int | None:
        """The vacated seat a live invite ``code`` names at ``table`` (``None``: no such invite)."""
        if not isinstance(code, str) or not 0 < len(code) <= 64:
            return None
        rows = await self._fetch(
            sa.select(schema.seats.c.seat).where(
                schema.seats.c.table_id == table.id,
                schema.seats.c.invite_hash == key_hash(code),
                schema.seats.c.invite_expires > time.time(),
                schema.seats.c.key_hash.is_(None),
            )
        )
        return int(rows[0]["seat"]) if rows and table.status == "playing" else None

    async def invited_seat(self, table_id: str, code: object) -> tuple[Table, int | None]:
        """The table and the seat an invite ``code`` would seat its bearer at (nothing is used)."""
        table = await self.table(table_id)
        return table, await self._invited_seat(table, code)

    def claim(self, table: Table, token: object) -> SeatClaim:
        """The seat a token holds at ``table``; :class:`Forbidden` if forged, expired, revoked or
        for another table."""
        try:
            claim = self.tokens.read(token)
        except TokenError as exc:
            raise Forbidden(str(exc)) from exc
        if claim.table != table.id or not 0 <= claim.seat < len(table.seats):
            raise Forbidden("the seat token is not for this table")
        if not matches(claim, table.seats[claim.seat].key_hash):
            if table.status == "playing" and matches(claim, table.seats[claim.seat].left_hash):
                raise Forbidden(
                    "you left this seat and a bot plays it: take it back explicitly"
                    f" (POST /api/tables/{table.id}/return, or hello with take_back)"
                )
            raise Forbidden("the seat token was revoked: the seat was given up or passed to another player")
        return claim

    def left_seat(self, table: Table, token: object) -> int | None:
        """The vacated seat whose player left with ``token`` in this game in play (they alone may take
        it back), if any."""
        if table.status != "playing":
            return None
        try:
            claim = self.tokens.read(token)
        except TokenError:
            return None
        if claim.table != table.id or not 0 <= claim.seat < len(table.seats):
            return None
        seat = table.seats[claim.seat]
        return claim.seat if seat.vacated and matches(claim, seat.left_hash) else None

    async def take_back(self, table_id: str, token: object) -> tuple[Table, int]:
        """The player who left a seat in play takes it back with the token they left with (it is
        valid again); a bot plays it until they connect."""
        table = await self.table(table_id)
        if self.bus is not None:
            await self.refresh(table)
        async with table.lock:
            seat = await self._take_back_seat(table, token)
        self._publish(table)
        self._send_presence(table)
        self._after_change(table)
        return table, seat

    async def _take_back_seat(self, table: Table, token: object) -> int:
        """Under the table's lock: give the leaver's key back to the seat they left."""
        seat = self.left_seat(table, token)
        if seat is None:
            self.claim(table, token)  # Forbidden with the reason (forged, expired, another table, ...)
            raise Conflict("you hold your seat already")
        left = table.seats[seat].left_hash
        restored = (
            sa.update(schema.seats)
            .where(
                schema.seats.c.table_id == table.id,
                schema.seats.c.seat == seat,
                schema.seats.c.key_hash.is_(None),
                schema.seats.c.left_hash == left,
            )
            .values(key_hash=left, left_hash=None, invite_hash=None, invite_expires=None)
            .returning(schema.seats.c.seat)
        )
        done = await self._guarded(restored)
        if not done:
            raise Conflict("the seat was taken a moment ago")
        table.seats[seat].key_hash, table.seats[seat].left_hash = left, None
        log.info("seat taken back", extra={"event": "take_back", "table": table.id, "seat": seat})
        return seat

    async def invite(self, table_id: str, token: object, seat: int) -> tuple[str, float]:
        """A fresh single-use invite code to the vacated ``seat`` (only the host may ask); returns the
        code (stored only as its hash; a newer invite replaces it) and when it expires."""
        table = await self.table(table_id)
        if self.bus is not None:
            await self.refresh(table)
        async with table.lock:
            if self.claim(table, token).seat != table.host_seat:
                raise Forbidden("only the table's host (the player who created it) can invite to a seat")
            if not 0 <= seat < len(table.seats):
                raise ServiceError(f"seat must be between 0 and {len(table.seats) - 1}")
            if table.status != "playing" or not table.seats[seat].vacated:
                raise Conflict(f"seat {seat} is not a seat a bot plays since its player left it")
            code = secrets.token_urlsafe(18)
            expires = time.time() + INVITE_TTL_S
            stored = (
                sa.update(schema.seats)
                .where(
                    schema.seats.c.table_id == table.id,
                    schema.seats.c.seat == seat,
                    schema.seats.c.key_hash.is_(None),
                    schema.seats.c.zombie.is_(True),
                )
                .values(invite_hash=key_hash(code), invite_expires=expires)
                .returning(schema.seats.c.seat)
            )
            done = await self._guarded(stored)
            if not done:
                raise Conflict(f"seat {seat} was taken a moment ago")
        log.info("seat invite made", extra={"event": "invite", "table": table.id, "seat": seat})
        return code, expires

    async def leave(self, table_id: str, token: object) -> Table:
        """Give up a seat: its token is revoked; in play a bot takes the seat over and the seat is
        kept for the leaver (their token takes it back) or someone the host invites."""
        table = await self.table(table_id)
        if self.bus is not None:
            await self.refresh(table)  # the seat may have been taken through another process
        async with table.lock:
            seat = self.claim(table, token).seat
            playing = table.status == "playing"
            before = table.seats[seat]
            left = before.key_hash if playing else None
            zombie = playing or before.zombie
            extra: list[sa.Executable] = [unrated(table.id)] if playing else []
            host = table.host_seat
            if not playing and host == seat:
                host = None  # whoever sits here next in a waiting table is not its host
                extra.append(sa.update(schema.tables).where(schema.tables.c.id == table.id).values(host_seat=None))
            await self._write(
                _seat_update(table.id, seat, key_hash=None, zombie=zombie, left_hash=left), *extra, table_id=table.id
            )
            before.key_hash, before.zombie, before.left_hash = None, zombie, left
            table.host_seat = host
        for connection in [c for c in table.connections if c.seat == seat]:
            connection.push({"t": "refused", "why": "you left this seat"})
            connection.end(4403, "refused: you left this seat")
        if playing:
            self._notice(table, f"{_seat_name(seat, table.seats[seat])} left: a bot plays seat {seat}")
        self._send_presence(table)
        self._after_change(table)
        return table

    async def start_now(self, table_id: str, token: object) -> Table:
        """Start an open table, bots taking the seats nobody joined."""
        table = await self.table(table_id)
        async with table.lock:
            self.claim(table, token)
            if table.status != "open":
                raise Conflict("the game has already started")
            free = [i for i, seat in enumerate(table.seats) if not seat.taken]
            bot = self.config.default_bot
            if free:
                await self._write(
                    *[_seat_update(table.id, i, kind="bot", bot=bot, clock_ms=None) for i in free], table_id=table.id
                )
            for i in free:
                table.seats[i] = Seat("bot", bot, None, None)
        await self._start_game(table)
        self._send_presence(table)
        return table

    async def rematch(self, table_id: str, token: object) -> Table:
        """The table of the rematch of a finished game (created by the first to ask)."""
        table = await self.table(table_id)
        async with table.lock:
            self.claim(table, token)
            if table.status != "over":
                raise Conflict("a rematch can start once the game is over")
            if table.rematch is not None:
                return await self.table(table.rematch)
            default = self.config.default_bot
            kinds = [
                "human" if s.kind == "human" else f"bot:{s.bot if s.bot in LEVELS else default}" for s in table.seats
            ]
            clock = None if table.clock is None else _public_clock(table.clock)
            new = await self.create(
                NewTable(table.game.spec.id, table.game.players, dict(table.game.options), kinds, clock, table.listed),
                default_bot_seats=True,
            )
            await self._write(
                sa.update(schema.tables).where(schema.tables.c.id == table.id).values(rematch=new.id), table_id=table.id
            )
            table.rematch = new.id
        self._publish(table)
        self._notice(table, "a rematch is open", rematch=new.id)
        return new

    # -- the write path -------------------------------------------------------------------------
    async def _write(self, *statements: Statement, table_id: str | None = None) -> None:
        """Store ``statements`` (a table's writes: under its lock, keyed by its id, so they keep
        their order); :class:`Stale` or :class:`Unavailable` when that fails."""
        try:
            await self.store.write(*statements, key=table_id)
        except StoreConflict as exc:
            raise Stale("another server process changed this table first") from exc
        except StoreError as exc:
            raise Unavailable(str(exc)) from exc

    async def _guarded(self, guard: sa.Executable, *then: sa.Executable) -> list[dict[str, Any]]:
        """Run ``guard`` (an UPDATE ... RETURNING) and, only if it changed a row, ``then``, in one
        transaction; the rows ``guard`` returned (none: the guard did not hold)."""
        try:
            return await self.store.execute_guarded(guard, *then)
        except StoreError as exc:
            raise Unavailable(str(exc)) from exc

    async def _fetch(self, query: sa.Executable) -> list[dict[str, Any]]:
        try:
            return await self.store.fetch(query)
        except StoreError as exc:
            raise Unavailable(str(exc)) from exc

    async def _persist(self, table: Table, steps: Sequence[Step], client_id: str | None, *extra: sa.Executable) -> None:
        """Store ``steps`` (and ``extra``) in one transaction; the game's end goes with them."""
        base, now = len(table.live.rows), time.time()
        rows = [
            {
                "table_id": table.id,
                "idx": base + i,
                "seat": step.seat,
                "action": step.action,
                "client_id": client_id if i == 0 and step.seat >= 0 else None,
                "at": now,
            }
            for i, step in enumerate(steps)
        ]
        statements: list[Statement] = [Append(schema.actions, rows)] if rows else []
        if steps and table.game.is_terminal(steps[-1].after):
            returns = list(table.game.returns(steps[-1].after))
            statements.append(
                sa.update(schema.tables)
                .where(schema.tables.c.id == table.id)
                .values(status="over", returns=returns, finished_at=now)
            )
        await self._write(*statements, *extra, table_id=table.id)

    def _commit(self, table: Table, steps: list[Step]) -> None:
        table.live.commit(steps)
        if table.status == "playing" and table.game.is_terminal(table.live.state):
            table.status = "over"
            table.returns = list(table.game.returns(table.live.state))
            log.info("game over", extra={"event": "over", "table": table.id})
            for hook in self.on_over:
                self._spawn(hook(table.id))

    async def _start_game(self, table: Table) -> None:
        async with table.lock:
            if table.status != "open":
                return
            steps = plan(table.game, table.live.state, None, None)
            start = sa.update(schema.tables).where(schema.tables.c.id == table.id).values(status="playing")
            try:
                await self._persist(table, steps, None, start)
            except Stale:
                started = False  # another process started it first
            else:
                started = True
                table.status = "playing"
                self._commit(table, steps)
        if not started:
            await self.refresh(table)
            return
        log.info("game started", extra={"event": "start", "table": table.id})
        self._after_change(table)

    async def act(self, table: Table, connection: Connection, act: Act) -> None:
        """A seat's decision: checked, stored, acknowledged, then shown to everyone.  When another
        process appended first, the table is re-read and the decision checked again."""
        seat = connection.seat
        if seat is None:
            self._reject(table, connection, act.id, "spectators cannot act")
            return
        for _attempt in range(3):
            try:
                await self._act_once(table, connection, seat, act)
            except Stale:
                await self.refresh(table)
                continue
            break
        else:
            self._reject(table, connection, act.id, "the table is busy: try again")
        self._after_change(table)

    async def _act_once(self, table: Table, connection: Connection, seat: int, act: Act) -> None:
        async with table.lock:
            done = table.acked.get((seat, act.id))
            if done is not None:
                if _same_decision(done, act):
                    connection.push({"t": "ack", "id": act.id})
                else:
                    reused = f"act id {act.id!r} was used already for another decision: use a new id for each decision"
                    connection.push({"t": "reject", "id": act.id, "why": reused})
                return
            why = self._refusal(table, seat, act)
            if why is not None:
                self._reject(table, connection, act.id, why)
                return
            state = table.live.state
            try:
                action = act.action if act.action is not None else table.game.parse_action(state, act.notation or "")
                steps = plan(table.game, state, seat, action)
            except ShadowTableError as exc:
                self._reject(table, connection, act.id, str(exc))
                return
            left = self._spent_clock(table, seat)
            returning = table.seats[seat].zombie
            changes: dict[str, Any] = {} if left is None else {"clock_ms": left}
            if returning:
                changes["zombie"] = False
            try:
                await self._persist(
                    table, steps, act.id, *([_seat_update(table.id, seat, **changes)] if changes else [])
                )
            except Stale:
                raise
            except ServiceError as exc:
                self._reject(table, connection, act.id, f"not saved, so not played: {exc}")
                return
            if left is not None:
                table.seats[seat].clock_ms = left
                table.clock_for = None
                if table.clock_task is not None:
                    table.clock_task.cancel()
            table.acked[(seat, act.id)] = (act.turn, action)
            connection.push({"t": "ack", "id": act.id})
            if returning:
                table.seats[seat].zombie = False
                self._notice(table, f"{_seat_name(seat, table.seats[seat])} is back at seat {seat}")
            self._commit(table, steps)

    def _refusal(self, table: Table, seat: int, act: Act) -> str | None:
        if table.status != "playing":
            return "the game is not in play" if table.status == "open" else "the game is over"
        if act.turn < table.live.decisions(seat):
            return "that choice was made already (stale turn): here is the current view"
        if table.game.current_player(table.live.state) != seat or act.turn != table.live.decisions(seat):
            return "it is not your turn"
        return None

    def _reject(self, table: Table, connection: Connection, act_id: str | None, why: str) -> None:
        connection.push({"t": "reject", "id": act_id, "why": why})
        self._send_view(table, connection, force=True)

    # -- what is sent ---------------------------------------------------------------------------
    def _after_change(self, table: Table, *, local: bool = True) -> None:
        """Send every connection its new view; a change made here is announced to the other
        processes (``local``), which re-read the table from the database."""
        if local:
            self._publish(table)
        self._schedule(table)  # first, so the views show the clock that now runs
        for connection in list(table.connections):
            self._send_view(table, connection)
        if table.status == "over":
            for task in [table.clock_task, *table.away.values()]:
                if task is not None:
                    task.cancel()
            for connection in list(table.connections):
                if not connection.told_over:
                    connection.told_over = True
                    connection.push_text(self._over(table))

    def _over(self, table: Table) -> str:
        """The encoded ``over`` message (built once per finished table)."""
        table.views.at(len(table.live.rows))
        if table.views.over is None:
            record = _finished_record(table)
            table.views.over = encode({"t": "over", "returns": record.returns, "record": record.to_json()})
        return table.views.over

    def view(self, table: Table, seat: int | None, since: int) -> dict[str, Any]:
        """The view message of ``seat`` with the events after version ``since``."""
        channel = table.live.channels[seat]
        return seat_view(
            table.game,
            table.live.state,
            seat,
            v=channel.v,
            after=since if 0 <= since <= channel.v else 0,
            events=channel.since(since),
            turn=None if seat is None else table.live.decisions(seat),
            clock=self._clock_view(table, seat),
            presence=self.presence(table),
        )

    def view_text(self, table: Table, seat: int | None, since: int, *, html: bool = False) -> str:
        """:meth:`view` encoded (``html``: with the page's fragments, for a renderer), built once
        per table version, audience, version followed, clock and presence, then reused."""
        cache = table.views
        cache.at(len(table.live.rows))
        channel = table.live.channels[seat]
        after = since if 0 <= since <= channel.v else 0
        clock = encode(self._clock_view(table, seat))
        presence = encode(self.presence(table))
        info = self.info(table) if html and self.renderer is not None else None
        described = "" if info is None else encode(info)
        key = (seat, after, clock, presence, described)
        text = cache.texts.get(key)
        if text is not None:
            return text
        cache.builds += 1
        parts = cache.parts.get(seat)
        if parts is None:
            turn = None if seat is None else table.live.decisions(seat)
            built = view_parts(table.game, table.live.state, seat, turn)
            parts = {name: encode(value) for name, value in built.items()}
            cache.parts[seat] = parts
        fields = {
            "t": '"view"',
            "v": str(channel.v),
            "after": str(after),
            **parts,
            "events": channel.since_text(after),
            "clock": clock,
            "presence": presence,
        }
        if info is not None and self.renderer is not None:
            fragments_key = (seat, after, presence, described)
            fragments = cache.fragments.get(fragments_key)
            if fragments is None:
                # built from the message alone, as the browser receives it (JSON, keys sorted): the
                # page shows nothing the message does not hold (the fragments do not show the clock)
                fragments = encode(self.renderer(table.game, json.loads(joined(fields)), info))
                cache.keep(cache.fragments, fragments_key, fragments, cache.limit)
            fields["html"] = fragments
        text = joined(fields)
        cache.keep(cache.texts, key, text, cache.limit)
        return text

    def _send_view(
        self, table: Table, connection: Connection, *, force: bool = False, replaceable: bool = False
    ) -> None:
        """Send ``connection`` its view if it changed (``force``: anyway); ``replaceable``: an
        answer to ``sync``, which a later ``sync`` replaces while it is still queued."""
        if not connection.greeted:
            return
        channel = table.live.channels[connection.seat]
        if channel.v == connection.sent_v and not force:
            return
        text = self.view_text(table, connection.seat, connection.sent_v, html=connection.html)
        connection.push_text(text, replaceable=replaceable)
        connection.sent_v = channel.v

    def presence(self, table: Table) -> list[dict[str, Any]]:
        """Who sits where and who is connected (public)."""
        here = self._here(table)
        return [
            {
                "seat": i,
                "name": _seat_name(i, seat),
                "kind": seat.kind,
                "here": seat.kind == "bot" or i in here,
                "bot_playing": seat.kind == "bot" or seat.zombie,
            }
            for i, seat in enumerate(table.seats)
        ]

    def _send_presence(self, table: Table) -> None:
        message = {"t": "presence", "presence": self.presence(table)}
        for connection in table.connections:
            if connection.greeted:
                connection.push(message)

    def _notice(self, table: Table, text: str, *, relay: bool = True, **data: Any) -> None:
        for connection in table.connections:
            if connection.greeted:
                connection.push({"t": "notice", "text": text, **data})
        if relay:
            self._publish(table, kind="notice", text=text, data=data)

    # -- sockets --------------------------------------------------------------------------------
    async def receive(self, table: Table, connection: Connection, frame: str | bytes) -> bool:
        """Handle one frame; returns ``False`` when the connection must close.  Frames count
        against the connection's rate (an ``act`` of the seat that decides now excepted): one over
        it is refused unprocessed, and a socket that goes on flooding is closed (4429)."""
        try:
            message: Message | None = parse_frame(frame, self.config.max_frame)
        except ProtocolError as exc:
            message, refusal = None, exc
        if not (isinstance(message, Act) and self._deciding(table, connection)):
            throttle = self.pings if isinstance(message, Ping) else self.frames
            verdict = throttle.hit(connection.key)
            if verdict.close:
                log.warning("socket flooding", extra={"event": "ws_flood", "table": table.id})
                connection.end(4429, "too many frames: slow down")
                return False
            if not verdict.allowed:
                act_id = message.id if isinstance(message, Act) else None
                kind = "pings" if throttle is self.pings else "frames"
                why = f"too many {kind}: at most {throttle.item.amount} per {_window(throttle)}"
                connection.push(
                    {
                        "t": "reject",
                        "id": act_id,
                        "why": f"{why}; try again in {verdict.retry_after} s",
                        "retry_after": verdict.retry_after,
                    }
                )
                return True
        if message is None:
            connection.push({"t": "reject", "id": refusal.id, "why": str(refusal)})
            return True
        return await self._handle(table, connection, message)

    def _deciding(self, table: Table, connection: Connection) -> bool:
        """Whether ``connection`` is the seat whose decision the table waits for."""
        seat = connection.seat
        return (
            connection.greeted
            and seat is not None
            and table.status == "playing"
            and table.game.current_player(table.live.state) == seat
        )

    async def _handle(self, table: Table, connection: Connection, message: Message) -> bool:
        if isinstance(message, Hello):
            return await self._hello(table, connection, message)
        if not connection.greeted:
            connection.push({"t": "reject", "id": getattr(message, "id", None), "why": "say hello first"})
            return True
        if isinstance(message, Act):
            await self.act(table, connection, message)
        elif isinstance(message, Sync):
            connection.sent_v = message.v
            self._send_view(table, connection, force=True, replaceable=True)
        elif isinstance(message, Chat):
            await self._chat(table, connection, message.text)
        elif isinstance(message, Ping):
            connection.push({"t": "pong"})
        return True

    async def _hello(self, table: Table, connection: Connection, hello: Hello) -> bool:
        if connection.greeted:
            connection.push({"t": "reject", "id": None, "why": "hello was said already"})
            return True
        token = hello.token or connection.cookie_tokens.get(table.id)
        seat: int | None = None
        if token:
            why = ""
            try:
                seat = self.claim(table, token).seat
            except Forbidden as exc:
                why = str(exc)
            if seat is None and self.bus is not None:  # the seat may have been taken elsewhere
                await self.refresh(table)
                try:
                    seat = self.claim(table, token).seat
                except Forbidden as exc:
                    why = str(exc)
            if seat is None and self.left_seat(table, token) is not None:
                if hello.take_back:
                    try:
                        async with table.lock:
                            seat = await self._take_back_seat(table, token)
                    except ServiceError as exc:
                        why = str(exc)
                    else:
                        self._publish(table)
                elif hello.token is None:
                    why = ""  # a browser that left its seat (its cookie) watches
            if seat is None and why:
                connection.push({"t": "refused", "why": why})
                connection.end(4403, "refused: " + why[:100])
                return False
        if self.bus is not None:
            await self.refresh(table)  # start from the truth: a message of the bus may have been lost
        connection.seat = seat
        connection.greeted = True
        connection.html = hello.html
        connection.sent_v = hello.v or 0
        table.connections.add(connection)
        connection.push({"t": "welcome", "seat": seat, "table": self.info(table), "chat": table.chat[-CHAT_SHOWN:]})
        if seat is not None:
            away = table.away.pop(seat, None)
            if away is not None:
                away.cancel()
            if table.seats[seat].zombie and table.status == "playing":
                await self._take_back(table, seat)
        self._send_view(table, connection, force=True)
        if table.status == "over":
            connection.told_over = True
            connection.push_text(self._over(table))
        self._publish_presence(table)
        self._send_presence(table)
        return True

    def disconnect(self, table: Table, connection: Connection) -> None:
        """A socket closed: after the grace period a bot takes the seat over."""
        table.connections.discard(connection)
        self.frames.forget(connection.key)
        self.pings.forget(connection.key)
        seat = connection.seat
        if self.closing or seat is None or not connection.greeted:
            return
        if table.status == "over" and not table.connections:
            self.tables.pop(table.id, None)  # finished and unwatched: reloaded from the store if asked for
            return
        self._publish_presence(table)
        self._watch_away(table, seat)
        self._send_presence(table)

    def _watch_away(self, table: Table, seat: int) -> None:
        """The owner starts the grace period of a human seat connected nowhere."""
        if not table.owned or table.status != "playing" or self._connected(table, seat):
            return
        if table.seats[seat].kind == "human" and not table.seats[seat].zombie and seat not in table.away:
            table.away[seat] = self._spawn(self._away(table, seat))

    async def _away(self, table: Table, seat: int) -> None:
        await asyncio.sleep(self.config.grace_s)
        table.away.pop(seat, None)
        if self._connected(table, seat) or table.status != "playing" or not table.owned:
            return
        await self._set_zombie(table, seat, f"{_seat_name(seat, table.seats[seat])} is away: a bot plays seat {seat}")

    async def _set_zombie(self, table: Table, seat: int, notice: str, **clock: Any) -> None:
        async with table.lock:
            if table.seats[seat].zombie:
                return
            try:
                await self._write(
                    _seat_update(table.id, seat, zombie=True, **clock), unrated(table.id), table_id=table.id
                )
            except ServiceError:
                return
            table.seats[seat].zombie = True
            if "clock_ms" in clock:
                table.seats[seat].clock_ms = clock["clock_ms"]
        log.info("bot takes over", extra={"event": "zombie", "table": table.id, "seat": seat})
        self._notice(table, notice)
        self._send_presence(table)
        self._after_change(table)

    async def _take_back(self, table: Table, seat: int) -> None:
        async with table.lock:
            clock: dict[str, Any] = {}
            if table.clock is not None:
                clock["clock_ms"] = max(table.seats[seat].clock_ms or 0, table.clock["bonus_ms"], RETURN_GRACE_MS)
            try:
                await self._write(_seat_update(table.id, seat, zombie=False, **clock), table_id=table.id)
            except ServiceError:
                return
            table.seats[seat].zombie = False
            if clock:
                table.seats[seat].clock_ms = clock["clock_ms"]
        self._notice(table, f"{_seat_name(seat, table.seats[seat])} is back at seat {seat}")
        self._after_change(table)

    async def _chat(self, table: Table, connection: Connection, text: str) -> None:
        seat = connection.seat
        if seat is None:
            connection.push({"t": "reject", "id": None, "why": "spectators cannot chat"})
            return
        verdict = self.chats.hit(f"{table.id}:{seat}")
        if not verdict.allowed:
            why = f"too many chat lines: at most {self.chats.item.amount} per {_window(self.chats)}"
            connection.push(
                {
                    "t": "reject",
                    "id": None,
                    "why": f"{why}; try again in {verdict.retry_after} s",
                    "retry_after": verdict.retry_after,
                }
            )
            return
        for _attempt in range(3):
            async with table.lock:
                now = time.time()
                try:
                    await self._write(
                        sa.insert(schema.chat).values(
                            table_id=table.id, seq=len(table.chat), seat=seat, text=text, at=now
                        ),
                        table_id=table.id,
                    )
                except Stale:
                    message = None  # another process stored a line first: re-read, then try again
                except ServiceError as exc:
                    connection.push({"t": "reject", "id": None, "why": f"not saved, so not sent: {exc}"})
                    return
                else:
                    message = _chat_message(seat, table.seats, text, now)
                    table.chat.append(message)
            if message is not None:
                break
            await self.refresh(table)
        else:
            connection.push({"t": "reject", "id": None, "why": "the table is busy: say it again"})
            return
        self._publish(table)
        for other in table.connections:
            if other.greeted:
                other.push({"t": "chat", **message})

    # -- other processes (``--redis``) ----------------------------------------------------------
    def _here(self, table: Table) -> set[int]:
        """Seats connected to this process or, as last heard, to another one."""
        here = {c.seat for c in table.connections if c.greeted and c.seat is not None}
        now = time.monotonic()
        for until, seats in table.remote.values():
            if until > now:
                here |= seats
        return here

    def _connected(self, table: Table, seat: int) -> bool:
        return seat in self._here(table)

    def _publish(self, table: Table, kind: str = "changed", **data: Any) -> None:
        """Tell the other processes that ``table`` changed (they re-read it) or pass a notice on."""
        if self.bus is not None and not self.closing:
            self._spawn(self.bus.publish(table.id, {"kind": kind, **data}))

    def _publish_presence(self, table: Table) -> None:
        if self.bus is not None:
            seats = sorted({c.seat for c in table.connections if c.greeted and c.seat is not None})
            self._publish(table, kind="presence", seats=seats)

    async def _on_bus(self, table_id: str, body: dict[str, Any]) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return  # not loaded here: it is read from the database when first asked for
        kind = body.get("kind")
        if kind == "changed":
            await self.refresh(table)
        elif kind == "notice" and isinstance(body.get("text"), str):
            data = body.get("data")
            self._notice(table, body["text"], relay=False, **(data if isinstance(data, dict) else {}))
        elif kind == "presence" and isinstance(body.get("seats"), list):
            before = self.presence(table)
            seats = frozenset(s for s in body["seats"] if isinstance(s, int) and 0 <= s < len(table.seats))
            table.remote[str(body.get("from"))] = (time.monotonic() + 2 * self.config.lease_s, seats)
            for seat in range(len(table.seats)):
                if seat in seats and seat in table.away:
                    table.away.pop(seat).cancel()
                else:
                    self._watch_away(table, seat)
            if self.presence(table) != before:
                self._send_presence(table)

    async def _resync(self) -> None:
        """The bus is back after an outage: re-read every table held here that may have changed
        meanwhile (a message may have been lost), as a seat's hello does."""
        for table in list(self.tables.values()):
            if table.status != "over" or table.connections:
                await self.refresh(table)

    async def refresh(self, table: Table) -> None:
        """Re-read ``table`` from the database (another process changed it) and send what is new."""
        async with table.lock:
            changed = await self._reread(table)
        if changed:
            self._after_change(table, local=False)
            self._send_presence(table)

    async def _reread(self, table: Table) -> bool:
        found = await self._fetch(sa.select(schema.tables).where(schema.tables.c.id == table.id))
        if not found:
            return False
        row = found[0]
        seat_rows = await self._fetch(
            sa.select(schema.seats).where(schema.seats.c.table_id == table.id).order_by(schema.seats.c.seat)
        )
        action_rows = await self._fetch(
            sa.select(schema.actions)
            .where(schema.actions.c.table_id == table.id, schema.actions.c.idx >= len(table.live.rows))
            .order_by(schema.actions.c.idx)
        )
        chat_rows = await self._fetch(
            sa.select(schema.chat)
            .where(schema.chat.c.table_id == table.id, schema.chat.c.seq >= len(table.chat))
            .order_by(schema.chat.c.seq)
        )
        changed = bool(action_rows or chat_rows)
        for seat, r in zip(table.seats, seat_rows, strict=False):
            now = (r["kind"], r["bot"], r["name"], r["key_hash"], bool(r["zombie"]), r["clock_ms"], r["left_hash"])
            if now != (seat.kind, seat.bot, seat.name, seat.key_hash, seat.zombie, seat.clock_ms, seat.left_hash):
                seat.kind, seat.bot, seat.name, seat.key_hash, seat.zombie, seat.clock_ms, seat.left_hash = now
                changed = True
        stored = (row["status"], row["returns"], row["rematch"], row["host_seat"])
        if stored != (table.status, table.returns, table.rematch, table.host_seat):
            table.status, table.returns, table.rematch, table.host_seat = stored
            changed = True
        if action_rows and action_rows[0]["idx"] == len(table.live.rows):
            rows = [(r["seat"], r["action"]) for r in action_rows]
            table.live.commit(await asyncio.to_thread(replayed, table.game, rows, table.live.state))
            earlier = table.live.rows[: -len(rows)]
            table.acked.update(_acked(earlier, [(r["seat"], r["action"], r["client_id"]) for r in action_rows]))
        for r in chat_rows:
            message = _chat_message(r["seat"], table.seats, r["text"], r["at"])
            table.chat.append(message)
            for connection in table.connections:
                if connection.greeted:
                    connection.push({"t": "chat", **message})
        return changed

    async def _acquire(self, table_id: str) -> bool:
        assert self.leases is not None
        try:
            return await self.leases.acquire(table_id)
        except StoreError as exc:
            raise Unavailable(str(exc)) from exc

    async def _lease_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_s / 3)
            try:
                await self._lease_tick()
            except (StoreError, ServiceError) as exc:
                log.warning("lease round failed", extra={"event": "lease_failed", "reason": str(exc)})

    async def _lease_tick(self) -> None:
        """Renew our leases, give up the ones lost, take over tables whose owner went away, say
        who is connected here, and re-read the tables watched here if the bus is down."""
        assert self.leases is not None and self.bus is not None
        mine = [t for t in self.tables.values() if t.owned and t.status != "over"]
        kept = await self.leases.renew([t.id for t in mine])
        for table in mine:
            if table.id not in kept:
                self._lose(table)
        for table_id in await self.leases.orphans():
            if await self._acquire(table_id):
                loaded = self.tables.get(table_id)
                if loaded is None:
                    await self.table(table_id)  # loads, replays and schedules its bots and clocks
                else:
                    await self._gain(loaded)
        for table in list(self.tables.values()):
            if table.connections:
                self._publish_presence(table)
                if not self.bus.healthy or await self._behind(table):
                    await self.refresh(table)  # Redis is down, or a message of it was lost

    async def _behind(self, table: Table) -> bool:
        """Whether the database holds actions this copy of ``table`` has not seen."""
        query = sa.select(sa.func.count()).select_from(schema.actions).where(schema.actions.c.table_id == table.id)
        rows = await self._fetch(query)
        return bool(rows) and int(next(iter(rows[0].values()))) != len(table.live.rows)

    async def _gain(self, table: Table) -> None:
        log.info("table taken over", extra={"event": "takeover", "table": table.id})
        table.owned = True
        table.clock_for = None  # the clock of the decision in progress starts again here
        await self.refresh(table)
        self._after_change(table, local=False)
        for seat in range(len(table.seats)):
            self._watch_away(table, seat)

    def _lose(self, table: Table) -> None:
        log.warning("lease lost", extra={"event": "lease_lost", "table": table.id})
        table.owned = False
        for task in [table.bot_task, table.clock_task, *table.away.values()]:
            if task is not None:
                task.cancel()
        table.away.clear()
        table.clock_for = None

    # -- bots and clocks ------------------------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        if table.status != "playing" or self.closing or not table.owned:
            return
        player = table.game.current_player(table.live.state)
        if player < 0:
            return
        decision = (player, len(table.live.rows))
        seat = table.seats[player]
        if seat.kind == "bot" or seat.zombie or table.skip_once == decision:
            if table.bot_task is None or table.bot_task.done():
                table.bot_task = self._spawn(self._bot_move(table, player, len(table.live.rows)))
            return
        if table.clock is not None and table.clock_for != decision:
            if table.clock_task is not None:
                table.clock_task.cancel()
            table.clock_for = decision
            table.turn_started = time.monotonic()
            table.clock_task = self._spawn(self._timeout(table, decision, (seat.clock_ms or 0) / 1000))

    async def _bot_move(self, table: Table, seat: int, at: int) -> None:
        stale = False
        try:
            if self.config.bot_delay_s:
                await asyncio.sleep(self.config.bot_delay_s)
            state = table.live.state
            bot = table.seats[seat].bot or self.config.default_bot
            spec = run_spec(bot, self.config.default_bot, self.config.bot_budget_s)
            legal = table.game.legal_actions(state)
            action = await self.bots.choose(table.game, spec, seat, table.game.observe(state, seat), legal)
            async with table.lock:
                if len(table.live.rows) == at and table.status == "playing":
                    steps = plan(table.game, state, seat, action)
                    try:
                        await self._persist(table, steps, None)
                    except Stale:
                        stale = True  # another process moved first: re-read, then decide again
                    except ServiceError:
                        await asyncio.sleep(1.0)  # the store is down: nothing was lost, try again
                    else:
                        if table.skip_once == (seat, at):
                            table.skip_once = None
                        self._commit(table, steps)
        finally:
            table.bot_task = None
        if stale:
            await self.refresh(table)
        self._after_change(table)

    def _spent_clock(self, table: Table, seat: int) -> int | None:
        """The time ``seat`` has left after deciding now (bonus added), or ``None`` without a clock."""
        if table.clock is None or table.seats[seat].clock_ms is None:
            return None
        running = table.clock_for == (seat, len(table.live.rows))
        elapsed = int((time.monotonic() - table.turn_started) * 1000) if running else 0
        return max(0, (table.seats[seat].clock_ms or 0) - elapsed) + int(table.clock["bonus_ms"])

    async def _timeout(self, table: Table, decision: tuple[int, int], seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))
        seat, at = decision
        if table.clock_for != decision or len(table.live.rows) != at or table.status != "playing":
            return
        assert table.clock is not None
        table.clock_for = None
        name = _seat_name(seat, table.seats[seat])
        if table.clock["on_timeout"] == "bot":
            await self._set_zombie(table, seat, f"{name} ran out of time: a bot plays seat {seat}", clock_ms=0)
            return
        bonus = int(table.clock["bonus_ms"])
        async with table.lock:
            with contextlib.suppress(ServiceError):
                await self._write(_seat_update(table.id, seat, clock_ms=bonus), unrated(table.id), table_id=table.id)
            table.seats[seat].clock_ms = bonus
            table.skip_once = decision
        self._notice(table, f"{name} ran out of time: a bot makes this move for seat {seat}")
        self._after_change(table)

    def _clock_view(self, table: Table, seat: int | None) -> dict[str, Any] | None:
        if table.clock is None or seat is None or table.seats[seat].clock_ms is None:
            return None
        left = table.seats[seat].clock_ms or 0
        running = table.clock_for is not None and table.clock_for[0] == seat and table.status == "playing"
        if running:
            left = max(0, left - int((time.monotonic() - table.turn_started) * 1000))
        return {"ms_left": left, "running": running, **(_public_clock(table.clock) or {})}


# -- helpers --------------------------------------------------------------------------------------
def _finished_record(table: Table) -> GameRecord:
    """The full record of a finished table: every action, no seed (the draws came from the OS)."""
    game, state = table.game, table.live.state
    return GameRecord(
        game=game.spec.id,
        version=game.spec.version,
        players=game.players,
        options=dict(game.options),
        seats=[_seat_name(i, seat) for i, seat in enumerate(table.seats)],
        actions=table.live.actions,
        seed=None,
        returns=list(game.returns(state)),
        truncated=False,
        metadata={"table": table.id, **game.summary(state)},
    )


def _acked(
    earlier: list[tuple[int, int]], rows: list[tuple[int, int, str | None]]
) -> dict[tuple[int, str], tuple[int, int]]:
    """The act ids of stored ``rows`` (seat, action, client id), following the ``earlier`` rows of
    the log: (seat, id) -> (turn, action), the turn being the seat's decisions before it."""
    decisions: dict[int, int] = {}
    for seat, _ in earlier:
        decisions[seat] = decisions.get(seat, 0) + 1
    out: dict[tuple[int, str], tuple[int, int]] = {}
    for seat, action, client_id in rows:
        if client_id is not None:
            out[(seat, client_id)] = (decisions.get(seat, 0), action)
        decisions[seat] = decisions.get(seat, 0) + 1
    return out


def _same_decision(done: tuple[int, int], act: Act) -> bool:
    """Whether ``act`` repeats the decision ``done`` (turn, action) it was acknowledged for (a
    resent notation is taken at its turn: its words were read against that turn's state)."""
    turn, action = done
    return act.turn == turn and (act.action is None or act.action == action)


def _window(throttle: Throttle) -> str:
    """A throttle's window in words (``2 seconds``)."""
    item = throttle.item
    unit = item.GRANULARITY.name
    return f"{item.multiples} {unit}s" if item.multiples != 1 else unit


def _new_game(game_id: str, players: int, options: dict[str, Any]) -> Game[Any]:
    """The game a new table plays; :class:`ServiceError` for an unknown game, player count or
    option (``players`` is the table's own field, never an option)."""
    if "players" in options:
        raise ServiceError("options: 'players' is not a game option (the player count is the table's 'players')")
    try:
        return make(game_id, players=players, **options)
    except ShadowTableError as exc:
        raise ServiceError(str(exc)) from exc
    except (TypeError, ValueError) as exc:
        raise ServiceError(f"options: not accepted by {game_id}: {str(exc)[:200]}") from exc


def _seats(specs: list[str], game: Game[Any], default_bot: str | None = None) -> list[Seat]:
    """The seats of a new table: ``human`` or ``bot:<level>`` (``default_bot``, if given, too);
    nothing is loaded to check a bot (its level says what it plays)."""
    players = game.players
    if len(specs) != players:
        raise ServiceError(f"seats: expected {players} entries (human or bot:<level>), got {len(specs)}")
    seats = []
    for i, spec in enumerate(specs):
        if spec == "human":
            seats.append(Seat("human", None, None, None))
            continue
        kind, _, bot = spec.partition(":")
        if kind != "bot" or not bot:
            raise ServiceError(f"seats[{i}]: expected 'human' or 'bot:<level>', got {spec[:40]!r}")
        if bot != default_bot:
            try:
                check_seat_bot(bot, game.spec.id, players)  # refused now, not at its first decision
            except ShadowTableError as exc:
                raise ServiceError(f"seats[{i}]: {exc}") from exc
        seats.append(Seat("bot", bot, None, None))
    return seats


def _clock(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    if clock is None:
        return None
    initial, bonus, policy = clock.get("initial_s"), clock.get("bonus_s", 0), clock.get("on_timeout", "bot")
    for name, value, low in (("initial_s", initial, 1), ("bonus_s", bonus, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 7 * 24 * 3600:
            raise ServiceError(f"clock.{name}: expected whole seconds from {low} to 604800")
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(f"clock.on_timeout: expected one of {', '.join(TIMEOUT_POLICIES)}")
    assert isinstance(initial, int) and isinstance(bonus, int)
    return {"initial_ms": initial * 1000, "bonus_ms": bonus * 1000, "on_timeout": policy}


def _public_clock(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    if clock is None:
        return None
    return {
        "initial_s": clock["initial_ms"] // 1000,
        "bonus_s": clock["bonus_ms"] // 1000,
        "on_timeout": clock["on_timeout"],
    }


def display_name(name: str | None, seat: int) -> str:
    """The name shown for a player (``Player N`` when none is given); :class:`ServiceError` if unfit."""
    shown = " ".join((name or "").split())
    if not shown:
        return default_name(seat)
    if len(shown) > NAME_LIMIT or not shown.isprintable():
        raise ServiceError(f"name: 1 to {NAME_LIMIT} printable characters")
    return shown


def _seat_name(index: int, seat: Seat) -> str:
    if seat.kind == "bot":
        return f"bot {seat.bot}"
    return seat.name or f"Player {index + 1}"


def _seat_info(index: int, seat: Seat) -> dict[str, Any]:
    return {
        "seat": index,
        "kind": seat.kind,
        "bot": seat.bot,
        "name": _seat_name(index, seat),
        "taken": seat.taken,
        "bot_playing": seat.kind == "bot" or seat.zombie,
        "vacated": seat.vacated,
    }


def _seat_row(table_id: str, index: int, seat: Seat) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": index,
        "kind": seat.kind,
        "bot": seat.bot,
        "name": seat.name,
        "key_hash": seat.key_hash,
        "zombie": seat.zombie,
        "clock_ms": seat.clock_ms,
        "left_hash": seat.left_hash,
    }


def _seat_update(table_id: str, seat: int, **values: Any) -> sa.Executable:
    return (
        sa.update(schema.seats).where(schema.seats.c.table_id == table_id, schema.seats.c.seat == seat).values(**values)
    )


def _chat_message(seat: int, seats: list[Seat], text: str, at: float) -> dict[str, Any]:
    return {"seat": seat, "name": _seat_name(seat, seats[seat]), "text": text, "at": at}


SendText = Callable[[str], Awaitable[None]]


def _claim(table_id: str, seat: int, key: str, name: str, account_id: str | None, invite: str | None) -> sa.Executable:
    """Give ``seat`` the hash of ``key`` only if it is still free (another process may have seated
    someone a moment ago) or, with ``invite``, still vacated with that live invite (used up here)."""
    where = [schema.seats.c.table_id == table_id, schema.seats.c.seat == seat, schema.seats.c.key_hash.is_(None)]
    values: dict[str, Any] = {"key_hash": key_hash(key), "name": name, "account_id": account_id}
    if invite is None:
        where += [schema.seats.c.kind == "human", schema.seats.c.zombie.is_(False)]
    else:
        where += [
            schema.seats.c.zombie.is_(True),
            schema.seats.c.invite_hash == key_hash(invite),
            schema.seats.c.invite_expires > time.time(),
        ]
        values.update(left_hash=None, invite_hash=None, invite_expires=None)
    return sa.update(schema.seats).where(*where).values(**values).returning(schema.seats.c.seat)
