"""The accounts' statements: accounts, password reset codes and sign-in sessions."""

from __future__ import annotations

import time

import sqlalchemy as sa

from shadowtable.server import schema
from shadowtable.server.names import name_key
from shadowtable.server.tokens import key_hash


# -- accounts -----------------------------------------------------------------------------------
def account_named(name: str) -> sa.Executable:
    """The account called ``name``, whatever its case."""
    return sa.select(schema.accounts).where(schema.accounts.c.name_key == name_key(name))


def account_with_id(account_id: str) -> sa.Executable:
    """The account ``account_id``."""
    return sa.select(schema.accounts).where(schema.accounts.c.id == account_id)


def insert_account(account_id: str, name: str, hashed: str, at: float) -> sa.Executable:
    """A new account (its name's key unique: a name taken meanwhile fails the insert)."""
    return sa.insert(schema.accounts).values(
        id=account_id, name=name, name_key=name_key(name), password_hash=hashed, created_at=at
    )


def set_password_hash(account_id: str, hashed: str) -> sa.Executable:
    """Give ``account_id`` the password hash ``hashed``."""
    return sa.update(schema.accounts).where(schema.accounts.c.id == account_id).values(password_hash=hashed)


def new_password(account_id: str, hashed: str) -> list[sa.Executable]:
    """Give ``account_id`` the password hash ``hashed``, revoke all its sessions and drop its reset
    code (one transaction)."""
    return [set_password_hash(account_id, hashed), end_sessions(account_id), drop_reset_codes(account_id)]


# -- password resets ----------------------------------------------------------------------------
def drop_reset_codes(account_id: str) -> sa.Executable:
    """Drop ``account_id``'s reset code."""
    return sa.delete(schema.password_resets).where(schema.password_resets.c.account_id == account_id)


def new_reset_code(account_id: str, code: str, expires: float) -> list[sa.Executable]:
    """Store ``code`` (its hash) as ``account_id``'s only reset code."""
    insert = sa.insert(schema.password_resets).values(
        code_hash=key_hash(code), account_id=account_id, expires_at=expires
    )
    return [drop_reset_codes(account_id), insert]


def _live_code(code: str) -> tuple[sa.ColumnElement[bool], ...]:
    """Where a password reset row is the one of ``code`` and has not expired."""
    return (schema.password_resets.c.code_hash == key_hash(code), schema.password_resets.c.expires_at > time.time())


def account_of_code(code: str) -> sa.Executable:
    """The account (``id``, ``name``) a live reset ``code`` is for."""
    return (
        sa.select(schema.accounts.c.id, schema.accounts.c.name)
        .join(schema.password_resets, schema.password_resets.c.account_id == schema.accounts.c.id)
        .where(*_live_code(code))
    )


def use_reset_code(code: str) -> sa.Executable:
    """Use up a live reset ``code`` (guard: returns its account if it was live)."""
    return sa.delete(schema.password_resets).where(*_live_code(code)).returning(schema.password_resets.c.account_id)


# -- sessions -----------------------------------------------------------------------------------
def start_session(id_hash: str, account_id: str, now: float, expires: float) -> list[sa.Executable]:
    """A new session of ``account_id`` (stored as its id's hash); the account's expired ones go."""
    expired = sa.delete(schema.sessions).where(
        schema.sessions.c.account_id == account_id, schema.sessions.c.expires_at <= now
    )
    insert = sa.insert(schema.sessions).values(
        id_hash=id_hash, account_id=account_id, created_at=now, seen_at=now, expires_at=expires
    )
    return [expired, insert]


def session_account(id_hash: str, now: float) -> sa.Executable:
    """The account (``id``, ``name``) and ``seen_at`` of the live session ``id_hash``."""
    return (
        sa.select(schema.accounts.c.id, schema.accounts.c.name, schema.sessions.c.seen_at)
        .join(schema.accounts, schema.accounts.c.id == schema.sessions.c.account_id)
        .where(schema.sessions.c.id_hash == id_hash, schema.sessions.c.expires_at > now)
    )


def session_seen(id_hash: str, now: float) -> sa.Executable:
    """Note that the session ``id_hash`` was used ``now``."""
    return sa.update(schema.sessions).where(schema.sessions.c.id_hash == id_hash).values(seen_at=now)


def end_session(id_hash: str) -> sa.Executable:
    """Revoke the session ``id_hash``."""
    return sa.delete(schema.sessions).where(schema.sessions.c.id_hash == id_hash)


def end_sessions(account_id: str) -> sa.Executable:
    """Revoke every session of ``account_id``."""
    return sa.delete(schema.sessions).where(schema.sessions.c.account_id == account_id)
