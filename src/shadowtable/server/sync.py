"""Tables kept in step across server processes (``--redis``): what is said on the bus, what is
re-read from the database, and the lease rounds that decide which process runs each table.

The bus and the leases themselves are in :mod:`shadowtable.server.cluster`; without Redis there is
one process and everything here is idle but :meth:`TableSync.refresh`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from shadowtable.core.undo import UNDO_SEAT
from shadowtable.server.cluster import Bus, Leases
from shadowtable.server.config import ServerConfig
from shadowtable.server.connections import tell_all
from shadowtable.server.errors import ServiceError
from shadowtable.server.live import replayed
from shadowtable.server.presence import heard, local_seats, presence, send_presence
from shadowtable.server.repository.failures import store_failures
from shadowtable.server.repository.tables import Repository, TableRows
from shadowtable.server.sending import notify
from shadowtable.server.store import StoreError
from shadowtable.server.table import Seat, Table, acked_ids, chat_message, forget_all_undone, person_decides

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

log = logging.getLogger("shadowtable.server")

PASSED_BY_KEPT = 1000
"""At most this many tables that this process found it cannot play (a game it does not have, a
record that no longer replays) are remembered, so the lease rounds pass them by; the oldest go
first."""


class TableSync:
    """Announces this process's changes, applies the others', and keeps and takes leases."""

    def __init__(self, service: TableService, config: ServerConfig, repository: Repository) -> None:
        self.service = service
        self.config = config
        self.repository = repository
        clustered = bool(config.redis_url)
        self.leases = Leases(repository.store, config.process_id, config.lease_s) if clustered else None
        self.bus = Bus(config.redis_url, config.process_id) if clustered else None
        self._lease_task: asyncio.Task[None] | None = None
        self.passed_by: dict[str, str] = {}
        """The tables this process cannot play, with why: no lease round takes them over again."""

    async def start(self) -> None:
        """Join the other processes: listen on the bus, keep and take leases."""
        if self.bus is not None:
            await self.bus.start(self._on_bus, on_reconnect=self._resync)
            self._lease_task = asyncio.ensure_future(self._lease_loop())

    async def stop(self, tables: list[Table]) -> None:
        """Give up the leases of ``tables`` (another process takes them over at once) and leave the bus."""
        if self._lease_task is not None:
            self._lease_task.cancel()
        if self.leases is not None:
            with contextlib.suppress(StoreError):
                await self.leases.release([t.id for t in tables if t.sockets.owned])
        if self.bus is not None:
            await self.bus.stop()

    # -- the bus --------------------------------------------------------------------------------
    def publish(self, table: Table, kind: str = "changed", **data: Any) -> None:
        """Tell the other processes that ``table`` changed (they re-read it) or pass a notice on."""
        if self.bus is not None and not self.service.closing:
            self.service.spawn(self.bus.publish(table.id, {"kind": kind, **data}))

    def publish_presence(self, table: Table) -> None:
        """Tell the other processes which seats are connected here."""
        if self.bus is not None:
            self.publish(table, kind="presence", seats=sorted(local_seats(table)))

    async def _on_bus(self, table_id: str, body: dict[str, Any]) -> None:
        table = self.service.tables.get(table_id)
        if table is None:
            return  # not loaded here: it is read from the database when first asked for
        kind = body.get("kind")
        if kind == "changed":
            await self.refresh(table)
        elif kind == "notice" and isinstance(body.get("text"), str):
            data: dict[str, Any] = body["data"] if isinstance(body.get("data"), dict) else {}
            if data.get("fast") is True and not person_decides(table):
                table.timers.set_fast_forward(True)  # the process running the bots cuts their pace short
            notify(table, body["text"], **data)
        elif kind == "presence" and isinstance(body.get("seats"), list):
            self._heard_presence(table, str(body.get("from")), body["seats"])

    def _heard_presence(self, table: Table, process: str, listed: list[Any]) -> None:
        before = presence(table)
        seats = frozenset(s for s in listed if isinstance(s, int) and 0 <= s < len(table.seats))
        heard(table, process, seats, 2 * self.config.lease_s)
        for seat in range(len(table.seats)):
            if seat in seats and seat in table.timers.away:
                table.timers.away.pop(seat).cancel()
            else:
                self.service.timers.watch_away(table, seat)
        if presence(table) != before:
            send_presence(table)

    async def _resync(self) -> None:
        """The bus is back after an outage: re-read every table held here that may have changed
        meanwhile (a message may have been lost), as a seat's hello does."""
        for table in list(self.service.tables.values()):
            if table.status != "over" or table.connections:
                await self.refresh(table)

    # -- re-reading -----------------------------------------------------------------------------
    async def refresh(self, table: Table) -> None:
        """Re-read ``table`` from the database (another process changed it) and send what is new."""
        async with table.lock:
            changed = await self._reread(table)
        if changed:
            self.service.after_change(table, local=False)
            send_presence(table)

    async def _reread(self, table: Table) -> bool:
        rows = await self.repository.table_rows(table.id, table.steps, len(table.stored.chat))
        if rows is None:
            return False
        changed = _reread_fields(table, rows)
        actions = rows.actions
        if actions and actions[0]["idx"] == table.steps:
            stored = [(r["seat"], r["action"]) for r in actions]
            earlier = list(table.live.rows)
            if any(seat == UNDO_SEAT for seat, _ in stored):
                table.live.replay_log(stored)  # an undo among them: taken back as it was here
                table.play.acked = forget_all_undone(table.play.acked, table.live)
            else:
                table.live.commit(await asyncio.to_thread(replayed, table.game, stored, table.live.state))
            table.play.acked.update(acked_ids(earlier, [(r["seat"], r["action"], r["client_id"]) for r in actions]))
        for r in rows.chat:
            message = chat_message(r["seat"], table.seats, r["text"], r["at"])
            table.stored.chat.append(message)
            tell_all(table.connections, {"t": "chat", **message})
        return changed or bool(actions or rows.chat)

    # -- leases ---------------------------------------------------------------------------------
    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it; whether this process owns it."""
        assert self.leases is not None
        with store_failures():
            return await self.leases.acquire(table_id)

    async def _lease_loop(self) -> None:
        """A lease round every third of ``lease_s`` for as long as the process runs: a round that
        fails is logged and the next one comes all the same (this loop is what renews the leases and
        catches up with a lost message, so nothing may end it but :meth:`stop`)."""
        while True:
            await asyncio.sleep(self.config.lease_s / 3)
            try:
                await self._lease_tick()
            except (StoreError, ServiceError) as exc:
                log.warning("lease round failed", extra={"event": "lease_failed", "reason": str(exc)})
            except Exception:  # noqa: BLE001 - an unforeseen failure must not stop the rounds
                log.exception("lease round failed unexpectedly", extra={"event": "lease_failed"})

    async def _lease_tick(self) -> None:
        """Renew our leases, give up the ones lost, take over tables whose owner went away, say
        who is connected here, and re-read the tables watched here if the bus is down."""
        assert self.leases is not None and self.bus is not None
        tables = self.service.tables
        mine = [t for t in tables.values() if t.sockets.owned and t.status != "over"]
        kept = await self.leases.renew([t.id for t in mine])
        for table in mine:
            if table.id not in kept:
                self._lose(table)
        await self._take_over_orphans()
        for table in list(tables.values()):
            if table.connections:
                self.publish_presence(table)
                if not self.bus.healthy or await self._behind(table):
                    await self.refresh(table)  # Redis is down, or a message of it was lost

    async def _take_over_orphans(self) -> None:
        """Take over the tables nobody runs.  One this process cannot play is given back, logged
        and passed by from then on: it never holds up the tables after it."""
        assert self.leases is not None
        for table_id in await self.leases.orphans(passed_by=self.passed_by):
            if not await self.acquire(table_id):
                continue
            try:
                await self._take_over(table_id)
            except ServiceError as exc:
                await self._pass_by(table_id, str(exc))

    async def _take_over(self, table_id: str) -> None:
        loaded = self.service.tables.get(table_id)
        if loaded is None:
            await self.service.table(table_id)  # loads, replays and schedules its bots and clocks
        else:
            await self._gain(loaded)

    async def _pass_by(self, table_id: str, reason: str) -> None:
        assert self.leases is not None
        log.warning("table passed by", extra={"event": "takeover_failed", "table": table_id, "reason": reason})
        self.passed_by[table_id] = reason
        while len(self.passed_by) > PASSED_BY_KEPT:
            del self.passed_by[next(iter(self.passed_by))]
        with contextlib.suppress(StoreError):
            await self.leases.release([table_id])  # a process that can play it may take it

    async def _behind(self, table: Table) -> bool:
        """Whether the database holds actions this copy of ``table`` has not seen."""
        return await self.repository.action_count(table.id) != table.steps

    async def _gain(self, table: Table) -> None:
        log.info("table taken over", extra={"event": "takeover", "table": table.id})
        table.sockets.owned = True
        table.timers.clock_for = None  # the clock of the decision in progress starts again here
        await self.refresh(table)
        self.service.after_change(table, local=False)
        for seat in range(len(table.seats)):
            self.service.timers.watch_away(table, seat)

    def _lose(self, table: Table) -> None:
        log.warning("lease lost", extra={"event": "lease_lost", "table": table.id})
        table.sockets.owned = False
        self.service.timers.stop(table)


def _reread_fields(table: Table, rows: TableRows) -> bool:
    """Take the stored seats and table fields of ``rows``; whether any changed."""
    changed = False
    for seat, row in zip(table.seats, rows.seats, strict=False):
        read = Seat.from_row(row)
        now = read.row()
        if now != seat.row() or read.reserved != seat.reserved:
            seat.kind, seat.bot, seat.name, seat.key_hash, seat.zombie, seat.clock_ms, seat.left_hash = now
            seat.reserved = read.reserved
            changed = True
        turn = Seat.from_row(row).turn_fields()
        if turn != seat.turn_fields():
            seat.set_turn_fields(turn)
            changed = True
    stored, row = table.stored, rows.table
    fields = (row["status"], row["returns"], row["rematch"], row["host_seat"])
    if fields != (stored.status, stored.returns, stored.rematch, stored.host_seat):
        stored.status, stored.returns, stored.rematch, stored.host_seat = fields
        changed = True
    return changed
