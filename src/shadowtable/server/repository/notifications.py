"""The notifications' statements: each account's settings and the queue of notifications to deliver.

A turn notification is queued by :func:`queue_turn`, an ``INSERT ... SELECT`` that runs in the
transaction storing the move, so it exists exactly when the move does.  The queue is read and
changed only by :class:`~shadowtable.server.notify_sender.NotificationSender`.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from shadowtable.server import schema

SETTINGS = schema.notify_settings
QUEUE = schema.notify_queue


# -- settings -----------------------------------------------------------------------------------
def settings_of(account_id: str) -> sa.Executable:
    """The settings row of ``account_id`` (none: nothing is sent to it)."""
    return sa.select(SETTINGS).where(SETTINGS.c.account_id == account_id)


def insert_settings(account_id: str, at: float) -> sa.Executable:
    """An account's first settings row: no address, nothing on."""
    return sa.insert(SETTINGS).values(
        account_id=account_id, email=None, email_confirmed=False, email_on=False, webhook=None, updated_at=at
    )


def update_settings(account_id: str, at: float, **values: Any) -> sa.Executable:
    """Change ``values`` of the settings of ``account_id``."""
    return sa.update(SETTINGS).where(SETTINGS.c.account_id == account_id).values(updated_at=at, **values)


def confirm_email(account_id: str, email: str, at: float) -> sa.Executable:
    """Mark ``email`` confirmed if it is still the address of ``account_id`` (``RETURNING`` it)."""
    return (
        sa.update(SETTINGS)
        .where(SETTINGS.c.account_id == account_id, SETTINGS.c.email == email)
        .values(email_confirmed=True, email_on=True, updated_at=at)
        .returning(SETTINGS.c.account_id)
    )


def email_off(account_id: str, email: str, at: float) -> sa.Executable:
    """Turn e-mail off for ``account_id`` if ``email`` is still its address (``RETURNING`` it)."""
    return (
        sa.update(SETTINGS)
        .where(SETTINGS.c.account_id == account_id, SETTINGS.c.email == email)
        .values(email_on=False, updated_at=at)
        .returning(SETTINGS.c.account_id)
    )


# -- the queue ----------------------------------------------------------------------------------
def queue_one(account_id: str, kind: str, payload: str, at: float) -> sa.Executable:
    """A notification that is not a table's (a confirmation mail) for ``account_id``."""
    return sa.insert(QUEUE).values(
        account_id=account_id,
        kind=kind,
        table_id=None,
        version=0,
        payload=payload,
        attempts=0,
        next_at=at,
        created_at=at,
    )


def queue_turn(
    table_id: str, seat: int, version: int, kind: str, payload: str, at: float, *, per_account: int
) -> sa.Executable:
    """Queue a ``kind`` notification for the account seated at ``seat`` of ``table_id`` if that
    seat is a person holding it, the account has the channel on (a confirmed address with e-mail
    on; a webhook) and fewer than ``per_account`` of its notifications wait already."""
    seats = schema.seats
    waiting = sa.select(sa.func.count()).select_from(QUEUE).where(QUEUE.c.account_id == seats.c.account_id)
    channel = (
        sa.and_(SETTINGS.c.email.is_not(None), SETTINGS.c.email_confirmed.is_(True), SETTINGS.c.email_on.is_(True))
        if kind == "turn_email"
        else SETTINGS.c.webhook.is_not(None)
    )
    chosen = (
        sa.select(
            seats.c.account_id,
            sa.literal(kind, sa.String),
            sa.literal(table_id, sa.String),
            sa.literal(version, sa.Integer),
            sa.literal(payload, sa.Text),
            sa.literal(0, sa.Integer),
            sa.literal(at, sa.Float),
            sa.literal(at, sa.Float),
        )
        .select_from(seats.join(SETTINGS, SETTINGS.c.account_id == seats.c.account_id))
        .where(
            seats.c.table_id == table_id,
            seats.c.seat == seat,
            seats.c.kind == "human",
            seats.c.zombie.is_(False),
            seats.c.key_hash.is_not(None),
            channel,
            waiting.scalar_subquery() < per_account,
        )
    )
    columns = ["account_id", "kind", "table_id", "version", "payload", "attempts", "next_at", "created_at"]
    return sa.insert(QUEUE).from_select(columns, chosen)


def due(now: float, limit: int) -> sa.Executable:
    """The oldest ``limit`` notifications that may be tried at ``now``."""
    return sa.select(QUEUE).where(QUEUE.c.next_at <= now).order_by(QUEUE.c.id).limit(limit)


def claim(row_id: int, seen_next_at: float, until: float) -> sa.Executable:
    """Take notification ``row_id`` until ``until`` if nobody took it since it was read (a process
    that dies holding it leaves it to be tried again then); ``RETURNING`` its id."""
    return (
        sa.update(QUEUE)
        .where(QUEUE.c.id == row_id, QUEUE.c.next_at == seen_next_at)
        .values(next_at=until)
        .returning(QUEUE.c.id)
    )


def postpone(row_id: int, attempts: int, next_at: float) -> sa.Executable:
    """Try notification ``row_id`` again from ``next_at`` (after ``attempts`` failures)."""
    return sa.update(QUEUE).where(QUEUE.c.id == row_id).values(attempts=attempts, next_at=next_at)


def done(row_id: int) -> sa.Executable:
    """Notification ``row_id`` was delivered (or has nowhere to go any more)."""
    return sa.delete(QUEUE).where(QUEUE.c.id == row_id)


def waiting_for(account_id: str) -> sa.Executable:
    """The notifications queued for ``account_id``."""
    return sa.select(QUEUE).where(QUEUE.c.account_id == account_id).order_by(QUEUE.c.id)
