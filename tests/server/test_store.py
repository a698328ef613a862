"""The store's writer: writes queued together cost one round trip per statement kind, not per write."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import sqlalchemy as sa

from shadowtable.server import schema
from shadowtable.server.store import Append, Store, StoreConflict, merged


def _rows(table_id: str, first: int, count: int) -> list[dict[str, Any]]:
    return [
        {"table_id": table_id, "idx": first + i, "seat": 0, "action": 1, "client_id": None, "at": 0.0}
        for i in range(count)
    ]


def _table(table_id: str) -> Any:
    return sa.insert(schema.tables).values(
        id=table_id,
        game="shadow-planet",
        version="1",
        players=2,
        options={},
        status="playing",
        listed=False,
        created_at=0.0,
    )


def test_adjacent_appends_to_one_table_become_one_insert_and_nothing_moves() -> None:
    update = sa.update(schema.tables).values(status="over")
    statements = merged(
        [
            Append(schema.actions, _rows("a", 0, 2)),
            Append(schema.actions, []),
            Append(schema.actions, _rows("b", 0, 1)),
            update,
            Append(schema.actions, _rows("c", 0, 1)),
        ]
    )
    assert len(statements) == 3 and statements[1] is update
    first = statements[0].compile()
    assert [first.params[f"table_id_m{i}"] for i in range(3)] == ["a", "a", "b"]
    assert "table_id_m3" not in first.params
    assert merged([Append(schema.actions, [])]) == []
    assert len(merged([Append(schema.actions, _rows("a", 0, 2500))])) == 3  # at most 1,000 rows each


async def _batch(url: str) -> tuple[list[str], list[Any], list[tuple[str, int]]]:
    t1, t2 = secrets.token_hex(8), secrets.token_hex(8)  # the PostgreSQL database is shared by the session
    store = Store(url)
    await store.open()
    assert store.engine is not None
    seen: list[str] = []
    sa.event.listen(store.engine.sync_engine, "before_cursor_execute", lambda *a: seen.append(a[2].split()[0]))
    try:
        await store.write(_table(t1), _table(t2))
        seen.clear()
        # queued before the writer runs: one batch
        outcomes = await asyncio.gather(
            store.write(Append(schema.actions, _rows(t1, 0, 2))),
            store.write(Append(schema.actions, _rows(t2, 0, 1))),
            store.write(Append(schema.actions, _rows(t1, 2, 1))),
            store.write(Append(schema.actions, _rows(t1, 0, 1))),  # a row already there: fails alone
            return_exceptions=True,
        )
        query = sa.select(schema.actions.c.table_id, schema.actions.c.idx)
        rows = await store.fetch(query.where(schema.actions.c.table_id.in_([t1, t2])))
    finally:
        await store.close()
    names = {t1: "t1", t2: "t2"}
    return seen, outcomes, sorted((names[r["table_id"]], r["idx"]) for r in rows)


def test_writes_queued_together_share_one_insert_and_a_conflict_fails_alone(database: str) -> None:
    seen, outcomes, stored = asyncio.run(_batch(database))
    assert outcomes[:3] == [None, None, None]
    assert isinstance(outcomes[3], StoreConflict)
    assert stored == [("t1", 0), ("t1", 1), ("t1", 2), ("t2", 0)]
    # the batch's one INSERT (failed on the conflict), then each write alone
    assert seen == ["INSERT"] * 5 + ["SELECT"]  # and the read


def test_one_queued_write_of_one_statement_is_one_round_trip(database: str) -> None:
    async def run() -> list[str]:
        store = Store(database)
        await store.open()
        assert store.engine is not None
        table_id = secrets.token_hex(8)
        await store.write(_table(table_id))
        seen: list[str] = []
        sa.event.listen(store.engine.sync_engine, "before_cursor_execute", lambda *a: seen.append(a[2].split()[0]))
        try:
            await store.write(Append(schema.actions, _rows(table_id, 0, 3)))
        finally:
            await store.close()
        return seen

    assert asyncio.run(run()) == ["INSERT"]


def test_postgresql_commits_other_tables_beside_a_slow_one(
    postgres_database: str,
) -> None:
    """A table whose write waits on a lock does not hold up another table's write: they are
    committed in other lanes (SQLite has one writer, so one lane)."""
    import asyncpg

    async def run() -> bool:
        store = Store(postgres_database)
        await store.open()
        slow, quick = "slow-" + secrets.token_hex(4), "quick-" + secrets.token_hex(4)
        while store.lane(slow) == store.lane(quick):
            quick = "quick-" + secrets.token_hex(4)
        await store.write(_table(slow), key=slow)
        await store.write(_table(quick), key=quick)
        locker = await asyncpg.connect(postgres_database.replace("postgresql+asyncpg", "postgresql"))
        try:
            # another connection holds the slow table's row: its next write waits
            lock = locker.transaction()
            await lock.start()
            await locker.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", slow)
            held = asyncio.create_task(
                store.write(sa.update(schema.tables).where(schema.tables.c.id == slow).values(status="over"), key=slow)
            )
            await asyncio.sleep(0.2)
            await asyncio.wait_for(store.write(Append(schema.actions, _rows(quick, 0, 1)), key=quick), 5)
            quick_done_while_slow_waits = not held.done()
            await lock.rollback()
            await held
        finally:
            await locker.close()
            await store.close()
        return quick_done_while_slow_waits

    assert asyncio.run(run())
