"""An account's notification settings: an e-mail address (used only once confirmed through a
signed link mailed to it), e-mail on my turn, and a webhook.

Guests have no settings, so nothing is ever sent for them.  Setting a new address stores it
unconfirmed and queues the confirmation mail; confirming turns e-mail on; the one-click
unsubscribe link of every mail turns it off.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa

from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Conflict, ServiceError, Unauthorized, Unavailable
from shadowtable.server.notify_links import AddressClaim, NotifyLinks
from shadowtable.server.repository import notifications as rows
from shadowtable.server.repository.failures import store_failures
from shadowtable.server.store import Store, StoreError

EMAIL_MAX = 254
WEBHOOK_MAX = 500
EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]{1,63})+$"
)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The only hosts a webhook may call over plain ``http``."""


@dataclass(frozen=True)
class NotifySettings:
    """What an account asked to be told by."""

    email: str | None = None
    email_confirmed: bool = False
    email_on: bool = False
    webhook: str | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any] | None) -> NotifySettings:
        if row is None:
            return cls()
        return cls(row["email"], bool(row["email_confirmed"]), bool(row["email_on"]), row["webhook"])

    def mail_to(self) -> str | None:
        """The address turn mails go to (``None``: none is sent)."""
        return self.email if self.email and self.email_confirmed and self.email_on else None


def checked_email(email: object) -> str:
    """An address to mail: one ``local@domain`` of at most :data:`EMAIL_MAX` plain characters."""
    text = email.strip() if isinstance(email, str) else ""
    if not 3 <= len(text) <= EMAIL_MAX or not text.isascii() or not EMAIL.match(text):
        raise ServiceError(f"email: an address like name@example.org, at most {EMAIL_MAX} characters")
    return text


def checked_webhook(url: object, *, local: bool = False) -> str:
    """A webhook address: ``https://`` to a public host, or (``local``: where the operator allows
    it) ``http://`` to this machine; at most :data:`WEBHOOK_MAX` characters, no credentials."""
    text = url.strip() if isinstance(url, str) else ""
    problem = f"webhook: an https:// address of at most {WEBHOOK_MAX} characters"
    if not 0 < len(text) <= WEBHOOK_MAX or not text.isascii() or not text.isprintable() or " " in text:
        raise ServiceError(problem)
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError as exc:
        raise ServiceError(problem) from exc
    if not host or parts.username or parts.password or parts.fragment:
        raise ServiceError(problem)
    if local and parts.scheme == "http" and host in LOCAL_HOSTS:
        return text
    if parts.scheme != "https" or _private_address(host):
        raise ServiceError(problem + " (no private network addresses)")
    return text


async def public_host(url: str, *, local: bool = False) -> None:
    """Refuse (:class:`ValueError`) a webhook whose host resolves to an address not on the public
    internet (``local``: this machine's own addresses are allowed)."""
    host = urlsplit(url).hostname or ""
    if local and host in LOCAL_HOSTS:
        return
    found = await asyncio.get_running_loop().getaddrinfo(host, None)
    for *_rest, address in found:
        if not ipaddress.ip_address(address[0]).is_global:
            raise ValueError(f"the webhook's host resolves to a private address ({address[0]})")


def _private_address(host: str) -> bool:
    """Whether ``host`` is a literal address that is not on the public internet."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or host.endswith((".localhost", ".local", ".internal"))
    return not address.is_global


class Notifications:
    """The settings of accounts in the server's store."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.links: NotifyLinks | None = None
        self.store: Store | None = None
        self.wake: Callable[[], None] = lambda: None
        """Called once something is queued (the sender looks at the queue at once)."""

    def open(self, store: Store, links: NotifyLinks) -> None:
        """Use ``store``, and sign links with ``links``."""
        self.store, self.links = store, links

    def _links(self) -> NotifyLinks:
        if self.links is None:
            raise Unavailable("the notifications are not open yet")
        return self.links

    def _store(self) -> Store:
        if self.store is None:
            raise Unavailable("the notifications are not open yet")
        return self.store

    async def settings(self, account_id: str) -> NotifySettings:
        with store_failures(conflict=False):
            found = await self._store().fetch(rows.settings_of(account_id))
        return NotifySettings.from_row(found[0] if found else None)

    async def _ensure_row(self, account_id: str) -> None:
        with store_failures(conflict=False):
            if not await self._store().fetch(rows.settings_of(account_id)):
                try:
                    await self._store().write(rows.insert_settings(account_id, time.time()))
                except StoreError:  # made meanwhile by another request
                    if not await self._store().fetch(rows.settings_of(account_id)):
                        raise

    async def change(
        self,
        account_id: str | None,
        *,
        email: object = ...,
        email_on: object = ...,
        webhook: object = ...,
    ) -> NotifySettings:
        """Change the settings given (``...``: unchanged; ``None`` or ``""``: remove the address or
        webhook).  A new address is unconfirmed and gets a confirmation mail; e-mail can be turned on
        only for a confirmed address.  :class:`ServiceError` for a bad value (nothing changed)."""
        if account_id is None:
            raise Unauthorized("sign in first: notifications are for accounts")
        values: dict[str, Any] = {}
        current = await self.settings(account_id)
        confirm: str | None = None
        if email is not ... and email not in (None, ""):
            address = checked_email(email)
            if self.config.mail_problem() is not None:
                raise ServiceError("this server sends no e-mail: its operator has not set a mail server up")
            if address != current.email:
                values.update(email=address, email_confirmed=False, email_on=False)
                confirm = address
        elif email is not ...:
            values.update(email=None, email_confirmed=False, email_on=False)
        if email_on is not ...:
            if not isinstance(email_on, bool):
                raise ServiceError("email_on: true or false")
            confirmed = current.email_confirmed and "email" not in values
            if email_on and not confirmed:
                raise ServiceError("confirm your e-mail address first (follow the link mailed to it)")
            values["email_on"] = email_on
        if webhook is not ...:
            values["webhook"] = (
                None if webhook in (None, "") else checked_webhook(webhook, local=self.config.webhook_local)
            )
        if not values:
            return current
        await self._ensure_row(account_id)
        now = time.time()
        statements: list[sa.Executable] = [rows.update_settings(account_id, now, **values)]
        if confirm is not None:
            payload = json.dumps({"email": confirm, "token": self._links().confirm_token(account_id, confirm)})
            statements.append(rows.queue_one(account_id, "confirm_email", payload, now))
        with store_failures(conflict=False):
            await self._store().write(*statements)
        if confirm is not None:
            self.wake()
        return await self.settings(account_id)

    async def confirm(self, token: object) -> AddressClaim:
        """Confirm the address a confirmation link was sent to (e-mail on my turn is on then);
        :class:`~shadowtable.server.errors.Conflict` for a link not valid or an address changed since."""
        claim = self._links().read_confirm(token)
        await self._guarded(rows.confirm_email(claim.account_id, claim.email, time.time()), "confirmation")
        return claim

    def links_claim(self, token: object) -> AddressClaim:
        """What an unsubscribe link says (nothing is changed); :class:`Conflict` if not valid."""
        return self._links().read_unsubscribe(token)

    async def unsubscribe(self, token: object) -> AddressClaim:
        """Turn e-mail off for the address an unsubscribe link was sent to."""
        claim = self._links().read_unsubscribe(token)
        await self._guarded(rows.email_off(claim.account_id, claim.email, time.time()), "unsubscribe")
        return claim

    async def _guarded(self, statement: sa.Executable, what: str) -> None:
        with store_failures(conflict=False):
            changed = await self._store().execute(statement)
        if not changed:
            raise Conflict(f"this {what} link is for an address the account no longer has")
