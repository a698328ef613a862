"""What a table's WebSocket says: frames read under their rates, ``hello`` seating a connection,
``act`` passed to the service's write path, ``sync``, ``chat`` and ``ping``; a closed socket
starts its seat's away period."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from shadowtable.server.config import ServerConfig
from shadowtable.server.connections import Connection, reject, tell_all
from shadowtable.server.errors import Forbidden, ServiceError, Stale
from shadowtable.server.presence import send_presence
from shadowtable.server.protocol import (
    Act,
    Chat,
    FastForward,
    Hello,
    Message,
    Ping,
    ProtocolError,
    Sync,
    Undo,
    parse_frame,
)
from shadowtable.server.repository.tables import Repository, insert_chat
from shadowtable.server.sending import over_text
from shadowtable.server.table import ChatLine, Table, chat_message, info, person_decides, seat_name
from shadowtable.server.throttle import Throttle, Verdict

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

log = logging.getLogger("shadowtable.server")

CHAT_SHOWN = 50
"""Chat lines a connection is sent with its welcome."""


class Sockets:
    """Reads the frames of every socket of the server, each counted against its rate."""

    def __init__(self, service: TableService, config: ServerConfig, repository: Repository) -> None:
        self.service = service
        self.config = config
        self.repository = repository
        self.frames = Throttle(config.ws_frame_rate, config.ws_flood_factor)
        """Frames per connection."""
        self.pings = Throttle(config.ws_ping_rate, config.ws_flood_factor)
        """Pings per connection."""
        self.chats = Throttle(config.chat_rate)
        """Chat lines per seat of a table."""
        self.syncs = Throttle(config.ws_sync_rate)
        """``sync`` frames per client address (each answered with a whole view)."""

    async def receive(self, table: Table, connection: Connection, frame: str | bytes) -> bool:
        """Handle one frame; returns ``False`` when the connection must close.  Frames count
        against the connection's rate (an ``act`` of the seat that decides now excepted): one over
        it is refused unprocessed, and a socket that goes on flooding is closed (4429)."""
        try:
            message: Message | None = parse_frame(frame, self.config.max_frame)
        except ProtocolError as exc:
            message, refusal = None, exc
        if not (isinstance(message, Act) and _deciding(table, connection)):
            kind, throttle, verdict = self._count(message, connection)
            if verdict.close:
                log.warning("socket flooding", extra={"event": "ws_flood", "table": table.id})
                connection.end(4429, "too many frames: slow down")
                return False
            if not verdict.allowed:
                why = f"too many {kind}: at most {throttle.item.amount} per {window(throttle)}"
                act_id = message.id if isinstance(message, Act | Undo) else None
                reject(connection, act_id, f"{why}; try again in {verdict.retry_after} s", verdict.retry_after)
                return True
        if message is None:
            reject(connection, refusal.id, str(refusal))
            return True
        return await self._handle(table, connection, message)

    def _count(self, message: Message | None, connection: Connection) -> tuple[str, Throttle, Verdict]:
        """Count one frame against the connection's rate (pings against their own), and a
        ``sync`` within it against its address's: what was counted last, by which throttle, and
        its verdict."""
        if isinstance(message, Ping):
            return "pings", self.pings, self.pings.hit(connection.key)
        verdict = self.frames.hit(connection.key)
        if verdict.allowed and isinstance(message, Sync):
            return "syncs", self.syncs, self.syncs.hit(connection.client or connection.key)
        return "frames", self.frames, verdict

    async def _handle(self, table: Table, connection: Connection, message: Message) -> bool:
        if isinstance(message, Hello):
            return await self._hello(table, connection, message)
        if not connection.greeted:
            reject(connection, getattr(message, "id", None), "say hello first")
            return True
        if isinstance(message, Act):
            await self.service.act(table, connection, message)
        elif isinstance(message, Sync):
            connection.sent_v = message.v
            self.service.sender.send_view(table, connection, force=True, replaceable=True)
        elif isinstance(message, Chat):
            await self._chat(table, connection, message.text)
        elif isinstance(message, Ping):
            connection.push({"t": "pong"})
        elif isinstance(message, FastForward) and (notice := fast_forward(table, connection)):
            self.service.notice(table, notice, fast=True)
        elif isinstance(message, Undo):
            await self.service.undo(table, connection, message)
        return True

    # -- hello ----------------------------------------------------------------------------------
    async def _hello(self, table: Table, connection: Connection, hello: Hello) -> bool:
        if connection.greeted:
            reject(connection, None, "hello was said already")
            return True
        token = hello.token or connection.cookie_tokens.get(table.id)
        seat: int | None = None
        if token:
            seat, why = await self._hello_seat(table, token, hello)
            if seat is None and why:
                connection.push({"t": "refused", "why": why})
                connection.end(4403, "refused: " + why[:100])
                return False
        if self.service.sync.bus is not None:
            await self.service.refresh(table)  # start from the truth: a message of the bus may have been lost
        await self._greet(table, connection, hello, seat)
        return True

    async def _hello_seat(self, table: Table, token: str, hello: Hello) -> tuple[int | None, str]:
        """The seat ``token`` holds (taken back first if ``hello`` asks), or why none ("": it watches)."""
        service, why = self.service, ""
        try:
            return service.claim(table, token).seat, ""
        except Forbidden as exc:
            why = str(exc)
        if service.sync.bus is not None:  # the seat may have been taken elsewhere
            await service.refresh(table)
            try:
                return service.claim(table, token).seat, ""
            except Forbidden as exc:
                why = str(exc)
        if service.left_seat(table, token) is None:
            return None, why
        if not hello.take_back:
            return None, "" if hello.token is None else why  # a browser that left its seat (its cookie) watches
        try:
            async with table.lock:
                seat = await service.take_back_seat(table, token)
        except ServiceError as exc:
            return None, str(exc)
        service.sync.publish(table)
        return seat, ""

    async def _greet(self, table: Table, connection: Connection, hello: Hello, seat: int | None) -> None:
        connection.seat = seat
        connection.greeted = True
        connection.html = hello.html
        connection.sent_v = hello.v or 0
        table.connections.add(connection)
        welcome = {"t": "welcome", "seat": seat, "table": info(table), "chat": table.stored.chat[-CHAT_SHOWN:]}
        connection.push(welcome)
        if seat is not None:
            self.service.timers.back(table, seat)
            if table.seats[seat].zombie and table.status == "playing":
                await self.service.timers.unset_zombie(table, seat)
        self.service.sender.send_view(table, connection, force=True)
        if table.status == "over":
            connection.told_over = True
            connection.push_text(over_text(table))
        self.service.sync.publish_presence(table)
        send_presence(table)

    def disconnect(self, table: Table, connection: Connection) -> None:
        """A socket closed: after the grace period a bot takes the seat over."""
        table.connections.discard(connection)
        self.frames.forget(connection.key)
        self.pings.forget(connection.key)
        if not connection.client:  # counted by its own key (no address known)
            self.syncs.forget(connection.key)
        seat = connection.seat
        if self.service.closing or seat is None or not connection.greeted:
            return
        if table.status == "over" and not table.connections:
            self.service.tables.pop(table.id, None)  # finished and unwatched: reloaded from the store if asked for
            return
        self.service.sync.publish_presence(table)
        self.service.timers.watch_away(table, seat)
        send_presence(table)

    # -- chat -----------------------------------------------------------------------------------
    async def _chat(self, table: Table, connection: Connection, text: str) -> None:
        seat = connection.seat
        if seat is None:
            reject(connection, None, "spectators cannot chat")
            return
        verdict = self.chats.hit(f"{table.id}:{seat}")
        if not verdict.allowed:
            why = f"too many chat lines: at most {self.chats.item.amount} per {window(self.chats)}"
            reject(connection, None, f"{why}; try again in {verdict.retry_after} s", verdict.retry_after)
            return
        for _attempt in range(3):
            try:
                message = await self._store_chat(table, seat, text)
            except ServiceError as exc:
                reject(connection, None, f"not saved, so not sent: {exc}")
                return
            if message is not None:
                break
            await self.service.refresh(table)
        else:
            reject(connection, None, "the table is busy: say it again")
            return
        self.service.sync.publish(table)
        tell_all(table.connections, {"t": "chat", **message})

    async def _store_chat(self, table: Table, seat: int, text: str) -> ChatLine | None:
        """Store a chat line and make it the table's own (``None``: another process stored a
        line first: re-read, then try again)."""
        async with table.lock:
            now = time.time()
            chat = table.stored.chat
            try:
                await self.repository.write(insert_chat(table.id, len(chat), seat, text, now), table_id=table.id)
            except Stale:
                return None
            message = chat_message(seat, table.seats, text, now)
            chat.append(message)
            return message


def _deciding(table: Table, connection: Connection) -> bool:
    """Whether ``connection`` is the seat whose decision the table waits for."""
    seat = connection.seat
    return (
        connection.greeted
        and seat is not None
        and table.status == "playing"
        and table.game.current_player(table.live.state) == seat
    )


def window(throttle: Throttle) -> str:
    """A throttle's window in words (``2 seconds``)."""
    item = throttle.item
    unit = item.GRANULARITY.name
    return f"{item.multiples} {unit}s" if item.multiples != 1 else unit


def fast_forward(table: Table, connection: Connection) -> str:
    """A seated player asks the bots to move without the pace delay until a person decides: the
    notice for everyone at the table ("" if refused, or already fast-forwarding)."""
    seat = connection.seat
    if seat is None:
        reject(connection, None, "only a seated player may fast-forward")
    elif table.status != "playing" or person_decides(table):
        reject(connection, None, "a person must decide now: there is nothing to fast-forward")
    elif not table.timers.fast_forward:
        table.timers.set_fast_forward(True)
        return f"{seat_name(seat, table.seats[seat])} fast-forwards: the bots move at once until a person decides"
    return ""
