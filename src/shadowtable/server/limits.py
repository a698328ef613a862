"""Per-client limits: rates (tables, joins, replays, analyses, log-in, sign-up) and counts (open tables,
free seats held), each answered with :class:`RateLimited` (429 and a retry hint).

Rates count in a moving window with the ``limits`` library: in this process's memory, or in Redis
with ``--redis`` so that every process of a cluster counts together (a Redis that does not answer
falls back to this process's memory).  Counts are kept per process: what a client created or took
here, at tables that have not started.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Depends, Request
from limits import RateLimitItem, parse_many
from limits import storage as sync_storage
from limits import strategies as sync_strategies
from limits.aio import storage as aio_storage
from limits.aio import strategies as aio_strategies
from starlette.requests import HTTPConnection

from shadowtable.server.clients import client_key
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Forbidden, RateLimited

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

log = logging.getLogger("shadowtable.server")

T = TypeVar("T")

RATES: dict[str, tuple[str, str]] = {
    "tables": ("rate_tables", "too many tables created from your address"),
    "joins": ("rate_joins", "too many seats taken from your address"),
    "replays": ("rate_replays", "too many replays and records asked for from your address"),
    "logins": ("rate_logins", "too many log-in attempts from your address"),
    "signups": ("rate_signups", "too many accounts made from your address"),
    "login_failures": ("rate_login_failures", "too many wrong passwords for this account"),
    "analyses": ("rate_analyses", "too many analyses asked for from your address"),
    "analysis_reads": ("rate_analysis_reads", "too many analysis reads from your address"),
    "lab_runs": ("rate_lab_runs", "too many lab runs started from your address"),
    "lab_reads": ("rate_lab_reads", "too many lab reads from your address"),
}
"""Each rate: the :class:`ServerConfig` field holding it, and the refusal's words."""

REDIS_TIMEOUT_S = 0.5
"""How long a rate's count may wait for Redis before this process counts it in memory."""
REDIS_RETRY_S = 5.0
"""How long rates are counted in memory after Redis failed, before it is tried again."""
SWEEP_EVERY = 1024
"""Additions between two sweeps of every client's holdings."""
COUNT_RETRY_S = 60
"""The retry hint of a count limit (a table starts or a seat is given up at no fixed time)."""


def rate_items(text: str) -> list[RateLimitItem]:
    """``"10/minute;60/hour"`` as rate items; empty text or a count of 0 (``0/minute``): no
    limit.  :class:`ValueError` if malformed."""
    if not text.strip():
        return []
    try:
        return [item for item in parse_many(text) if item.amount > 0]
    except ValueError as exc:
        raise ValueError(f"a rate is count/period, e.g. 10/minute or 5/15minutes: {text[:40]!r}") from exc


def period_words(item: RateLimitItem) -> str:
    """``minute``, ``15 minutes``: the window of a rate, in words."""
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


def retry_after(reset_at: float, now: float) -> int:
    """Whole seconds from ``now`` until ``reset_at`` (at least 1)."""
    return max(1, math.ceil(reset_at - now))


