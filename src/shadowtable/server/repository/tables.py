"""The tables' statements: tables, seats, actions and chat, each a small named function.

Statement builders (``insert_table``, ``update_seat``, ``claim_seat``, ...) only build; the
:class:`Repository` runs them on the :class:`~shadowtable.server.store.Store`, its failures
translated once (:func:`~shadowtable.server.repository.failures.store_failures`): a write another
process won is :class:`Stale`, a database that does not answer is :class:`Unavailable`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from shadowtable.core.undo import UNDO_SEAT
from shadowtable.server import schema
from shadowtable.server.live import Step
from shadowtable.server.repository.failures import store_failures
from shadowtable.server.store import Append, Statement, Store
from shadowtable.server.table import TURN_BASED, Seat
from shadowtable.server.tokens import key_hash

Row = dict[str, Any]


# -- statements ---------------------------------------------------------------------------------
def insert_table(table_id: str, fields: dict[str, Any]) -> sa.Executable:
    """The ``tables`` row of a new table (``fields``: its columns but the id)."""
    return sa.insert(schema.tables).values(id=table_id, **fields)


def insert_seats(table_id: str, seats: Sequence[Seat]) -> sa.Executable:
    """The ``seats`` rows of a new table."""
    return sa.insert(schema.seats).values([_seat_row(table_id, i, seat) for i, seat in enumerate(seats)])


def _seat_row(table_id: str, index: int, seat: Seat) -> Row:
    kind, bot, name, hashed, zombie, clock_ms, left = seat.row()
    kept = seat.reserved
    return {
        "reserved_hash": None if kept is None else kept.key_hash,
        "reserved_account": None if kept is None else kept.account_id,
        "reserved_until": None if kept is None else kept.until,
        "table_id": table_id,
        "seat": index,
        "kind": kind,
        "bot": bot,
        "name": name,
        "key_hash": hashed,
        "zombie": zombie,
        "clock_ms": clock_ms,
        "left_hash": left,
        **seat.turn_fields(),
    }


def update_table(table_id: str, **values: Any) -> sa.Executable:
    """Change stored fields of a table (``status``, ``host_seat``, ``rematch``, ...)."""
    return sa.update(schema.tables).where(schema.tables.c.id == table_id).values(**values)


def table_unrated(table_id: str) -> sa.Executable:
    """Mark a table as not rated (a bot played, or will play, a human seat)."""
    return update_table(table_id, rated=False)


def update_seat(table_id: str, seat: int, **values: Any) -> sa.Executable:
    """Change stored fields of a seat."""
    where = (schema.seats.c.table_id == table_id, schema.seats.c.seat == seat)
    return sa.update(schema.seats).where(*where).values(**values)


def claim_seat(
    table_id: str,
    seat: int,
    key: str,
    name: str,
    account_id: str | None,
    invite: str | None,
    *,
    kept_for_me: bool = False,
) -> sa.Executable:
    """Give ``seat`` the hash of ``key`` only if it is still free (another process may have seated
    someone a moment ago) or, with ``invite``, still vacated with that live invite (used up here).
    A seat a rematch keeps for its former holder is free only to them (``kept_for_me``) or once
    the reservation has ended; taking the seat ends it."""
    columns = schema.seats.c
    where = [columns.table_id == table_id, columns.seat == seat, columns.key_hash.is_(None)]
    values: dict[str, Any] = {"key_hash": key_hash(key), "name": name, "account_id": account_id}
    values.update(reserved_hash=None, reserved_account=None, reserved_until=None)
    if invite is None:
        where += [columns.kind == "human", columns.zombie.is_(False)]
        if not kept_for_me:
            where.append(sa.or_(columns.reserved_until.is_(None), columns.reserved_until <= time.time()))
    else:
        where += [
            schema.seats.c.zombie.is_(True),
            schema.seats.c.invite_hash == key_hash(invite),
            schema.seats.c.invite_expires > time.time(),
        ]
        values.update(left_hash=None, invite_hash=None, invite_expires=None)
    return sa.update(schema.seats).where(*where).values(**values).returning(schema.seats.c.seat)


def restore_seat(table_id: str, seat: int, left_hash: str | None) -> sa.Executable:
    """Give a vacated seat its leaver's key back, if nobody took it meanwhile (guard)."""
    return (
        sa.update(schema.seats)
        .where(
            schema.seats.c.table_id == table_id,
            schema.seats.c.seat == seat,
            schema.seats.c.key_hash.is_(None),
            schema.seats.c.left_hash == left_hash,
        )
        .values(key_hash=left_hash, left_hash=None, invite_hash=None, invite_expires=None)
        .returning(schema.seats.c.seat)
    )


