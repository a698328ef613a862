"""The leases' statements: which process owns each table in play (see :mod:`shadowtable.server.cluster`)."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from shadowtable.server import schema


def take_lease(table_id: str, owner: str, lease_s: float, *, is_sqlite: bool) -> sa.Executable:
    """Own ``table_id`` for ``lease_s`` if nobody does, its lease expired, or ``owner`` has it
    already; returns the owner after the statement."""
    dialect: Any = sqlite if is_sqlite else postgresql
    now = time.time()
    until = now + lease_s
    insert = dialect.insert(schema.leases).values(table_id=table_id, owner=owner, expires_at=until)
    statement: sa.Executable = insert.on_conflict_do_update(
        index_elements=[schema.leases.c.table_id],
        set_={"owner": owner, "expires_at": until},
        where=(schema.leases.c.owner == owner) | (schema.leases.c.expires_at < now),
    ).returning(schema.leases.c.owner)
    return statement


def renew_leases(table_ids: list[str], owner: str, lease_s: float) -> sa.Executable:
    """Extend ``owner``'s leases on ``table_ids`` by ``lease_s`` from now; returns the ids still theirs."""
    until = time.time() + lease_s
    return (
        sa.update(schema.leases)
        .where(schema.leases.c.table_id.in_(table_ids), schema.leases.c.owner == owner)
        .values(expires_at=until)
        .returning(schema.leases.c.table_id)
    )


def release_leases(table_ids: list[str], owner: str) -> sa.Executable:
    """Give up ``owner``'s leases on ``table_ids``."""
    return sa.delete(schema.leases).where(schema.leases.c.table_id.in_(table_ids), schema.leases.c.owner == owner)


def orphaned_tables(limit: int, passed_by: Collection[str] = ()) -> sa.Executable:
    """Tables in play whose lease is missing or expired, but for those ``passed_by``."""
    now = time.time()
    joined = schema.tables.outerjoin(schema.leases, schema.leases.c.table_id == schema.tables.c.id)
    conditions = [
        schema.tables.c.status == "playing",
        sa.or_(schema.leases.c.table_id.is_(None), schema.leases.c.expires_at < now),
    ]
    if passed_by:
        conditions.append(schema.tables.c.id.not_in(list(passed_by)))
    return sa.select(schema.tables.c.id).select_from(joined).where(*conditions).limit(limit)
