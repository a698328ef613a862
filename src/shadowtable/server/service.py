"""The table service: the facade the routes call, composed of the server's parts.

Each table is a single writer: every change takes the table's lock, is worked out without
touching the table (:mod:`~shadowtable.server.master`), is **stored**
(:mod:`~shadowtable.server.repository`), then acknowledged, then made the table's own, and only
then does every connection get its new view (:mod:`~shadowtable.server.sending`).  The
``actions`` rows are the truth; a table not in memory is rebuilt by replaying them.  Sockets,
presence, timers and the other processes each have their own module (``docs/server.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.core.undo import UNDO_SEAT
from shadowtable.server import master, turn_clock
from shadowtable.server.bots import BotRunner
from shadowtable.server.config import ServerConfig
from shadowtable.server.connections import Connection, refuse_seat
from shadowtable.server.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    Stale,
    TooManyTurnTables,
    Unavailable,
)
from shadowtable.server.live import LiveTable, Step, replayed
from shadowtable.server.names import default_name, name_key, reserved_problem
from shadowtable.server.new_table import (
    SERVER_REFUSED_OPTIONS,
    NewTable,
    display_name,
    new_clock,
    new_game,
    new_pace,
    new_seats,
    new_turn,
    refuse_server_options,
)
from shadowtable.server.notify_turns import notify_turn, queued_kinds
from shadowtable.server.presence import SeatPresence, presence, send_presence
from shadowtable.server.protocol import Act, Undo
from shadowtable.server.repository.tables import (
    Repository,
    TableRows,
    append_steps,
    append_undo,
    claim_seat,
    end_reservation,
    game_over,
    insert_seats,
    insert_table,
    invite_to_seat,
    restore_seat,
    table_unrated,
    update_seat,
    update_table,
)
from shadowtable.server.reservations import Reservation
from shadowtable.server.sending import Renderer, Sender, notify, view
from shadowtable.server.sockets import Sockets
from shadowtable.server.store import Statement, Store
from shadowtable.server.sync import TableSync
from shadowtable.server.table import (
    LiveGame,
    Seat,
    StoredTable,
    Table,
    acked_ids,
    chat_message,
    deciding,
    finished_record,
    info,
    seat_name,
)
from shadowtable.server.timers import Timers
from shadowtable.server.tokens import SeatClaim, SeatTokens, TokenError, key_hash, matches, new_key

__all__ = [
    "SERVER_REFUSED_OPTIONS",
    "Connection",
    "TurnChange",
    "NewTable",
    "Renderer",
    "Seat",
    "Table",
    "TableService",
    "display_name",
]

log = logging.getLogger("shadowtable.server")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
INVITE_TTL_S = 24 * 3600
"""How long an invite link to a vacated seat may be used (once)."""


@dataclass(frozen=True)
class TurnChange:
    """The seats a table waits for changed after a stored move (or its start, or its end): what
    :attr:`TableService.on_turn` hooks are called with."""

    table_id: str
    seats: tuple[int, ...]
    """The seats to decide now (empty: the game is over)."""
    mode: str
    """``realtime`` or ``turn-based``."""
    steps: int
    """The table's version once the move is stored."""


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
        self.store = store
        self.tokens = tokens
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.on_over: list[Callable[[str], Awaitable[Any]]] = []
        """Called with a table's id once its end is stored (the ratings); each in its own task."""
        self.on_turn: list[Callable[[TurnChange], Awaitable[Any]]] = []
        """Called with a :class:`TurnChange` once a stored change makes other seats decide (the
        notifications); each in its own task, in the process that stored the change."""
        self.repository = Repository(store)
        self.sender = Sender(renderer)
        self.sync = TableSync(self, config, self.repository)
        self.timers = Timers(self, config, bots, self.repository)
        self.sockets = Sockets(self, config, self.repository)
        self.notify_kinds = queued_kinds(config)
        self.notify_wake: Callable[[], None] = lambda: None
        """Called once a stored move queued notifications (the sender delivers them)."""

    @property
    def renderer(self) -> Renderer | None:
        return self.sender.renderer

    async def start(self) -> None:
        """Join the other processes (with ``--redis``): listen on the bus, keep and take leases."""
        await self.sync.start()

    # -- life -----------------------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Load every table in play (replaying its actions) so its bots and clocks go on.  With
        several processes each table goes to whichever process's lease round finds it orphaned."""
        if self.sync.leases is not None:
            return 0
        playing = await self.repository.playing_ids()
        for table_id in playing:
            with contextlib.suppress(ServiceError):
                await self.table(table_id)
        return len(playing)

    async def stop(self) -> None:
        """Stop bots, clocks and sockets; queued writes are finished by the store's close; leases
        are given up so another process takes this one's tables over at once."""
        self.closing = True
        await self.sync.stop(list(self.tables.values()))
        for table in self.tables.values():
            table.timers.cancel()
            for connection in table.connections:
                connection.push({"t": "notice", "text": "the server is restarting: reconnect in a moment"})
                connection.end(1012, "the server is restarting")
        for task in list(self._tasks):
            task.cancel()

    def spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``work`` in a task of this service (cancelled when it stops)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- tables ---------------------------------------------------------------------------------
    async def create(
        self, new: NewTable, *, default_bot_seats: bool = False, kept: dict[int, Reservation] | None = None
    ) -> Table:
        """Create, store and return a table; :class:`ServiceError` for a bad request.  Seats are
        bot levels only, and with ``default_bot_seats`` (a rematch) also the server's default bot;
        ``kept``: the seats a rematch keeps for their former holders."""
        refuse_server_options(new.options)
        game = new_game(new.game, new.players, new.options)
        seats = new_seats(new.seats, game, self.config.default_bot if default_bot_seats else None)
        for i, reservation in (kept or {}).items():
            if seats[i].kind == "human":
                seats[i].reserved = reservation
        turn = new_turn(new.mode, new.turn, new.clock)
        clock = new_clock(new.clock)
        if clock is not None:
            for seat in seats:
                seat.clock_ms = clock["initial_ms"] if seat.kind == "human" else None
        if turn is not None:
            for seat in seats:
                seat.reserve_ms = turn["reserve_s"] * 1000 if seat.kind == "human" else None
        stored = StoredTable(
            secrets.token_urlsafe(9),
            "open",
            clock,
            new.listed,
            time.time(),
            seats,
            pace=new_pace(new.pace),
            undo=bool(new.undo),
            turn=turn,
        )
        table = Table(stored, LiveGame(game, LiveTable.new(game)))
        table.timers.now, table.timers.announced = self.config.now, ()  # nobody decides before the start
        fields = {"game": game.spec.id, "version": game.spec.version, "players": game.players}
        fields.update(options=game.options, status="open", clock=clock, listed=new.listed, created_at=stored.created_at)
        fields.update(pace=stored.pace, undo=stored.undo, mode=stored.mode, turn=turn)
        if stored.undo:
            fields.update(rated=False)  # a table that allows undo is never rated (docs/play.md)
        await self.repository.write(insert_table(stored.id, fields), insert_seats(stored.id, seats), table_id=stored.id)
        if self.sync.leases is not None:
            # owned by the process its seats reach first (nginx hashes a table's pages and sockets
            # to one process), not necessarily the one that answered the creation
            table.sockets.owned = False
        self.tables[stored.id] = table
        log.info("table created", extra={"event": "create", "table": stored.id, "game": game.spec.id})
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
            if self.sync.leases is not None and table.status != "over":
                table.sockets.owned = await self.sync.acquire(table_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved here, so an unawaited failure is not reported twice
            raise
        finally:
            self._loading.pop(table_id, None)
        future.set_result(table)
        self.tables[table_id] = table
        table.timers.now = self.config.now
        table.timers.announced = deciding(table)  # told before it was loaded here
        self.after_change(table, local=False)
        return table

    async def _load(self, table_id: str) -> Table:
        rows = await self.repository.table_rows(table_id)
        if rows is None:
            raise NotFound("no such table")
        row = rows.table
        try:
            game = make(row["game"], players=row["players"], **row["options"])
        except ShadowTableError as exc:
            raise Unavailable(f"table {table_id} cannot be played by this server: {exc}") from exc
        live = LiveTable.new(game)
        stored = [(r["seat"], r["action"]) for r in rows.actions]
        try:
            if any(seat == UNDO_SEAT for seat, _ in stored):
                await asyncio.to_thread(live.replay_log, stored)  # nobody sees this table yet
            else:
                live.commit(await asyncio.to_thread(replayed, game, stored))
        except ShadowTableError as exc:
            log.error("table does not replay", extra={"event": "load_failed", "table": table_id})
            raise Unavailable(f"table {table_id} does not replay on this server: {exc}") from exc
        acked = acked_ids([], [(r["seat"], r["action"], r["client_id"]) for r in rows.actions])
        table = Table(_stored_table(table_id, rows), LiveGame(game, live, acked))
        log.info("table replayed", extra={"event": "load", "table": table_id, "steps": len(stored)})
        return table

    def info(self, table: Table) -> dict[str, Any]:
        """What anyone may know of a table: the lobby's and the REST API's description."""
        return info(table)

    async def lobby(self, status: str, limit: int) -> list[dict[str, Any]]:
        """Listed tables with ``status`` (``open``: waiting for players), newest first."""
        out = []
        for table_id in await self.repository.listed_ids(status, limit):
            with contextlib.suppress(ServiceError):
                out.append(info(await self.table(table_id)))
        return out

    async def record(self, table_id: str) -> GameRecord:
        """The full record of a finished table (refused before the end: it holds every secret)."""
        table = await self.table(table_id)
        if table.status != "over":
            raise Conflict("the record is available once the game is over")
        return finished_record(table)

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
        if await self.repository.is_account_name(name_key(shown)):
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
        proofs: Sequence[str] = (),
        browser_tables: Collection[str] = (),
    ) -> tuple[Table, int, str]:
        """Sit at a free seat (``wanted`` or the first one), or at the vacated seat an ``invite`` code
        names (used up here), as the signed-in ``account_id`` if any; returns the table, seat and token.

        ``holder`` is the token the asker already holds for this table, if any: sitting at a second
        seat is refused unless ``move`` (before the game starts), which frees the first seat and
        carries its host rights over in the same transaction.  ``as_host``: the seat taken is the
        table's host seat unless the table has one.  ``proofs``: seat tokens of other tables the
        asker holds (a seat a rematch keeps for the player who held it is theirs to take).  At a
        turn-based table a new seat is refused past :attr:`ServerConfig.max_turn_tables`
        (:meth:`check_turn_tables`; a guest is counted by ``browser_tables``, the tables its
        browser holds seats at)."""
        table = await self._current(table_id)
        if table.stored.turn is not None and self.held_seat(table, holder) is None:
            await self.check_turn_tables(account_id, [t for t in browser_tables if t != table.id])
        async with table.lock:
            if table.status == "over":
                raise Conflict("the game is over")
            current = self.held_seat(table, holder)
            now = time.time()
            kept = master.kept_seats(table, now, account_id, self.claims(proofs))
            if invite is not None:
                seat = master.invited(await self._invited_seat(table, invite), current)
            else:
                seat = master.free_seat(table, wanted, current, move=move, kept=kept, now=now)
            if current is not None and name is None and table.seats[current].name != default_name(current):
                shown = display_name(table.seats[current].name, seat)  # moving keeps the name
            else:
                shown = await self.seat_name(name, seat, account_id)
            key = new_key()
            host = master.host_after_join(table, seat, current, as_host=as_host)
            then = (
                [] if current is None else [update_seat(table.id, current, key_hash=None, name=None, account_id=None)]
            )
            if host != table.host_seat:
                then.append(update_table(table.id, host_seat=host))
            claim = claim_seat(table.id, seat, key, shown, account_id, invite, kept_for_me=seat in kept.mine)
            if not await self.repository.guarded(claim, *then):
                raise Conflict(
                    master.INVALID_INVITE if invite is not None else f"seat {seat} was taken a moment ago: try again"
                )
            master.sit(table, seat, key_hash(key), shown, current, host)
            starts = master.full(table)
        log.info("seat joined", extra={"event": "join", "table": table.id, "seat": seat})
        if current is not None:
            refuse_seat(table.connections, current, f"you moved to seat {seat}", "you moved to another seat")
        if starts:
            await self._start_game(table)
        self.sync.publish(table)
        send_presence(table)
        return table, seat, self.tokens.issue(table.id, seat, key)

    async def check_turn_tables(self, account_id: str | None, browser_tables: Collection[str]) -> None:
        """:class:`TooManyTurnTables` if the account (a guest: its browser's ``browser_tables``)
        sits at :attr:`ServerConfig.max_turn_tables` turn-based tables not over already."""
        most = self.config.max_turn_tables
        held = list(browser_tables)[: max(1, self.config.seat_cookie_max)]
        if most and await self.repository.turn_tables_of(account_id, held) >= most:
            raise TooManyTurnTables(
                f"you sit at {most} turn-based tables already (the most allowed): finish or leave one first"
            )

    async def set_away(self, table_id: str, token: object, days: object) -> Table:
        """The seat ``token`` holds at a turn-based table takes ``days`` of vacation (0: it ends now),
        within what the table allows (:func:`~shadowtable.server.turn_clock.vacation`); everyone is told."""
        table = await self._current(table_id)
        async with table.lock:
            index = self.claim(table, token).seat
            rules, seat = table.stored.turn, table.seats[index]
            if rules is None:
                raise Conflict("vacation is for turn-based tables")
            if table.status == "over":
                raise Conflict("the game is over")
            now = self.config.now()
            changes = turn_clock.vacation(rules, seat, days, now)
            await self.repository.write(update_seat(table.id, index, **changes), table_id=table.id)
            turn_clock.apply(seat, changes)
        name = seat_name(index, seat)
        if turn_clock.away(seat, now):
            self.notice(table, f"{name} is on vacation: their clock waits for {days} days")
        else:
            self.notice(table, f"{name} is back from vacation")
        self.after_change(table)
        return table

    async def _current(self, table_id: str) -> Table:
        """The table ``table_id`` with its seats as they are now, whichever process changed them."""
        table = await self.table(table_id)
        if self.sync.bus is not None:
            await self.refresh(table)
        return table

    def claims(self, tokens: Sequence[str]) -> list[SeatClaim]:
        """The claims of the genuine, unexpired ``tokens`` (at most the seat cookie's worth)."""
        found = []
        for token in list(tokens)[: max(1, self.config.seat_cookie_max) + 1]:
            with contextlib.suppress(TokenError):
                found.append(self.tokens.read(token))
        return found

    async def decline(self, table_id: str, account_id: str | None, proofs: Sequence[str]) -> Table:
        """The player a rematch keeps a seat for declines it: the seat is free to anyone."""
        table = await self._current(table_id)
        async with table.lock:
            kept = master.kept_seats(table, time.time(), account_id, self.claims(proofs))
            if not kept.mine:
                raise Conflict("no seat of this table is kept for you")
            await self.repository.write(*(end_reservation(table.id, i) for i in kept.mine), table_id=table.id)
            for i in kept.mine:
                table.seats[i].reserved = None
        log.info("rematch seat declined", extra={"event": "decline", "table": table.id})
        self.sync.publish(table)
        send_presence(table)
        self.after_change(table)
        return table

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
        seat = await self.repository.invited_seat(table.id, code)
        return seat if table.status == "playing" else None

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
        table = await self._current(table_id)
        async with table.lock:
            seat = await self.take_back_seat(table, token)
        self.sync.publish(table)
        send_presence(table)
        self.after_change(table)
        return table, seat

    async def take_back_seat(self, table: Table, token: object) -> int:
        """Under the table's lock: give the leaver's key back to the seat they left."""
        seat = self.left_seat(table, token)
        if seat is None:
            self.claim(table, token)  # Forbidden with the reason (forged, expired, another table, ...)
            raise Conflict("you hold your seat already")
        left = table.seats[seat].left_hash
        if not await self.repository.guarded(restore_seat(table.id, seat, left)):
            raise Conflict("the seat was taken a moment ago")
        table.seats[seat].key_hash, table.seats[seat].left_hash = left, None
        log.info("seat taken back", extra={"event": "take_back", "table": table.id, "seat": seat})
        return seat

    async def invite(self, table_id: str, token: object, seat: int) -> tuple[str, float]:
        """A fresh single-use invite code to the vacated ``seat`` (only the host may ask); returns the
        code (stored only as its hash; a newer invite replaces it) and when it expires."""
        table = await self._current(table_id)
        async with table.lock:
            if self.claim(table, token).seat != table.host_seat:
                raise Forbidden("only the table's host (the player who created it) can invite to a seat")
            if not 0 <= seat < len(table.seats):
                raise ServiceError(f"seat must be between 0 and {len(table.seats) - 1}")
            if table.status != "playing" or not table.seats[seat].vacated:
                raise Conflict(f"seat {seat} is not a seat a bot plays since its player left it")
            code = secrets.token_urlsafe(18)
            expires = time.time() + INVITE_TTL_S
            if not await self.repository.guarded(invite_to_seat(table.id, seat, code, expires)):
                raise Conflict(f"seat {seat} was taken a moment ago")
        log.info("seat invite made", extra={"event": "invite", "table": table.id, "seat": seat})
        return code, expires

    async def leave(self, table_id: str, token: object) -> Table:
        """Give up a seat: its token is revoked; in play a bot takes the seat over and the seat is
        kept for the leaver (their token takes it back) or someone the host invites."""
        table = await self._current(table_id)  # the seat may have been taken through another process
        async with table.lock:
            leaving = master.leaving(table, self.claim(table, token).seat)
            extra = [table_unrated(table.id)] if leaving.playing else []
            if leaving.host != table.host_seat:
                extra.append(update_table(table.id, host_seat=None))  # whoever sits here next is not its host
            await self.repository.write(
                update_seat(table.id, leaving.seat, **leaving.seat_changes()), *extra, table_id=table.id
            )
            notices = master.vacate(table, leaving)
        refuse_seat(table.connections, leaving.seat, "you left this seat")
        for text in notices:
            self.notice(table, text)
        send_presence(table)
        self.after_change(table)
        return table

    async def start_now(self, table_id: str, token: object) -> Table:
        """Start an open table, bots taking the seats nobody joined."""
        table = await self.table(table_id)
        async with table.lock:
            self.claim(table, token)
            if table.status != "open":
                raise Conflict("the game has already started")
            refusal = master.start_refusal(table, time.time())
            if refusal is not None:
                raise Conflict(refusal)
            free, bot = master.free_seats(table), self.config.default_bot
            if free:
                bots = [update_seat(table.id, i, kind="bot", bot=bot, clock_ms=None, reserve_ms=None) for i in free]
                await self.repository.write(*bots, table_id=table.id)
            master.bots_take(table, free, bot)
        await self._start_game(table)
        send_presence(table)
        return table

    async def rematch(self, table_id: str, token: object) -> Table:
        """The table of the rematch of a finished game (created by the first to ask)."""
        table = await self.table(table_id)
        async with table.lock:
            self.claim(table, token)
            new_table = master.rematch_table(table, self.config.default_bot)
            if table.stored.rematch is not None:
                return await self.table(table.stored.rematch)
            until = time.time() + self.config.rematch_keep_s
            kept = master.rematch_reservations(table, await self.repository.seat_accounts(table.id), until)
            new = await self.create(new_table, default_bot_seats=True, kept=kept)
            await self.repository.write(update_table(table.id, rematch=new.id), table_id=table.id)
            table.stored.rematch = new.id
        self.sync.publish(table)
        self.notice(table, "a rematch is open", rematch=new.id)
        return new

    # -- the write path -------------------------------------------------------------------------
    async def persist(self, table: Table, steps: Sequence[Step], client_id: str | None, *extra: Statement) -> None:
        """Store ``steps`` (and ``extra``) in one transaction; the game's end goes with them, and so
        do the notifications of the seats they hand the decision to (:func:`notify_turn`)."""
        now = time.time()
        statements: list[Statement] = [append_steps(table.id, table.steps, steps, client_id, now)] if steps else []
        returns = master.ending(table, list(steps))
        if returns is not None:
            statements.append(game_over(table.id, returns, now))
        per_account = self.config.notify_account_queue
        notifications = notify_turn(table, steps, self.notify_kinds, per_account=per_account, now=now)
        await self.repository.write(*statements, *extra, *notifications, table_id=table.id)
        if notifications:
            self.notify_wake()

    def commit(self, table: Table, steps: list[Step]) -> None:
        """Make stored ``steps`` the table's own; a game they end is announced to ``on_over``."""
        if master.commit(table, steps):
            log.info("game over", extra={"event": "over", "table": table.id})
            for hook in self.on_over:
                self.spawn(hook(table.id))

    async def _start_game(self, table: Table) -> None:
        async with table.lock:
            if table.status != "open":
                return
            steps = master.opening(table)
            try:
                await self.persist(table, steps, None, update_table(table.id, status="playing"))
            except Stale:
                started = False  # another process started it first
            else:
                started = True
                table.stored.status = "playing"
                self.commit(table, steps)
        if not started:
            await self.refresh(table)
            return
        log.info("game started", extra={"event": "start", "table": table.id})
        self.after_change(table)
        for seat in range(len(table.seats)):
            self.timers.watch_away(table, seat)  # a seat that left before the start: its grace starts now

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
        self.after_change(table)

    async def _act_once(self, table: Table, connection: Connection, seat: int, act: Act) -> None:
        async with table.lock:
            answer = master.repeated(table, seat, act)
            if answer is not None:
                connection.push(answer)
                return
            why = master.refusal(table, seat, act)
            if why is not None:
                self._reject(table, connection, act.id, why)
                return
            try:
                move = master.decide(table, seat, act, self.config.now())
            except ShadowTableError as exc:
                self._reject(table, connection, act.id, str(exc))
                return
            changes = [update_seat(table.id, seat, **move.seat_changes)] if move.seat_changes else []
            try:
                await self.persist(table, move.steps, act.id, *changes)
            except Stale:
                raise
            except ServiceError as exc:
                self._reject(table, connection, act.id, f"not saved, so not played: {exc}")
                return
            notices = master.acknowledge(table, move, act)
            connection.push({"t": "ack", "id": act.id})
            for text in notices:
                self.notice(table, text)
            self.commit(table, move.steps)

    async def undo(self, table: Table, connection: Connection, undo: Undo) -> None:
        """A seat takes back its last decisions: checked, stored as an undo row, acknowledged, then
        everyone is told (by name) and shown the view it goes back to."""
        seat = connection.seat
        for _attempt in range(3):
            try:
                async with table.lock:
                    why = master.undo_refusal(table, seat, undo.count)
                    if why is not None or seat is None:
                        self._reject(table, connection, undo.id, why or "spectators cannot undo")
                        return
                    try:
                        await self.repository.write(
                            append_undo(table.id, table.steps, undo.count, time.time()), table_id=table.id
                        )
                    except Stale:
                        raise
                    except ServiceError as exc:
                        self._reject(table, connection, undo.id, f"not saved, so not undone: {exc}")
                        return
                    connection.push({"t": "ack", "id": undo.id})
                    text = master.take_back(table, seat, undo.count)
            except Stale:
                await self.refresh(table)
                continue
            break
        else:
            self._reject(table, connection, undo.id, "the table is busy: try again")
            return
        log.info("undo", extra={"event": "undo", "table": table.id, "seat": seat})
        self.notice(table, text, undo=seat)
        self.after_change(table)

    def _reject(self, table: Table, connection: Connection, act_id: str | None, why: str) -> None:
        connection.push({"t": "reject", "id": act_id, "why": why})
        self.sender.send_view(table, connection, force=True)

    # -- what is sent ---------------------------------------------------------------------------
    def after_change(self, table: Table, *, local: bool = True) -> None:
        """Send every connection its new view; a change made here is announced to the other
        processes (``local``), which re-read the table from the database."""
        if local:
            self.sync.publish(table)
            self._announce_turn(table)
        self.timers.schedule(table)  # first, so the views show the clock that now runs
        if table.status == "over":
            table.timers.cancel(bot=False)
        self.sender.send_views(table)

    def _announce_turn(self, table: Table) -> None:
        """Call the :attr:`on_turn` hooks if the seats the table waits for changed."""
        now = deciding(table)
        if now == table.timers.announced:
            return
        table.timers.announced = now
        change = TurnChange(table.id, now, table.stored.mode, table.steps)
        for hook in self.on_turn:
            self.spawn(hook(change))

    def notice(self, table: Table, text: str, **data: Any) -> None:
        """Show a notice to everyone at ``table``, on this process and the others."""
        notify(table, text, **data)
        self.sync.publish(table, kind="notice", text=text, data=data)

    def view(self, table: Table, seat: int | None, since: int) -> dict[str, Any]:
        """The view message of ``seat`` with the events after version ``since``."""
        return view(table, seat, since)

    def view_text(self, table: Table, seat: int | None, since: int, *, html: bool = False) -> str:
        """:meth:`view` encoded (``html``: with the page's fragments), built once per version and
        audience (:meth:`Sender.view_text`)."""
        return self.sender.view_text(table, seat, since, html=html)

    def presence(self, table: Table) -> list[SeatPresence]:
        """Who sits where and who is connected (public)."""
        return presence(table)

    # -- sockets and other processes ------------------------------------------------------------
    async def receive(self, table: Table, connection: Connection, frame: str | bytes) -> bool:
        """Handle one frame (:meth:`Sockets.receive`); ``False`` when the connection must close."""
        return await self.sockets.receive(table, connection, frame)

    def disconnect(self, table: Table, connection: Connection) -> None:
        """A socket closed: after the grace period a bot takes the seat over."""
        self.sockets.disconnect(table, connection)

    async def refresh(self, table: Table) -> None:
        """Re-read ``table`` from the database (another process changed it) and send what is new."""
        await self.sync.refresh(table)


def _stored_table(table_id: str, rows: TableRows) -> StoredTable:
    """A table's stored fields from its rows."""
    row = rows.table
    seats = [Seat.from_row(r) for r in rows.seats]
    chat = [chat_message(r["seat"], seats, r["text"], r["at"]) for r in rows.chat]
    return StoredTable(
        table_id,
        row["status"],
        row["clock"],
        bool(row["listed"]),
        row["created_at"],
        seats,
        returns=row["returns"],
        rematch=row["rematch"],
        host_seat=row["host_seat"],
        chat=chat,
        pace=row["pace"],
        undo=bool(row["undo"]),
        turn=row.get("turn"),
    )