def invite_to_seat(table_id: str, seat: int, code: str, expires: float) -> sa.Executable:
    """Store the hash of an invite ``code`` to a seat still vacated (guard); it replaces any other."""
    return (
        sa.update(schema.seats)
        .where(
            schema.seats.c.table_id == table_id,
            schema.seats.c.seat == seat,
            schema.seats.c.key_hash.is_(None),
            schema.seats.c.zombie.is_(True),
        )
        .values(invite_hash=key_hash(code), invite_expires=expires)
        .returning(schema.seats.c.seat)
    )


def end_reservation(table_id: str, seat: int) -> sa.Executable:
    """The rematch no longer keeps ``seat`` for its former holder (they declined it)."""
    return update_seat(table_id, seat, reserved_hash=None, reserved_account=None, reserved_until=None)


def append_steps(table_id: str, first: int, steps: Sequence[Step], client_id: str | None, at: float) -> Statement:
    """The ``actions`` rows of ``steps`` from index ``first``; ``client_id`` marks the seat's own
    decision (the first step)."""
    rows = [
        {
            "table_id": table_id,
            "idx": first + i,
            "seat": step.seat,
            "action": step.action,
            "client_id": client_id if i == 0 and step.seat >= 0 else None,
            "at": at,
        }
        for i, step in enumerate(steps)
    ]
    return Append(schema.actions, rows)


def append_undo(table_id: str, idx: int, count: int, at: float) -> Statement:
    """The ``actions`` row of an undo at index ``idx``: the last seat to decide took back its last
    ``count`` decisions (seat :data:`~shadowtable.core.undo.UNDO_SEAT`; the log stays append-only)."""
    row = {"table_id": table_id, "idx": idx, "seat": UNDO_SEAT, "action": count, "client_id": None, "at": at}
    return Append(schema.actions, [row])


def game_over(table_id: str, returns: list[float], at: float) -> sa.Executable:
    """Store a table's end."""
    return update_table(table_id, status="over", returns=returns, finished_at=at)


def insert_chat(table_id: str, seq: int, seat: int, text: str, at: float) -> sa.Executable:
    """A table's chat line ``seq`` (its primary key settles two processes' race)."""
    return sa.insert(schema.chat).values(table_id=table_id, seq=seq, seat=seat, text=text, at=at)


# -- reading and writing ------------------------------------------------------------------------
@dataclass(frozen=True)
class TableRows:
    """A table as stored: its row, its seats and the actions and chat lines asked for."""

    table: Row
    seats: list[Row]
    actions: list[Row]
    chat: list[Row]


