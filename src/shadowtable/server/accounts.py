"""Optional player accounts: sign up, log in, log out, and the signed session cookie.

Passwords are hashed with argon2id (``argon2.PasswordHasher`` defaults: 3 passes, 64 MiB,
parallelism 4, 16-byte salt, 32-byte hash); the clear password is never stored or logged.  A
signed-in browser holds ``shadowtable_account``: the account's id and name signed with the
server's secret (itsdangerous, its own salt), HttpOnly, SameSite=lax, for 30 days.  Guests play
as before: an account is needed only to be rated.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from shadowtable.server import schema
from shadowtable.server.errors import Conflict, Forbidden, NotFound, ServiceError, Unavailable
from shadowtable.server.store import Store, StoreError

COOKIE = "shadowtable_account"
SESSION_MAX_AGE_S = 30 * 24 * 3600
NAME_MIN, NAME_MAX = 3, 32
PASSWORD_MIN, PASSWORD_MAX = 8, 256
WRONG = "that name and password do not match an account"
"""The one answer to an unknown name and to a wrong password (it tells neither apart)."""


@dataclass(frozen=True)
class Account:
    """A signed-in player: the account's id and name."""

    id: str
    name: str


signed_in: contextvars.ContextVar[Account | None] = contextvars.ContextVar("signed_in", default=None)
"""The account of the request being served (set by :class:`AccountMiddleware`), for page headers."""


def name_key(name: str) -> str:
    """The form of a name that must be unique: casefolded."""
    return name.casefold()


def checked_name(name: object) -> str:
    """A name to sign up with: its spaces collapsed, 3 to 32 printable characters."""
    shown = " ".join(name.split()) if isinstance(name, str) else ""
    if not NAME_MIN <= len(shown) <= NAME_MAX or not shown.isprintable():
        raise ServiceError(f"name: {NAME_MIN} to {NAME_MAX} printable characters")
    return shown


def checked_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError(f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


class Accounts:
    """Accounts in the server's store, and the session cookies that say who is signed in."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.store: Store | None = None
        self.hasher = hasher or PasswordHasher()
        self._sessions: URLSafeTimedSerializer | None = None
        self._dummy: str | None = None

    def open(self, store: Store, secret: str) -> None:
        """Use ``store``, and sign sessions with the server's ``secret`` (a salt of their own)."""
        self.store = store
        self._sessions = URLSafeTimedSerializer(secret, salt="shadowtable-account-session")

    # -- the store ----------------------------------------------------------------------------
    def _store(self) -> Store:
        if self.store is None:
            raise Unavailable("the accounts are not open yet")
        return self.store

    async def _fetch(self, query: sa.Executable) -> list[dict[str, Any]]:
        try:
            return await self._store().fetch(query)
        except StoreError as exc:
            raise Unavailable(str(exc)) from exc

    async def _row_by_name(self, name: str) -> dict[str, Any] | None:
        rows = await self._fetch(sa.select(schema.accounts).where(schema.accounts.c.name_key == name_key(name)))
        return rows[0] if rows else None

    # -- sign up, log in ----------------------------------------------------------------------
    async def sign_up(self, name: object, password: object) -> Account:
        """A new account; :class:`ServiceError` for an unfit name or password (nothing stored),
        :class:`Conflict` for a name taken (whatever its case)."""
        shown = checked_name(name)
        secret = checked_password(password)
        if await self._row_by_name(shown) is not None:
            raise Conflict("that name is taken")
        hashed = await asyncio.to_thread(self.hasher.hash, secret)
        account = Account(secrets.token_urlsafe(12), shown)
        try:
            await self._store().write(
                sa.insert(schema.accounts).values(
                    id=account.id, name=shown, name_key=name_key(shown), password_hash=hashed, created_at=time.time()
                )
            )
        except StoreError as exc:
            if await self._row_by_name(shown) is not None:  # taken meanwhile
                raise Conflict("that name is taken") from exc
            raise Unavailable(str(exc)) from exc
        return account

    async def log_in(self, name: object, password: object) -> Account:
        """The account ``name`` if ``password`` is its password; :class:`Forbidden` otherwise (the
        same answer for an unknown name).  A hash made with older parameters is redone."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise Forbidden(WRONG)
        row = await self._row_by_name(" ".join(name.split())) if len(name) <= 4 * NAME_MAX else None
        if row is None:
            # the same work as for a real account, so the time taken does not tell names apart
            await asyncio.to_thread(self._verify, self._dummy_hash(), password)
            raise Forbidden(WRONG)
        if not await asyncio.to_thread(self._verify, row["password_hash"], password):
            raise Forbidden(WRONG)
        if self.hasher.check_needs_rehash(row["password_hash"]):
            hashed = await asyncio.to_thread(self.hasher.hash, password)
            with contextlib.suppress(StoreError):  # the old hash still works: redone at the next log-in
                await self._store().write(
                    sa.update(schema.accounts).where(schema.accounts.c.id == row["id"]).values(password_hash=hashed)
                )
        return Account(row["id"], row["name"])

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(hashed, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    async def by_name(self, name: str) -> Account:
        """The account called ``name`` (any case); :class:`NotFound` if none."""
        row = await self._row_by_name(name) if len(name) <= 4 * NAME_MAX else None
        if row is None:
            raise NotFound("no such player")
        return Account(row["id"], row["name"])

    # -- sessions -----------------------------------------------------------------------------
    def session(self, account: Account) -> str:
        """The signed cookie value for ``account``."""
        if self._sessions is None:
            raise Unavailable("the accounts are not open yet")
        return str(self._sessions.dumps([account.id, account.name]))

    def read_session(self, value: str | None) -> Account | None:
        """The account a cookie value names, or ``None`` (missing, forged, expired or malformed)."""
        if self._sessions is None or not value or len(value) > 512 or not value.isascii():
            return None
        try:
            data = self._sessions.loads(value, max_age=SESSION_MAX_AGE_S)
        except BadSignature:
            return None
        if not (isinstance(data, list) and len(data) == 2 and all(isinstance(x, str) for x in data)):
            return None
        return Account(data[0], data[1])

    def current(self, request: HTTPConnection) -> Account | None:
        """The account signed in on ``request`` (its cookie)."""
        return self.read_session(request.cookies.get(COOKIE))

    def set_cookie(self, response: Response, account: Account) -> None:
        response.set_cookie(
            COOKIE, self.session(account), max_age=SESSION_MAX_AGE_S, httponly=True, samesite="lax", path="/"
        )


def clear_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


class AccountMiddleware:
    """Sets :data:`signed_in` for each HTTP request from its account cookie (pages show it)."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = signed_in.set(self.accounts.current(HTTPConnection(scope)))
        try:
            await self.app(scope, receive, send)
        finally:
            signed_in.reset(token)
