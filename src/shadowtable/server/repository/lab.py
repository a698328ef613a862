"""The lab runs' statements: each account's runs, the queue the worker pool takes pieces from, and
the rows of the games played.

A run is ``queued`` until its first piece starts, then ``running`` until every arm has all its
games (``done``), its owner stops it (``stopped``; resumed: ``queued`` again) or a piece fails
too often (``failed``).  A process plays one piece (a chunk of games of one arm) under a claim:
:func:`claim` is an ``UPDATE`` guarded by the state it read, so two processes never both take a
run, and every later change by the worker is guarded by ``claimed_by``.  A chunk's rows and the
run's new counts are stored together (:func:`store_chunk` guards the rows' ``INSERT``), so the
games stored per arm are always ``0 .. done-1`` and a resumed run plays only the missing ones.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from shadowtable.server import schema

RUNS = schema.lab_runs
ROWS = schema.lab_rows
ACTIVE = ("queued", "running")
"""A run in these states is the account's one running run."""
RESUMABLE = ("stopped", "failed")
LISTED = [c for c in RUNS.c if c.name not in ("spec", "figures", "replays")]
"""The columns of a run in a list (not its spec nor its figures)."""


def insert_run(run_id: str, owner: str, spec: dict[str, Any], arms: int, games: int, at: float) -> sa.Executable:
    """A new queued run of ``owner`` (``spec``: the checked specification's JSON)."""
    return sa.insert(RUNS).values(
        id=run_id,
        owner=owner,
        game=spec["game"],
        players=spec["players"],
        spec=json.dumps(spec, separators=(",", ":")),
        status="queued",
        games=games,
        done=json.dumps([0] * arms),
        attempts=0,
        created_at=at,
    )


def runs_of(owner: str, limit: int) -> sa.Executable:
    """``owner``'s runs, newest first, without their specs and figures."""
    return sa.select(*LISTED).where(RUNS.c.owner == owner).order_by(RUNS.c.created_at.desc()).limit(limit)


def run_of(run_id: str) -> sa.Executable:
    """The whole row of run ``run_id`` (none: no such run)."""
    return sa.select(RUNS).where(RUNS.c.id == run_id)


def status_of(run_id: str) -> sa.Executable:
    """Run ``run_id`` without its spec and figures."""
    return sa.select(*LISTED).where(RUNS.c.id == run_id)


def count_of(owner: str) -> sa.Executable:
    """How many runs ``owner`` keeps, and how many of them are queued or running."""
    active = sa.func.sum(sa.case((RUNS.c.status.in_(ACTIVE), 1), else_=0))
    return sa.select(sa.func.count().label("runs"), active.label("active")).where(RUNS.c.owner == owner)


def _takeable(now: float) -> sa.ColumnElement[bool]:
    free = sa.or_(RUNS.c.claimed_by.is_(None), RUNS.c.lease_until < now)
    return sa.and_(RUNS.c.status.in_(ACTIVE), free)


def candidates(now: float, limit: int) -> sa.Executable:
    """The runs a piece may be taken of at ``now``, least recently started first."""
    return (
        sa.select(RUNS.c.id, RUNS.c.attempts)
        .where(_takeable(now))
        .order_by(sa.func.coalesce(RUNS.c.lease_until, 0), RUNS.c.created_at)
        .limit(limit)
    )


def claim(run_id: str, owner: str, now: float, lease_s: float) -> sa.Executable:
    """Take run ``run_id`` for one piece by process ``owner`` if it may still be taken (atomic);
    counts an attempt.  ``RETURNING`` its spec, games and counts (none: another took it)."""
    return (
        sa.update(RUNS)
        .where(RUNS.c.id == run_id, _takeable(now))
        .values(
            status="running",
            claimed_by=owner,
            lease_until=now + lease_s,
            attempts=RUNS.c.attempts + 1,
            started_at=sa.func.coalesce(RUNS.c.started_at, now),
        )
        .returning(RUNS.c.id, RUNS.c.spec, RUNS.c.games, RUNS.c.done)
    )


def _mine(run_id: str, owner: str) -> sa.ColumnElement[bool]:
    return sa.and_(RUNS.c.id == run_id, RUNS.c.claimed_by == owner)


def renew(run_id: str, owner: str, lease_until: float) -> sa.Executable:
    """Extend ``owner``'s claim; ``RETURNING`` the id while the run is still its own."""
    return sa.update(RUNS).where(_mine(run_id, owner)).values(lease_until=lease_until).returning(RUNS.c.id)


