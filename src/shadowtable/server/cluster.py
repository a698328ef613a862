"""Several server processes on one PostgreSQL database: table leases and the Redis message bus.

- **Leases** (the ``leases`` table): each live table is owned by one process at a time, which runs
  its bots, clocks and takeover timers.  A lease lasts ``lease_s`` and is renewed every third of
  it; a dead owner's tables are taken over by another process once their leases expire.  Any
  process may append actions (a seat may be connected anywhere): the ``actions`` primary key
  settles every race, and the loser re-reads the truth.
- **Bus** (Redis pub/sub): a process that changed a table says so on the table's channel; the
  others re-read that table from the database.  Messages carry no game data and are never the
  truth: one lost is caught by the periodic re-read, and with Redis down each process still
  serves its own tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from shadowtable.server import schema
from shadowtable.server.store import Store, StoreError

log = logging.getLogger("shadowtable.server")

CHANNEL_PREFIX = "shadowtable:table:"
Handler = Callable[[str, dict[str, Any]], Awaitable[None]]


class Leases:
    """Table ownership kept in the database, decided by one statement each (no locks held)."""

    def __init__(self, store: Store, owner: str, lease_s: float) -> None:
        self.store = store
        self.owner = owner
        self.lease_s = lease_s

    def _insert(self) -> Any:
        dialect = postgresql if not self.store.is_sqlite else sqlite
        return dialect.insert(schema.leases)

    async def acquire(self, table_id: str) -> bool:
        """Own ``table_id`` if nobody does, its lease expired, or it is already ours."""
        now = time.time()
        insert = self._insert().values(table_id=table_id, owner=self.owner, expires_at=now + self.lease_s)
        statement = insert.on_conflict_do_update(
            index_elements=[schema.leases.c.table_id],
            set_={"owner": self.owner, "expires_at": now + self.lease_s},
            where=(schema.leases.c.owner == self.owner) | (schema.leases.c.expires_at < now),
        ).returning(schema.leases.c.owner)
        rows = await self.store.execute(statement)
        return bool(rows) and rows[0]["owner"] == self.owner

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Extend our leases on ``table_ids``; the ones still ours (a lapsed one may be gone)."""
        if not table_ids:
            return set()
        now = time.time()
        statement = (
            sa.update(schema.leases)
            .where(schema.leases.c.table_id.in_(table_ids), schema.leases.c.owner == self.owner)
            .values(expires_at=now + self.lease_s)
            .returning(schema.leases.c.table_id)
        )
        return {row["table_id"] for row in await self.store.execute(statement)}

    async def release(self, table_ids: list[str]) -> None:
        """Give our leases up (a process stopping cleanly), so others take over at once."""
        if table_ids:
            await self.store.execute(
                sa.delete(schema.leases).where(
                    schema.leases.c.table_id.in_(table_ids), schema.leases.c.owner == self.owner
                )
            )

    async def orphans(self, limit: int = 50) -> list[str]:
        """Tables in play whose lease is missing or expired: nobody runs their bots and clocks."""
        now = time.time()
        joined = schema.tables.outerjoin(schema.leases, schema.leases.c.table_id == schema.tables.c.id)
        query = (
            sa.select(schema.tables.c.id)
            .select_from(joined)
            .where(
                schema.tables.c.status == "playing",
                sa.or_(schema.leases.c.table_id.is_(None), schema.leases.c.expires_at < now),
            )
            .limit(limit)
        )
        return [row["id"] for row in await self.store.fetch(query)]


class Bus:
    """Redis pub/sub between the server processes; every failure only degrades to polling."""

    def __init__(self, url: str, process_id: str) -> None:
        self.url = url
        self.process_id = process_id
        self.healthy = False
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._warned = False

    async def start(self, handler: Handler) -> None:
        import redis.asyncio as redis

        self._client = redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=None)
        self._task = asyncio.create_task(self._listen(handler), name="bus-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other processes about ``table_id`` (dropped, and logged once, if Redis is down)."""
        if self._client is None:
            return
        body = json.dumps({**message, "from": self.process_id}, separators=(",", ":"))
        try:
            await asyncio.wait_for(self._client.publish(CHANNEL_PREFIX + table_id, body), 1.0)
        except Exception as exc:  # noqa: BLE001 - Redis is a speed-up, never the truth
            self._down(exc)

    def _down(self, exc: BaseException) -> None:
        if self.healthy or not self._warned:
            log.warning("redis unavailable: polling the database instead", extra={"event": "bus_down"})
            self._warned = True
        self.healthy = False
        del exc

    async def _listen(self, handler: Handler) -> None:
        delay = 0.2
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                if not self.healthy:
                    log.info("redis connected", extra={"event": "bus_up"})
                self.healthy, self._warned, delay = True, False, 0.2
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    await self._deliver(message, handler)
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as exc:  # noqa: BLE001 - reconnect with backoff
                self._down(exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def _deliver(self, message: dict[str, Any], handler: Handler) -> None:
        channel = message.get("channel")
        data = message.get("data")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if isinstance(data, bytes):
            data = data.decode()
        if not isinstance(data, str):
            return
        try:
            body = json.loads(data)
        except ValueError:
            return
        if not isinstance(body, dict) or body.get("from") == self.process_id:
            return
        try:
            await handler(str(channel).removeprefix(CHANNEL_PREFIX), body)
        except StoreError:
            pass  # the database is away: the periodic re-read catches up
        except Exception:  # noqa: BLE001 - one bad message must not stop the listener
            log.exception("bus message failed", extra={"event": "bus_error"})