class Repository:
    """The tables' statements run on ``store``, its failures raised as the service's errors."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def write(self, *statements: Statement, table_id: str | None = None) -> None:
        """Store ``statements`` (a table's writes: under its lock, keyed by its id, so they keep
        their order); :class:`Stale` or :class:`Unavailable` when that fails."""
        with store_failures():
            await self.store.write(*statements, key=table_id)

    async def guarded(self, guard: sa.Executable, *then: sa.Executable) -> list[Row]:
        """Run ``guard`` (an UPDATE ... RETURNING) and, only if it changed a row, ``then``, in one
        transaction; the rows ``guard`` returned (none: the guard did not hold)."""
        with store_failures():
            return await self.store.execute_guarded(guard, *then)

    async def fetch(self, query: sa.Executable) -> list[Row]:
        """The rows of ``query``."""
        with store_failures():
            return await self.store.fetch(query)

    async def turn_tables_of(self, account_id: str | None, table_ids: Sequence[str]) -> int:
        """How many turn-based tables not over the account ``account_id`` sits at (a guest, without
        one: how many of ``table_ids``, its browser's seats, are such tables)."""
        tables = schema.tables
        query = sa.select(sa.func.count(sa.distinct(tables.c.id))).where(
            tables.c.mode == TURN_BASED, tables.c.status != "over"
        )
        if account_id is not None:
            query = query.join(schema.seats, schema.seats.c.table_id == tables.c.id).where(
                schema.seats.c.account_id == account_id, schema.seats.c.key_hash.is_not(None)
            )
        elif table_ids:
            query = query.where(tables.c.id.in_(list(table_ids)))
        else:
            return 0
        rows = await self.fetch(query)
        return int(next(iter(rows[0].values()))) if rows else 0

    async def playing_ids(self) -> list[str]:
        """The tables in play."""
        rows = await self.fetch(sa.select(schema.tables.c.id).where(schema.tables.c.status == "playing"))
        return [row["id"] for row in rows]

    async def listed_ids(self, status: str, limit: int) -> list[str]:
        """Listed tables with ``status``, newest first."""
        query = (
            sa.select(schema.tables.c.id)
            .where(schema.tables.c.status == status, schema.tables.c.listed.is_(True))
            .order_by(schema.tables.c.created_at.desc())
            .limit(limit)
        )
        return [row["id"] for row in await self.fetch(query)]

    async def table_rows(self, table_id: str, actions_from: int = 0, chat_from: int = 0) -> TableRows | None:
        """Table ``table_id`` as stored, with its actions from ``actions_from`` and chat lines from
        ``chat_from`` (``None``: no such table)."""
        found = await self.fetch(sa.select(schema.tables).where(schema.tables.c.id == table_id))
        if not found:
            return None
        seats = sa.select(schema.seats).where(schema.seats.c.table_id == table_id).order_by(schema.seats.c.seat)
        actions = (
            sa.select(schema.actions)
            .where(schema.actions.c.table_id == table_id, schema.actions.c.idx >= actions_from)
            .order_by(schema.actions.c.idx)
        )
        chat = (
            sa.select(schema.chat)
            .where(schema.chat.c.table_id == table_id, schema.chat.c.seq >= chat_from)
            .order_by(schema.chat.c.seq)
        )
        return TableRows(found[0], await self.fetch(seats), await self.fetch(actions), await self.fetch(chat))

    async def action_count(self, table_id: str) -> int:
        """How many actions of ``table_id`` are stored."""
        query = sa.select(sa.func.count()).select_from(schema.actions).where(schema.actions.c.table_id == table_id)
        rows = await self.fetch(query)
        return int(next(iter(rows[0].values()))) if rows else 0

    async def ended_before(self, table_ids: list[str], before: float) -> set[str]:
        """Those of ``table_ids`` whose game ended at ``before`` or earlier."""
        query = sa.select(schema.tables.c.id).where(
            schema.tables.c.id.in_(table_ids),
            schema.tables.c.status == "over",
            schema.tables.c.finished_at <= before,
        )
        return {row["id"] for row in await self.fetch(query)}

    async def is_account_name(self, key: str) -> bool:
        """Whether an account goes by the name whose key (:func:`~shadowtable.server.names.name_key`) is ``key``."""
        query = sa.select(schema.accounts.c.id).where(schema.accounts.c.name_key == key).limit(1)
        return bool(await self.fetch(query))

    async def seat_accounts(self, table_id: str) -> dict[int, str | None]:
        """The account each seat of ``table_id`` was taken with (``None``: a guest, a bot, nobody)."""
        query = sa.select(schema.seats.c.seat, schema.seats.c.account_id).where(schema.seats.c.table_id == table_id)
        return {int(row["seat"]): row["account_id"] for row in await self.fetch(query)}

    async def player_seats(
        self, account_id: str | None, held: list[tuple[str, int]], limit: int, *, playing_only: bool = False
    ) -> list[Row]:
        """The seats taken with ``account_id`` (still held, or left in play) and the ``held`` seats
        (``(table, seat)``: a browser's cookie names them), with their table's ``game``,
        ``status``, ``returns``, ``created_at`` and ``finished_at``: tables not over first, newest
        first, then the latest finished; at most ``limit`` (``playing_only``: only tables in play)."""
        seats, tables = schema.seats.c, schema.tables.c
        anyone = []
        if account_id is not None:
            kept = sa.or_(seats.key_hash.is_not(None), seats.left_hash.is_not(None))
            anyone.append(sa.and_(seats.account_id == account_id, kept))
        anyone += [sa.and_(seats.table_id == table_id, seats.seat == seat) for table_id, seat in held]
        if not anyone:
            return []
        where = [sa.or_(*anyone)]
        if playing_only:
            where.append(tables.status == "playing")
        query = (
            sa.select(
                seats.table_id,
                seats.seat,
                seats.account_id,
                seats.key_hash,
                seats.left_hash,
                tables.game,
                tables.status,
                tables.returns,
                tables.created_at,
                tables.finished_at,
            )
            .join(schema.tables, tables.id == seats.table_id)
            .where(*where)
            .order_by(
                sa.case((tables.status == "over", 1), else_=0),
                sa.func.coalesce(tables.finished_at, tables.created_at).desc(),
            )
            .limit(limit)
        )
        return await self.fetch(query)

    async def seats_of(self, table_ids: list[str]) -> dict[str, list[Row]]:
        """The seats (kind, bot, name, ...) of each of ``table_ids``."""
        query = sa.select(schema.seats).where(schema.seats.c.table_id.in_(table_ids))
        found: dict[str, list[Row]] = {}
        for row in await self.fetch(query):
            found.setdefault(row["table_id"], []).append(row)
        return found

    async def invited_seat(self, table_id: str, code: str) -> int | None:
        """The vacated seat of ``table_id`` a live invite ``code`` names, if any."""
        query = sa.select(schema.seats.c.seat).where(
            schema.seats.c.table_id == table_id,
            schema.seats.c.invite_hash == key_hash(code),
            schema.seats.c.invite_expires > time.time(),
            schema.seats.c.key_hash.is_(None),
        )
        rows = await self.fetch(query)
        return int(rows[0]["seat"]) if rows else None
