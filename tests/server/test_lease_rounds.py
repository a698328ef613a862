"""The lease rounds of a clustered server go on whatever one round raises: they renew the leases
and catch a table up after a lost bus message, so a round that fails must not end them; and a
table the process cannot play never holds up the takeover of the others."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Collection
from types import SimpleNamespace

import pytest

from server.test_store import _table
from shadowtable.server.cluster import Leases
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Unavailable
from shadowtable.server.store import Store, StoreError
from shadowtable.server.sync import TableSync


def _rounds_after(failures: list[BaseException], wanted: int) -> int:
    """Run the lease loop of a bare :class:`TableSync` whose first rounds raise ``failures`` in
    turn; how many rounds ran once ``wanted`` had."""
    sync = TableSync(object(), ServerConfig(lease_s=0.03), object())  # type: ignore[arg-type]
    rounds = 0
    done = asyncio.Event()

    async def round_() -> None:
        nonlocal rounds
        rounds += 1
        if rounds >= wanted:
            done.set()
        if rounds <= len(failures):
            raise failures[rounds - 1]

    sync._lease_tick = round_  # type: ignore[method-assign]

    async def run() -> int:
        loop = asyncio.ensure_future(sync._lease_loop())
        try:
            await asyncio.wait_for(done.wait(), 5)
        finally:
            loop.cancel()
        return rounds

    return asyncio.run(run())


@pytest.mark.parametrize("failure", [RuntimeError("a bug"), KeyError("gone"), StoreError("no answer")])
def test_a_failed_lease_round_is_logged_and_the_next_round_comes(
    failure: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    rounds = _rounds_after([failure, failure], wanted=3)
    logged = [r.getMessage() for r in caplog.records if r.name == "shadowtable.server"]
    assert rounds == 3
    assert logged.count("lease round failed unexpectedly") + logged.count("lease round failed") == 2


class _Leases:
    """Leases in memory: every table listed is an orphan this process gets."""

    def __init__(self, listed: list[str]) -> None:
        self.listed = listed
        self.released: list[str] = []

    async def orphans(self, limit: int = 50, passed_by: Collection[str] = ()) -> list[str]:
        return [t for t in self.listed if t not in passed_by][:limit]

    async def acquire(self, table_id: str) -> bool:
        return True

    async def release(self, table_ids: list[str]) -> None:
        self.released.extend(table_ids)

    async def renew(self, table_ids: list[str]) -> set[str]:
        return set(table_ids)


class _Service:
    """Loads every table but those whose id says they cannot be played here."""

    def __init__(self) -> None:
        self.tables: dict[str, SimpleNamespace] = {}
        self.tried: list[str] = []

    async def table(self, table_id: str) -> object:
        self.tried.append(table_id)
        if table_id.startswith("unplayable"):
            raise Unavailable(f"table {table_id} cannot be played by this server: unknown game 'elsewhere'")
        self.tables[table_id] = SimpleNamespace(sockets=SimpleNamespace(owned=True), status="playing", connections=())
        return self.tables[table_id]


def test_a_table_this_process_cannot_play_does_not_hold_up_the_takeover_of_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An orphan that fails to load (a game this process lacks, a record that no longer replays)
    is logged, given back and passed by in later rounds; the orphans after it are taken over."""
    service = _Service()
    sync = TableSync(service, ServerConfig(lease_s=0.03), object())  # type: ignore[arg-type]
    leases = _Leases(["unplayable-1", "table-a", "unplayable-2", "table-b"])
    sync.leases = leases  # type: ignore[assignment]
    sync.bus = SimpleNamespace(healthy=True)  # type: ignore[assignment]

    asyncio.run(sync._lease_tick())
    assert set(service.tables) == {"table-a", "table-b"}
    assert leases.released == ["unplayable-1", "unplayable-2"]
    assert set(sync.passed_by) == {"unplayable-1", "unplayable-2"}
    assert "unknown game 'elsewhere'" in sync.passed_by["unplayable-1"]
    assert [r.getMessage() for r in caplog.records].count("table passed by") == 2

    service.tables.clear()
    asyncio.run(sync._lease_tick())
    assert service.tried[4:] == ["table-a", "table-b"], "the unplayable tables are not tried again"


def test_the_orphans_query_leaves_out_the_tables_passed_by(database: str) -> None:
    async def run() -> list[str]:
        ids = [secrets.token_hex(8) for _ in range(3)]  # the PostgreSQL database is shared by the session
        store = Store(database)
        await store.open()
        try:
            for table_id in ids:
                await store.write(_table(table_id))
            orphans = await Leases(store, "process-1", 5.0).orphans(limit=10_000, passed_by=ids[:2])
        finally:
            await store.close()
        return [("passed by" if t in ids[:2] else "listed") for t in orphans if t in ids]

    assert asyncio.run(run()) == ["listed"]
