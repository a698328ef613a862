"""Optional player accounts: sign up, log in, log out, change or reset a password.

Passwords are hashed with argon2id (``argon2.PasswordHasher`` defaults: 3 passes, 64 MiB,
parallelism 4, 16-byte salt, 32-byte hash); the clear password is never stored or logged.  A
signed-in browser holds ``shadowtable_account``: a session of :mod:`shadowtable.server.sessions`
(revoked on logout, and all of the account's on a password change or reset), HttpOnly,
SameSite=lax, for 30 days.  A reset code is made by an operator (``shadowtable account
reset-password``): single use, stored only as its SHA-256, valid an hour by default.  Guests play
as before: an account is needed only to be rated.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from shadowtable.server.errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized, Unavailable
from shadowtable.server.names import name_key, reserved_problem
from shadowtable.server.passwords import PASSWORD_MAX, PASSWORD_MIN, checked_password
from shadowtable.server.repository.accounts import (
    account_named,
    account_of_code,
    account_with_id,
    insert_account,
    new_password,
    new_reset_code,
    set_password_hash,
    use_reset_code,
)
from shadowtable.server.repository.failures import store_failures
from shadowtable.server.sessions import SESSION_MAX_AGE_S, Sessions
from shadowtable.server.store import Store, StoreError

log = logging.getLogger("shadowtable.server.accounts")

COOKIE = "shadowtable_account"
NAME_MIN, NAME_MAX = 3, 32
RESET_VALID_S = 3600.0
"""How long a password reset code works by default."""
WRONG = "that name and password do not match an account"
"""The one answer to an unknown name and to a wrong password (it tells neither apart)."""
RESET_GONE = "this reset link is not valid: it was used, replaced by a newer one or expired"
SCOPE_KEY = "shadowtable.account"
"""Where :class:`AccountMiddleware` leaves a request's account in its ASGI scope."""
__all__ = ["PASSWORD_MAX", "PASSWORD_MIN", "SESSION_MAX_AGE_S", "checked_password", "name_key"]


@dataclass(frozen=True)
class Account:
    """A signed-in player: the account's id and name."""

    id: str
    name: str


signed_in: contextvars.ContextVar[Account | None] = contextvars.ContextVar("signed_in", default=None)
lab_open: contextvars.ContextVar[bool] = contextvars.ContextVar("lab_open", default=False)
"""Whether the account of the request being served may use the designer's lab (its link shows)."""
"""The account of the request being served (set by :class:`AccountMiddleware`), for page headers."""


def checked_name(name: object) -> str:
    """A name to sign up with: its spaces collapsed, 3 to 32 printable characters, not reserved."""
    shown = " ".join(name.split()) if isinstance(name, str) else ""
    if not NAME_MIN <= len(shown) <= NAME_MAX or not shown.isprintable():
        raise ServiceError(f"name: {NAME_MIN} to {NAME_MAX} printable characters")
    problem = reserved_problem(shown)
    if problem is not None:
        raise ServiceError(problem)
    return shown


