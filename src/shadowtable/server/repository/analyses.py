"""The analyses' statements: the queue of analyses of finished tables and their stored results.

A job is one row per table.  A process takes a job with :func:`claim`, an ``UPDATE`` guarded by
the state it read (queued, or running under a lease that expired), so on SQLite and PostgreSQL
alike two processes never both take it: the second one's guard no longer holds and it changes
nothing.  Every later change of a running job is guarded by ``claimed_by``, so a process whose
lease was taken over cannot overwrite the new owner's work.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from shadowtable.server import schema

ANALYSES = schema.analyses
WAITING = ("queued", "running")


def analysis_of(table_id: str) -> sa.Executable:
    """The job row of ``table_id`` (none: never asked for)."""
    return sa.select(ANALYSES).where(ANALYSES.c.table_id == table_id)


def status_of(table_id: str) -> sa.Executable:
    """The job row of ``table_id`` without its result."""
    columns = [c for c in ANALYSES.c if c.name != "result"]
    return sa.select(*columns).where(ANALYSES.c.table_id == table_id)


def waiting_count() -> sa.Executable:
    """How many jobs are queued or running (every process together)."""
    return sa.select(sa.func.count()).select_from(ANALYSES).where(ANALYSES.c.status.in_(WAITING))


def enqueue(table_id: str, at: float, *, is_sqlite: bool) -> sa.Executable:
    """Queue ``table_id`` unless it has a job already (then nothing changes); ``RETURNING`` the
    table id when a job was made."""
    dialect: Any = sqlite if is_sqlite else postgresql
    insert = dialect.insert(ANALYSES).values(
        table_id=table_id, status="queued", progress=0.0, attempts=0, requested_at=at
    )
    statement: sa.Executable = insert.on_conflict_do_nothing(index_elements=[ANALYSES.c.table_id]).returning(
        ANALYSES.c.table_id
    )
    return statement


def requeue_failed(table_id: str, at: float) -> sa.Executable:
    """Queue a failed job again, its attempts counted afresh; ``RETURNING`` its id if it had failed."""
    return (
        sa.update(ANALYSES)
        .where(ANALYSES.c.table_id == table_id, ANALYSES.c.status == "failed")
        .values(status="queued", progress=0.0, attempts=0, error=None, claimed_by=None, lease_until=None)
        .values(requested_at=at)
        .returning(ANALYSES.c.table_id)
    )


def _takeable(now: float) -> sa.ColumnElement[bool]:
    expired = sa.and_(ANALYSES.c.status == "running", ANALYSES.c.lease_until < now)
    return sa.or_(ANALYSES.c.status == "queued", expired)


def candidates(now: float, limit: int) -> sa.Executable:
    """The oldest jobs that may be taken at ``now``: queued, or running under an expired lease."""
    return (
        sa.select(ANALYSES.c.table_id, ANALYSES.c.attempts)
        .where(_takeable(now))
        .order_by(ANALYSES.c.requested_at)
        .limit(limit)
    )


def claim(table_id: str, owner: str, now: float, lease_s: float) -> sa.Executable:
    """Take job ``table_id`` for ``owner`` until ``now + lease_s`` if it may still be taken (one
    statement: atomic); counts an attempt.  ``RETURNING`` its id and attempts (none: taken by another)."""
    return (
        sa.update(ANALYSES)
        .where(ANALYSES.c.table_id == table_id, _takeable(now))
        .values(
            status="running",
            claimed_by=owner,
            lease_until=now + lease_s,
            attempts=ANALYSES.c.attempts + 1,
            progress=0.0,
            started_at=now,
        )
        .returning(ANALYSES.c.table_id, ANALYSES.c.attempts)
    )


def give_up(table_id: str, now: float, error: str) -> sa.Executable:
    """Mark a job that may be taken (its last attempt's worker died) as failed with ``error``."""
    return (
        sa.update(ANALYSES)
        .where(ANALYSES.c.table_id == table_id, _takeable(now))
        .values(status="failed", error=error, claimed_by=None, lease_until=None, finished_at=now)
        .returning(ANALYSES.c.table_id)
    )


def _mine(table_id: str, owner: str) -> sa.ColumnElement[bool]:
    return sa.and_(ANALYSES.c.table_id == table_id, ANALYSES.c.claimed_by == owner, ANALYSES.c.status == "running")


def report(table_id: str, owner: str, progress: float, lease_until: float) -> sa.Executable:
    """Store ``owner``'s progress on its running job and extend its lease; ``RETURNING`` the id if
    the job is still its own."""
    return (
        sa.update(ANALYSES)
        .where(_mine(table_id, owner))
        .values(progress=progress, lease_until=lease_until)
        .returning(ANALYSES.c.table_id)
    )


def finish(table_id: str, owner: str, result: str, now: float) -> sa.Executable:
    """Store the result of ``owner``'s running job and mark it done, in one statement."""
    return (
        sa.update(ANALYSES)
        .where(_mine(table_id, owner))
        .values(status="done", progress=1.0, result=result, claimed_by=None, lease_until=None, finished_at=now)
        .returning(ANALYSES.c.table_id)
    )


def fail(table_id: str, owner: str, error: str, now: float) -> sa.Executable:
    """Mark ``owner``'s running job failed with ``error`` (it will not be tried again by itself)."""
    return (
        sa.update(ANALYSES)
        .where(_mine(table_id, owner))
        .values(status="failed", error=error, claimed_by=None, lease_until=None, finished_at=now)
        .returning(ANALYSES.c.table_id)
    )


def release(table_id: str, owner: str) -> sa.Executable:
    """Put ``owner``'s running job back in the queue (its worker died, or this process stops):
    it is taken again at once, not after its lease."""
    return (
        sa.update(ANALYSES)
        .where(_mine(table_id, owner))
        .values(status="queued", progress=0.0, claimed_by=None, lease_until=None)
        .returning(ANALYSES.c.table_id)
    )
