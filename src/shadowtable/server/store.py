"""The store: the server's database, written by one group-commit writer.

Every write goes through :meth:`Store.write`, which queues its statements and returns once they
are committed.  A single writer task takes everything queued, runs it in one transaction and
commits once, so one slow disk sync is shared by every table that wrote meanwhile instead of
stalling each in turn.  If the batch fails, each write is retried on its own, so one bad write
(a duplicate client id) fails alone.  A failed write raises :class:`StoreError`: the caller has
not been acknowledged and must not acknowledge.

Round trips to the database are what a write waits for: on a busy machine each one also waits for
this process and the database's to be scheduled (milliseconds each), and the writer makes them one
after the other.  So a batch costs a few round trips whatever its size: rows appended to one table
(:class:`Append`, the actions of every table that played) go in one ``INSERT``; a batch of one
statement runs on its own (a single statement is atomic: one round trip instead of BEGIN, it and
COMMIT); pooled connections are not pinged before use (with asyncpg a ping is three round trips):
a connection found dead fails its batch, which is retried on fresh connections, and a read once.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from shadowtable.core.errors import ShadowTableError

log = logging.getLogger("shadowtable.server.store")


class StoreError(ShadowTableError):
    """The database could not take or give data (down, full, or a write conflicted)."""


class StoreConflict(StoreError):
    """A write met a row that is already there (another process appended first, or an id was
    used): nothing of the write is stored; the caller re-reads the truth."""


def async_url(url: str) -> str:
    """``url`` with the async driver this server uses: aiosqlite for SQLite, asyncpg for PostgreSQL.

    A plain path is a SQLite file."""
    if "://" not in url:
        return f"sqlite+aiosqlite:///{Path(url).expanduser()}"
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    if parsed.get_backend_name() in {"postgresql", "postgres"}:
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise StoreError(f"unsupported database {parsed.get_backend_name()!r}: use a SQLite path or postgresql://...")


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite ``url`` (``None``: not SQLite, or in memory)."""
    parsed = make_url(async_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def shown_url(url: str) -> str:
    """``url`` without its password, for logs and messages (a SQLite file: its path)."""
    parsed = make_url(async_url(url))
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite {parsed.database or ':memory:'}"
    return parsed.set(drivername=parsed.get_backend_name()).render_as_string(hide_password=True)


@dataclass(frozen=True)
class Append:
    """Rows to insert into ``table``; the appends of writes committed together become one ``INSERT``."""

    table: sa.Table
    rows: Sequence[dict[str, Any]]


Statement = sa.Executable | Append
POSTGRES_WRITE_LANES = 4
"""Writers committing side by side on PostgreSQL (each holds one pooled connection while it commits)."""
MAX_APPEND_ROWS = 1000
"""The most rows one merged ``INSERT`` carries (PostgreSQL takes at most 65535 parameters)."""


@dataclass
class _Write:
    statements: Sequence[Statement]
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Store:
    """The database: schema migrations at :meth:`open`, group-committed writes, reads."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = async_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self._sync = sqlite_synchronous
        self.engine: AsyncEngine | None = None
        self._lanes = 1 if self.is_sqlite else POSTGRES_WRITE_LANES
        self._queues: list[asyncio.Queue[_Write | None]] = [asyncio.Queue() for _ in range(self._lanes)]
        self._writers: list[asyncio.Task[None]] = []
        self.batches = 0
        self.writes = 0

    async def open(self) -> None:
        """Connect, apply the migrations and start the writer."""
        if self.is_sqlite:
            path = make_url(self.url).database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_async_engine(self.url)
            sync_mode = self._sync

            @sa.event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute(f"PRAGMA synchronous={sync_mode}")
                cursor.execute("PRAGMA busy_timeout=5000")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

        else:
            engine = create_async_engine(self.url, pool_size=5, max_overflow=5)
        self.engine = engine
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        try:
            async with engine.begin() as connection:
                await connection.run_sync(_migrate)
        except (OSError, sa.exc.SQLAlchemyError) as exc:
            await engine.dispose()
            raise StoreError(f"cannot open the database {shown_url(self.url)}: {_reason(exc)}") from exc
        self._writers = [
            asyncio.create_task(self._write_loop(queue), name=f"store-writer-{lane}")
            for lane, queue in enumerate(self._queues)
        ]

    async def close(self) -> None:
        """Finish every queued write, then disconnect."""
        if self._writers:
            for queue in self._queues:
                await queue.put(None)
            await asyncio.gather(*self._writers)
            self._writers = []
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    # -- writes ------------------------------------------------------------------------------
    async def write(self, *statements: Statement, key: str | None = None) -> None:
        """Run ``statements`` in a transaction shared with other queued writes; returns once
        committed, or raises :class:`StoreError` (nothing of this write is stored).

        Writes are committed in the order they were queued within a lane.  SQLite has one lane
        (it has one writer anyway); PostgreSQL has :data:`POSTGRES_WRITE_LANES`, so one lane's round
        trip does not hold the others up.  Writes with the same ``key`` (a table's id) share a lane
        and keep their order; writes without one all go to the first lane."""
        if not self._writers:
            raise StoreError("the store is closed")
        item = _Write(statements)
        await self._queues[self.lane(key)].put(item)
        await asyncio.shield(item.done)

    def lane(self, key: str | None) -> int:
        """The lane the writes of ``key`` are committed in (``None``: the first)."""
        return 0 if key is None else zlib.crc32(key.encode()) % self._lanes

    async def _write_loop(self, queue: asyncio.Queue[_Write | None]) -> None:
        while True:
            first = await queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while not queue.empty():
                item = queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            await self._commit(batch)
            if stop:
                return

    async def _commit(self, batch: list[_Write]) -> None:
        assert self.engine is not None
        self.batches += 1
        self.writes += len(batch)
        try:
            await self._apply([s for item in batch for s in item.statements])
        except Exception as exc:  # noqa: BLE001 - any failure: retry each write alone
            if len(batch) == 1:
                _settle(batch[0], exc)
                return
            for item in batch:
                try:
                    await self._apply(item.statements)
                except Exception as single:  # noqa: BLE001
                    _settle(item, single)
                else:
                    _settle(item, None)
            return
        for item in batch:
            _settle(item, None)

    async def _apply(self, queued: Sequence[Statement]) -> None:
        """Run ``queued`` in one transaction, adjacent appends to one table merged.  A single
        statement runs on its own (it is atomic by itself): one round trip instead of three."""
        assert self.engine is not None
        statements = merged(queued)
        if len(statements) == 1:
            async with self._autocommit.connect() as connection:
                await connection.execute(statements[0])
        elif statements:
            async with self.engine.begin() as connection:
                await _run(connection, statements)

    # -- reads -------------------------------------------------------------------------------
    async def fetch(self, query: sa.Executable) -> list[dict[str, Any]]:
        """The rows of ``query`` as dictionaries; :class:`StoreError` when the database fails."""
        if self.engine is None:
            raise StoreError("the store is closed")
        try:
            try:
                return await self._read(query)
            except sa.exc.DBAPIError as exc:
                if not exc.connection_invalidated:
                    raise
                return await self._read(query)  # a pooled connection had died (database restarted)
        except (OSError, sa.exc.SQLAlchemyError) as exc:
            raise StoreError(f"the database did not answer: {_reason(exc)}") from exc

    async def _read(self, query: sa.Executable) -> list[dict[str, Any]]:
        assert self.engine is not None
        async with self.engine.connect() as connection:
            result = await connection.execute(query)
            return [dict(row._mapping) for row in result]

    async def execute(self, statement: sa.Executable) -> list[dict[str, Any]]:
        """Run one statement in its own transaction at once (not group-committed) and return its
        rows (``RETURNING``); for leases, which must be decided before anything else is done."""
        if self.engine is None:
            raise StoreError("the store is closed")
        try:
            async with self.engine.begin() as connection:
                result = await connection.execute(statement)
                return [dict(row._mapping) for row in result] if result.returns_rows else []
        except (OSError, sa.exc.SQLAlchemyError) as exc:
            raise StoreError(f"the database did not answer: {_reason(exc)}") from exc

    async def execute_guarded(self, guard: sa.Executable, *then: sa.Executable) -> list[dict[str, Any]]:
        """Run ``guard`` (an ``UPDATE ... RETURNING``) and, only if it returned rows, ``then``, all in
        one transaction committed at once; returns the guard's rows (none: nothing was changed)."""
        if self.engine is None:
            raise StoreError("the store is closed")
        try:
            async with self.engine.begin() as connection:
                rows = [dict(row._mapping) for row in await connection.execute(guard)]
                if rows:
                    await _run(connection, then)
                return rows
        except (OSError, sa.exc.SQLAlchemyError) as exc:
            raise StoreError(f"the database did not answer: {_reason(exc)}") from exc

    async def ping(self) -> bool:
        """Whether the database answers a trivial query."""
        try:
            await self.fetch(sa.select(sa.literal(1)))
        except StoreError:
            return False
        return True


def _migrate(connection: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    if connection.dialect.name == "postgresql":
        # several processes may start at once on one database: one migrates, the others wait
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(726173)"))
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def merged(statements: Sequence[Statement]) -> list[sa.Executable]:
    """``statements`` in order as SQL, each run of adjacent :class:`Append` to one table (rows with
    the same columns) as one ``INSERT`` of at most :data:`MAX_APPEND_ROWS` rows; empty appends
    dropped.  Nothing moves past another statement, so a transaction's effects keep their order."""
    out: list[sa.Executable] = []
    table: sa.Table | None = None
    rows: list[dict[str, Any]] = []
    for statement in [*statements, None]:
        if isinstance(statement, Append) and not statement.rows:
            continue
        if isinstance(statement, Append) and statement.table is table and statement.rows[0].keys() == rows[0].keys():
            rows.extend(statement.rows)
            continue
        if table is not None:
            out.extend(
                sa.insert(table).values(rows[i : i + MAX_APPEND_ROWS]) for i in range(0, len(rows), MAX_APPEND_ROWS)
            )
            table, rows = None, []
        if isinstance(statement, Append):
            table, rows = statement.table, list(statement.rows)
        elif statement is not None:
            out.append(statement)
    return out


async def _run(connection: AsyncConnection, statements: Sequence[sa.Executable]) -> None:
    for statement in statements:
        await connection.execute(statement)


def _settle(item: _Write, error: BaseException | None) -> None:
    if item.done.done():
        return
    if error is None:
        item.done.set_result(None)
        return
    log.warning("write failed", extra={"event": "write_failed", "reason": _reason(error)})
    kind = StoreConflict if isinstance(error, sa.exc.IntegrityError) else StoreError
    wrapped = kind(f"the change could not be saved: {_reason(error)}")
    wrapped.__cause__ = error
    item.done.set_exception(wrapped)


def _reason(exc: BaseException) -> str:
    """A short reason for a database failure, without statement parameters (they may hold secrets)."""
    if isinstance(exc, sa.exc.IntegrityError):
        return "a conflicting row exists"
    if isinstance(exc, sa.exc.DBAPIError) and exc.orig is not None:
        return type(exc.orig).__name__
    if isinstance(exc, sa.exc.SQLAlchemyError):
        return type(exc).__name__
    return str(exc) or type(exc).__name__