class Accounts:
    """Accounts in the server's store, and the sessions that say who is signed in."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.store: Store | None = None
        self.hasher = hasher or PasswordHasher()
        self.sessions: Sessions | None = None
        self._dummy: str | None = None

    def open(self, store: Store, secret: str) -> None:
        """Use ``store``, and sign session cookies with the server's ``secret`` (a salt of their own)."""
        self.store = store
        self.sessions = Sessions(store, secret)

    # -- the store ----------------------------------------------------------------------------
    def _store(self) -> Store:
        if self.store is None:
            raise Unavailable("the accounts are not open yet")
        return self.store

    def _sessions(self) -> Sessions:
        if self.sessions is None:
            raise Unavailable("the accounts are not open yet")
        return self.sessions

    async def _fetch(self, query: sa.Executable) -> list[dict[str, Any]]:
        with store_failures(conflict=False):
            return await self._store().fetch(query)

    async def _write(self, *statements: sa.Executable) -> None:
        with store_failures(conflict=False):
            await self._store().write(*statements)

    async def _row_by_name(self, name: str) -> dict[str, Any] | None:
        rows = await self._fetch(account_named(name))
        return rows[0] if rows else None

    async def _row_by_id(self, account_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(account_with_id(account_id))
        return rows[0] if rows else None

    # -- sign up, log in ----------------------------------------------------------------------
    async def sign_up(self, name: object, password: object) -> Account:
        """A new account; :class:`ServiceError` for an unfit name or password (nothing stored),
        :class:`Conflict` for a name taken (whatever its case)."""
        shown = checked_name(name)
        secret = checked_password(password, shown)
        if await self._row_by_name(shown) is not None:
            raise Conflict("that name is taken")
        hashed = await asyncio.to_thread(self.hasher.hash, secret)
        account = Account(secrets.token_urlsafe(12), shown)
        try:
            await self._store().write(insert_account(account.id, shown, hashed, time.time()))
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
                await self._store().write(set_password_hash(row["id"], hashed))
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

    # -- passwords ----------------------------------------------------------------------------
    async def change_password(self, account: Account | None, current: object, new: object) -> Account:
        """Give the signed-in ``account`` the password ``new`` if ``current`` is its password now:
        every session of the account is revoked (sign the asking browser in again).
        :class:`Unauthorized` when nobody is signed in, :class:`Forbidden` for a wrong ``current``,
        :class:`ServiceError` for an unfit ``new`` (nothing changed)."""
        if account is None:
            raise Unauthorized("sign in first")
        row = await self._row_by_id(account.id)
        if row is None:
            raise Unauthorized("sign in first")
        good = isinstance(current, str) and len(current) <= PASSWORD_MAX
        if not (good and await asyncio.to_thread(self._verify, row["password_hash"], str(current))):
            raise Forbidden("the current password is wrong")
        secret = checked_password(new, row["name"])
        hashed = await asyncio.to_thread(self.hasher.hash, secret)
        await self._write(*new_password(row["id"], hashed))
        log.info("password changed", extra={"event": "password_changed"})
        return Account(row["id"], row["name"])

    async def reset_code(self, name: str, valid_s: float = RESET_VALID_S) -> tuple[Account, str, float]:
        """A new single-use reset code for the account ``name`` (its older code stops working):
        the account, the code and when it expires; :class:`NotFound` for no such account."""
        row = await self._row_by_name(name) if len(name) <= 4 * NAME_MAX else None
        if row is None:
            raise NotFound(f"no account is called {name!r}")
        code = secrets.token_urlsafe(32)
        expires = time.time() + valid_s
        await self._write(*new_reset_code(row["id"], code, expires))
        return Account(row["id"], row["name"]), code, expires

    async def reset_account(self, code: str) -> Account:
        """The account a live reset ``code`` is for; :class:`Conflict` when it is not valid."""
        if not code or len(code) > 128 or not code.isascii():
            raise Conflict(RESET_GONE)
        rows = await self._fetch(account_of_code(code))
        if not rows:
            raise Conflict(RESET_GONE)
        return Account(rows[0]["id"], rows[0]["name"])

    async def reset_password(self, code: str, new: object) -> Account:
        """Use the reset ``code`` (once) to give its account the password ``new``: every session of
        the account is revoked.  :class:`Conflict` for a code not valid, :class:`ServiceError` for
        an unfit password (the code still works then)."""
        account = await self.reset_account(code)
        secret = checked_password(new, account.name)
        hashed = await asyncio.to_thread(self.hasher.hash, secret)
        with store_failures(conflict=False):
            taken = await self._store().execute_guarded(use_reset_code(code), *new_password(account.id, hashed))
        if not taken:  # used by another request a moment ago
            raise Conflict(RESET_GONE)
        log.info("password reset", extra={"event": "password_reset"})
        return account

    # -- sessions -----------------------------------------------------------------------------
    async def sign_in(self, response: Response, account: Account, request: HTTPConnection | None = None) -> None:
        """Start a new session of ``account`` and set its cookie on ``response`` (the session the
        browser of ``request`` had, if any, is revoked: a log-in never keeps an old session id)."""
        with store_failures(conflict=False):
            if request is not None:
                await self._sessions().end(request.cookies.get(COOKIE))
            value = await self._sessions().start(account.id)
        self.set_cookie(response, value)

    async def sign_out(self, request: HTTPConnection, response: Response) -> None:
        """Revoke the session of ``request`` (server-side) and clear its cookie on ``response``."""
        with store_failures(conflict=False):
            await self._sessions().end(request.cookies.get(COOKIE))
        clear_cookie(response)

    async def resolve(self, request: HTTPConnection) -> Account | None:
        """The account whose live session ``request``'s cookie holds (``None``: a guest, or the
        database did not answer)."""
        value = request.cookies.get(COOKIE)
        if not value or self.sessions is None:
            return None
        try:
            found = await self.sessions.account_of(value)
        except StoreError as exc:
            log.warning("session not read", extra={"event": "session_unread", "reason": str(exc)})
            return None
        return Account(found["id"], found["name"]) if found else None

    def current(self, request: HTTPConnection) -> Account | None:
        """The account signed in on ``request`` (resolved by :class:`AccountMiddleware`)."""
        account = request.scope.get(SCOPE_KEY)
        return account if isinstance(account, Account) else None

    def set_cookie(self, response: Response, value: str) -> None:
        response.set_cookie(COOKIE, value, max_age=SESSION_MAX_AGE_S, httponly=True, samesite="lax", path="/")


async def reset_code_in(database: str, name: str, valid_s: float = RESET_VALID_S) -> tuple[Account, str, float]:
    """Open the server's ``database`` and make a reset code for the account ``name`` (see
    :meth:`Accounts.reset_code`): for the operator's ``shadowtable account reset-password``."""
    store = Store(database)
    await store.open()
    try:
        accounts = Accounts()
        accounts.store = store
        return await accounts.reset_code(name, valid_s)
    finally:
        await store.close()


def clear_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


class AccountMiddleware:
    """Resolves the account of each HTTP request from its session cookie (one database read when
    the cookie is there; none for ``/static``): :meth:`Accounts.current`, :data:`signed_in` and
    :data:`lab_open`."""

    def __init__(
        self, app: ASGIApp, accounts: Accounts, lab_allows: Callable[[str | None], bool] | None = None
    ) -> None:
        self.app = app
        self.accounts = accounts
        self.lab_allows = lab_allows

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope.get("path", "")).startswith("/static/"):
            await self.app(scope, receive, send)
            return
        account = await self.accounts.resolve(HTTPConnection(scope))
        scope[SCOPE_KEY] = account
        token = signed_in.set(account)
        lab = lab_open.set(self.lab_allows is not None and self.lab_allows(account.name if account else None))
        try:
            await self.app(scope, receive, send)
        finally:
            lab_open.reset(lab)
            signed_in.reset(token)