class Rates:
    """Moving-window counters: Redis (``limits.aio``) when given, else (and when Redis fails) memory."""

    def __init__(self, redis_url: str = "", prefix: str = "shadowtable-limits") -> None:
        self.local = sync_strategies.MovingWindowRateLimiter(sync_storage.MemoryStorage())
        self.shared: aio_strategies.MovingWindowRateLimiter | None = None
        self.prefix = prefix
        self._redis_failed = False
        self._retry_at = 0.0
        if redis_url:
            shared = aio_storage.RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                key_prefix=prefix,
                wrap_exceptions=True,
                socket_timeout=REDIS_TIMEOUT_S,
                socket_connect_timeout=REDIS_TIMEOUT_S,
            )
            self.shared = aio_strategies.MovingWindowRateLimiter(shared)

    async def hit(self, item: RateLimitItem, *keys: str) -> bool:
        """Count one hit; ``False`` (and nothing counted) if the window is full."""
        if self.shared is not None and time.monotonic() >= self._retry_at:
            with contextlib.suppress(_RedisDown):
                return await self._shared(self.shared.hit(item, self.prefix, *keys))
        return self.local.hit(item, self.prefix, *keys)

    async def test(self, item: RateLimitItem, *keys: str) -> bool:
        """Whether one more hit would be allowed (nothing counted)."""
        if self.shared is not None and time.monotonic() >= self._retry_at:
            with contextlib.suppress(_RedisDown):
                return await self._shared(self.shared.test(item, self.prefix, *keys))
        return self.local.test(item, self.prefix, *keys)

    async def reset_at(self, item: RateLimitItem, *keys: str) -> float:
        """When the window has room again (epoch seconds)."""
        if self.shared is not None and time.monotonic() >= self._retry_at:
            with contextlib.suppress(_RedisDown):
                stats = await self._shared(self.shared.get_window_stats(item, self.prefix, *keys))
                return float(stats.reset_time)
        return float(self.local.get_window_stats(item, self.prefix, *keys).reset_time)

    async def _shared(self, work: Awaitable[T]) -> T:
        try:
            answer = await work
        except Exception as exc:  # noqa: BLE001 - any storage failure: counted in memory instead
            if not self._redis_failed:
                log.warning("rate limits counted per process: Redis does not answer", extra={"event": "limits_local"})
            self._redis_failed = True
            self._retry_at = time.monotonic() + REDIS_RETRY_S
            raise _RedisDown from exc
        if self._redis_failed:
            log.info("rate limits counted in Redis again", extra={"event": "limits_shared"})
            self._redis_failed = False
        return answer


class _RedisDown(Exception):
    pass


@dataclass
class Holdings:
    """What each client created or took in this process at tables not yet started.

    ``tables``: client -> ids of the tables it created; ``seats``: client -> ``(table, seat,
    token)`` of the seats it took by joining.  Entries that no longer count (the table started or
    ended, the seat was given up) are dropped when counted, and every client's every
    :data:`SWEEP_EVERY` additions (so clients that never come back do not pile up)."""

    tables: dict[str, set[str]] = field(default_factory=dict)
    seats: dict[str, set[tuple[str, int, str]]] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)
    """Creations and joins under way (counted, so that concurrent requests cannot pass together)."""
    added: int = 0

    def add_table(self, client: str, table_id: str, is_open: Callable[[str], bool]) -> None:
        self.tables.setdefault(client, set()).add(table_id)
        self._added(lambda: [self.open_tables(other, is_open) for other in list(self.tables)])

    def add_seat(self, client: str, entry: tuple[str, int, str], holds: Callable[[str, int, str], bool]) -> None:
        self.seats.setdefault(client, set()).add(entry)
        self._added(lambda: [self.held_seats(other, holds) for other in list(self.seats)])

    def _added(self, sweep: Callable[[], object]) -> None:
        self.added += 1
        if self.added % SWEEP_EVERY == 0:
            sweep()

    def open_tables(self, client: str, is_open: Callable[[str], bool]) -> int:
        kept = {table for table in self.tables.get(client, set()) if is_open(table)}
        self._keep(self.tables, client, kept)
        return len(kept) + self.pending.get("t:" + client, 0)

    def held_seats(self, client: str, holds: Callable[[str, int, str], bool]) -> int:
        kept = {entry for entry in self.seats.get(client, set()) if holds(*entry)}
        self._keep(self.seats, client, kept)
        return len(kept) + self.pending.get("s:" + client, 0)

    @staticmethod
    def _keep(where: dict[str, Any], client: str, kept: set[Any]) -> None:
        if kept:
            where[client] = kept
        else:
            where.pop(client, None)

    @contextlib.contextmanager
    def reserving(self, slot: str) -> Any:
        self.pending[slot] = self.pending.get(slot, 0) + 1
        try:
            yield
        finally:
            self.pending[slot] -= 1
            if not self.pending[slot]:
                del self.pending[slot]


