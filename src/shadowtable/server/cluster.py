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
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from shadowtable.server.repository.leases import orphaned_tables, release_leases, renew_leases, take_lease
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

    async def acquire(self, table_id: str) -> bool:
        """Own ``table_id`` if nobody does, its lease expired, or it is already ours."""
        statement = take_lease(table_id, self.owner, self.lease_s, is_sqlite=self.store.is_sqlite)
        rows = await self.store.execute(statement)
        return bool(rows) and rows[0]["owner"] == self.owner

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Extend our leases on ``table_ids``; the ones still ours (a lapsed one may be gone)."""
        if not table_ids:
            return set()
        rows = await self.store.execute(renew_leases(table_ids, self.owner, self.lease_s))
        return {row["table_id"] for row in rows}

    async def release(self, table_ids: list[str]) -> None:
        """Give our leases up (a process stopping cleanly), so others take over at once."""
        if table_ids:
            await self.store.execute(release_leases(table_ids, self.owner))

    async def orphans(self, limit: int = 50, passed_by: Collection[str] = ()) -> list[str]:
        """Tables in play whose lease is missing or expired: nobody runs their bots and clocks
        (but for those ``passed_by``: this process cannot play them)."""
        return [row["id"] for row in await self.store.fetch(orphaned_tables(limit, passed_by))]


class Bus:
    """Redis pub/sub between the server processes; every failure only degrades to polling.

    One connection session at a time: subscribe, then read until the connection is lost (or a
    publish fails), then retry with backoff (``retry_min_s`` doubling up to ``retry_max_s``) on a
    fresh connection.  The loss is logged once (``bus down``), the return once (``bus
    reconnected``), and on return ``on_reconnect`` re-reads the tables: a message may have been
    lost meanwhile.  Every connection is named ``shadowtable-bus-<process id>`` (``CLIENT LIST``).
    """

    def __init__(self, url: str, process_id: str, retry_min_s: float = 0.2, retry_max_s: float = 5.0) -> None:
        self.url = url
        self.process_id = process_id
        self.retry_min_s = retry_min_s
        self.retry_max_s = retry_max_s
        self.healthy = False
        self.client_name = "shadowtable-bus-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in process_id)
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._was_up = False
        self._said_down = False

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]] | None = None) -> None:
        """Listen in the background: ``handler(table_id, message)`` for each other process's message."""
        self._task = asyncio.create_task(self._run(handler, on_reconnect), name="bus-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.healthy = False

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other processes about ``table_id`` (dropped while the bus is down: they poll).

        A connection closed under it is retried once on a fresh one (a message said twice only
        costs a re-read); a second failure marks the bus down and starts a new session."""
        client = self._client
        if client is None or not self.healthy:
            return
        body = json.dumps({**message, "from": self.process_id}, separators=(",", ":"))
        for attempt in range(2):
            try:
                await asyncio.wait_for(client.publish(CHANNEL_PREFIX + table_id, body), 1.0)
                return
            except Exception as exc:  # noqa: BLE001 - Redis is a speed-up, never the truth
                if attempt or not _closed(exc):
                    break
        if client is self._client:
            self._down()
            self._lost.set()

    def _connect(self) -> Any:
        """A fresh client (its own connection pool) that raises at once on a lost connection."""
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        return redis.Redis.from_url(
            self.url,
            socket_connect_timeout=2,
            socket_timeout=None,
            socket_keepalive=True,
            retry=Retry(NoBackoff(), 0),
            client_name=self.client_name,
        )

    def _up(self) -> bool:
        """Mark the bus up; whether it had been down (its tables must be re-read)."""
        came_back = not self.healthy and self._said_down
        if came_back:
            log.info("bus reconnected", extra={"event": "bus_up"})
        elif not self._was_up:
            log.info("bus connected", extra={"event": "bus_up"})
        self.healthy, self._was_up, self._said_down = True, True, False
        return came_back

    def _down(self) -> None:
        """Mark the bus down, logging it once per outage."""
        if not self._said_down:
            log.warning("bus down: polling the database until redis is back", extra={"event": "bus_down"})
            self._said_down = True
        self.healthy = False

    async def _run(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]] | None) -> None:
        delay = self.retry_min_s
        while True:
            client = self._connect()
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                self._lost.clear()
                self._client = client
                delay = self.retry_min_s
                if self._up() and on_reconnect is not None:
                    await self._resync(on_reconnect)
                await self._listen(pubsub, handler)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - reconnect with backoff
                self._down()
            finally:
                self._client = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.retry_max_s)

    async def _resync(self, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        try:
            await on_reconnect()
        except StoreError:
            pass  # the database is away too: the periodic re-read catches up
        except Exception:  # noqa: BLE001 - the listener must go on
            log.exception("re-reading the tables after the bus came back failed", extra={"event": "bus_error"})

    async def _listen(self, pubsub: Any, handler: Handler) -> None:
        """Deliver messages until the connection is lost or a publish failed (then raise)."""
        reading = asyncio.ensure_future(self._read(pubsub, handler))
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            await asyncio.wait({reading, lost}, return_when=asyncio.FIRST_COMPLETED)
            why = "a publish failed" if lost.done() else "the subscription ended"
            if reading.done() and reading.exception() is not None:
                why = f"the subscription failed: {reading.exception()}"
        finally:
            for task in (reading, lost):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        raise ConnectionError(why)

    async def _read(self, pubsub: Any, handler: Handler) -> None:
        async for message in pubsub.listen():
            if message.get("type") == "pmessage":
                await self._deliver(message, handler)

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


def _closed(exc: BaseException) -> bool:
    """Whether ``exc`` says a Redis connection was closed (worth one retry on a fresh one)."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    return isinstance(exc, RedisConnectionError | ConnectionError)