def store_chunk(run_id: str, owner: str, done: str) -> sa.Executable:
    """The guard of a chunk's rows: the run's new counts (``done``, JSON) if it is still ``owner``'s."""
    return sa.update(RUNS).where(_mine(run_id, owner)).values(done=done, attempts=0).returning(RUNS.c.id)


def insert_rows(run_id: str, arm: int, rows: list[tuple[int, str]]) -> sa.Executable:
    """The rows of one chunk: ``(index, JSON)`` of each game."""
    return sa.insert(ROWS).values([{"run_id": run_id, "arm": arm, "idx": i, "row": row} for i, row in rows])


def release(run_id: str, owner: str) -> sa.Executable:
    """Let another piece of ``owner``'s run be taken (by any process, at once)."""
    return (
        sa.update(RUNS)
        .where(_mine(run_id, owner))
        .values(claimed_by=None, lease_until=None)
        .returning(RUNS.c.id, RUNS.c.status)
    )


def finish(run_id: str, owner: str, figures: str, now: float) -> sa.Executable:
    """Store the figures of ``owner``'s run, whose every game is stored, and mark it done."""
    return (
        sa.update(RUNS)
        .where(_mine(run_id, owner))
        .values(status="done", figures=figures, claimed_by=None, lease_until=None, finished_at=now)
        .returning(RUNS.c.id)
    )


def fail(run_id: str, owner: str, error: str, now: float) -> sa.Executable:
    """Mark ``owner``'s run failed with ``error`` (its rows are kept: it may be resumed)."""
    return (
        sa.update(RUNS)
        .where(_mine(run_id, owner))
        .values(status="failed", error=error, claimed_by=None, lease_until=None, finished_at=now)
        .returning(RUNS.c.id)
    )


def give_up(run_id: str, now: float, error: str) -> sa.Executable:
    """Mark a run whose piece was started too often (its worker died each time) as failed."""
    return (
        sa.update(RUNS)
        .where(RUNS.c.id == run_id, _takeable(now))
        .values(status="failed", error=error, claimed_by=None, lease_until=None, finished_at=now)
        .returning(RUNS.c.id)
    )


def stop(run_id: str, account: str) -> sa.Executable:
    """Stop ``account``'s queued or running run (a piece under way still stores its games)."""
    return (
        sa.update(RUNS)
        .where(RUNS.c.id == run_id, RUNS.c.owner == account, RUNS.c.status.in_(ACTIVE))
        .values(status="stopped")
        .returning(RUNS.c.id)
    )


def resume(run_id: str, account: str) -> sa.Executable:
    """Queue ``account``'s stopped or failed run again (it plays only the games it lacks)."""
    return (
        sa.update(RUNS)
        .where(RUNS.c.id == run_id, RUNS.c.owner == account, RUNS.c.status.in_(RESUMABLE))
        .values(status="queued", attempts=0, error=None, finished_at=None)
        .returning(RUNS.c.id)
    )


def rows_page(run_id: str, arm: int, after: int, limit: int) -> sa.Executable:
    """Up to ``limit`` rows of one arm with an index past ``after``, in index order."""
    return (
        sa.select(ROWS.c.idx, ROWS.c.row)
        .where(ROWS.c.run_id == run_id, ROWS.c.arm == arm, ROWS.c.idx > after)
        .order_by(ROWS.c.idx)
        .limit(limit)
    )


def set_replays(run_id: str, replays: str) -> sa.Executable:
    """Store the tables the run's odd games were opened as (``{"arm:index": table id}``, JSON)."""
    return sa.update(RUNS).where(RUNS.c.id == run_id).values(replays=replays)


def mark_deleting(run_id: str, account: str) -> sa.Executable:
    """The guard of a deletion: ``account``'s run, neither queued, running nor claimed, marked
    ``deleting``; ``RETURNING`` its id (none: it may not be deleted now)."""
    return (
        sa.update(RUNS)
        .where(
            RUNS.c.id == run_id,
            RUNS.c.owner == account,
            RUNS.c.claimed_by.is_(None),
            RUNS.c.status.not_in(ACTIVE),
        )
        .values(status="deleting")
        .returning(RUNS.c.id)
    )


def delete_rows(run_id: str) -> sa.Executable:
    return sa.delete(ROWS).where(ROWS.c.run_id == run_id)


def delete_run(run_id: str) -> sa.Executable:
    return sa.delete(RUNS).where(RUNS.c.id == run_id)