class ClientLimits:
    """Every per-client limit of one server process (``app.state.limits``)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.items = {name: rate_items(getattr(config, attr)) for name, (attr, _) in RATES.items()}
        # the processes of one service share their database: their counts share a Redis prefix
        service = hashlib.sha256(config.database_url().encode()).hexdigest()[:12]
        self.rates = Rates(config.redis_url, f"shadowtable-limits-{service}")
        self.holdings = Holdings()

    async def hit(self, rate: str, key: str) -> None:
        """Count a request under ``rate`` for ``key``; :class:`RateLimited` if over (not counted)."""
        for item in self.items[rate]:
            if not await self.rates.hit(item, rate, key):
                await self._refuse(rate, item, key)

    async def check(self, rate: str, key: str) -> None:
        """:class:`RateLimited` if ``key`` is over ``rate`` now (nothing counted)."""
        for item in self.items[rate]:
            if not await self.rates.test(item, rate, key):
                await self._refuse(rate, item, key)

    async def count(self, rate: str, key: str) -> None:
        """Count one event under ``rate`` (a failure: refused from the limit on)."""
        for item in self.items[rate]:
            await self.rates.hit(item, rate, key)

    async def _refuse(self, rate: str, item: RateLimitItem, key: str) -> None:
        reset = await self.rates.reset_at(item, rate, key)
        what = f"{RATES[rate][1]} ({item.amount} per {period_words(item)})"
        raise RateLimited(what, retry_after(reset, time.time()))

    # -- counts ---------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def creating(self, request: HTTPConnection, service: TableService) -> AsyncIterator[Callable[[str], None]]:
        """Around a table's creation: the rate, then the open tables of the client (refused at
        :attr:`ServerConfig.max_open_tables`); yields the function that records the new table."""
        client = client_key(request)
        await self.hit("tables", client)
        most = self.config.max_open_tables
        if most and self.holdings.open_tables(client, lambda table_id: _open(service, table_id)) >= most:
            raise RateLimited(
                f"{most} tables created from your address are waiting for players (the most allowed):"
                " start one or let it fill first",
                COUNT_RETRY_S,
            )
        with self.holdings.reserving("t:" + client):
            yield lambda table_id: self.holdings.add_table(client, table_id, lambda other: _open(service, other))

    @contextlib.asynccontextmanager
    async def joining(
        self, request: HTTPConnection, service: TableService
    ) -> AsyncIterator[Callable[[str, int, str], None]]:
        """Around a join: the rate, then the seats the client holds at tables not yet started
        (refused at :attr:`ServerConfig.max_free_seats`); yields the function that records the seat."""
        client = client_key(request)
        await self.hit("joins", client)
        most = self.config.max_free_seats
        if most and self.holdings.held_seats(client, lambda *entry: _holds(service, *entry)) >= most:
            raise RateLimited(
                f"your address holds {most} seats at tables that have not started (the most allowed):"
                " play or leave one first",
                COUNT_RETRY_S,
            )
        with self.holdings.reserving("s:" + client):
            yield lambda table_id, seat, token: self.holdings.add_seat(
                client, (table_id, seat, token), lambda *entry: _holds(service, *entry)
            )

    # -- accounts -------------------------------------------------------------------------------
    async def log_in(self, request: HTTPConnection, name: object, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt`` (a log-in) within the client's rate and the account's failures: past
        :attr:`ServerConfig.rate_login_failures` wrong passwords the name is refused for a while."""
        await self.hit("logins", client_key(request))
        account = " ".join(name.split()).casefold()[:128] if isinstance(name, str) else ""
        await self.check("login_failures", account)
        try:
            return await attempt()
        except Forbidden:
            await self.count("login_failures", account)
            raise

    async def sign_up(self, request: HTTPConnection, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt`` (an account's creation) within the client's rate."""
        await self.hit("signups", client_key(request))
        return await attempt()


def _open(service: TableService, table_id: str) -> bool:
    table = service.tables.get(table_id)
    return table is not None and table.status == "open"


def _holds(service: TableService, table_id: str, seat: int, token: str) -> bool:
    table = service.tables.get(table_id)
    return table is not None and table.status == "open" and service.held_seat(table, token) == seat


def limits_of(connection: HTTPConnection) -> ClientLimits:
    """The limits of the application serving ``connection``."""
    limits: ClientLimits = connection.app.state.limits
    return limits


def per_client(rate: str) -> Any:
    """A route dependency counting each request under ``rate`` for its client."""

    async def counted(request: Request) -> None:
        await limits_of(request).hit(rate, client_key(request))

    return Depends(counted)


LIMIT_FIELDS: dict[str, type] = {
    **{attr: str for attr, _ in RATES.values()},
    "max_open_tables": int,
    "max_free_seats": int,
    "max_turn_tables": int,
    "max_body": int,
    "max_header": int,
    "replay_cache": int,
    "analysis_queue_max": int,
    "lab_max_runs": int,
    "lab_max_games": int,
}
"""The :class:`ServerConfig` fields that are limits, and their types."""
