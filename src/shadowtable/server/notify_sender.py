"""The notification sender: a background task that delivers the queued notifications.

It reads the queue (``notify_queue``), takes each notification it starts (a claim: another process
on the same database does not send it too; one that dies holding it leaves it to be tried again),
delivers it by mail (aiosmtplib) or webhook (httpx) under a timeout, and deletes it once delivered.
A failure (a refusing, hanging or absent mail server, a webhook that does not answer 2xx) keeps it
queued and tries again later, waiting twice as long each time up to a bound: mail is delayed,
never lost, and never holds a move up (moves only queue).  Deliveries are bounded globally
(``notify_concurrency``) and per account (one at a time, ``notify_account_hourly`` per hour).
Each delivery reads the account's settings at that moment: an address removed or unsubscribed
since the notification was queued is not written to.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import aiosmtplib
import httpx

from shadowtable.server.config import ServerConfig
from shadowtable.server.notify_links import NotifyLinks
from shadowtable.server.notify_messages import confirm_mail, turn_mail, webhook_body
from shadowtable.server.notify_settings import NotifySettings, public_host
from shadowtable.server.notify_turns import TurnFacts
from shadowtable.server.repository import notifications as rows
from shadowtable.server.store import Store, StoreError

log = logging.getLogger("shadowtable.server.notify")

BATCH = 50
"""Notifications read from the queue per round."""
HOUR_S = 3600.0
PACE_ACCOUNTS = 10_000
"""Accounts whose last hour is kept before quiet ones are forgotten."""


class DeliveryError(Exception):
    """A delivery that did not go through (it stays queued)."""


def backoff_s(attempts: int, first_s: float, most_s: float) -> float:
    """The wait before the next try after ``attempts`` failures: doubling from ``first_s`` up to ``most_s``."""
    return float(min(most_s, first_s * 2 ** min(max(attempts - 1, 0), 30)))


def startup_lines(config: ServerConfig) -> list[str]:
    """What the server says at start about its notifications."""
    problem = config.mail_problem()
    mail = (
        f"e-mail notifications: off ({problem})"
        if problem
        else (f"e-mail notifications: through {config.smtp_host}:{config.smtp_port} as {config.smtp_from}")
    )
    hooks = "webhook notifications: on" if config.base_url else "webhook notifications: off (no base URL, --base-url)"
    return [mail, hooks]


class AccountPace:
    """Each account's deliveries in the last hour, to send it at most ``hourly``."""

    def __init__(self, hourly: int) -> None:
        self.hourly = hourly
        self._sent: dict[str, collections.deque[float]] = {}

    def free_at(self, account_id: str, now: float) -> float:
        """When ``account_id`` may be sent its next notification (``now`` or earlier: at once)."""
        sent = self._sent.get(account_id)
        if sent is None:
            return now
        while sent and sent[0] <= now - HOUR_S:
            sent.popleft()
        if not sent:
            del self._sent[account_id]
            return now
        return now if len(sent) < self.hourly else sent[0] + HOUR_S

    def note(self, account_id: str, at: float) -> None:
        """``account_id`` was sent a notification at ``at`` (accounts quiet for an hour are forgotten)."""
        if len(self._sent) >= PACE_ACCOUNTS:
            for quiet in [key for key, sent in self._sent.items() if not sent or sent[-1] <= at - HOUR_S]:
                del self._sent[quiet]
        self._sent.setdefault(account_id, collections.deque(maxlen=max(1, self.hourly))).append(at)


class NotificationSender:
    """Delivers the queue in the background (:meth:`start`, :meth:`stop`; :meth:`wake` after queueing)."""

    def __init__(
        self, config: ServerConfig, store: Store, links: NotifyLinks, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.config = config
        self.store = store
        self.links = links
        self.clock = clock
        self.pace = AccountPace(config.notify_account_hourly)
        self.delivered = 0
        self.failed = 0
        self._wake = asyncio.Event()
        self._busy: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None

    @property
    def claim_s(self) -> float:
        """How long a delivery holds its notification: past every timeout of one try."""
        return 3 * max(self.config.smtp_timeout_s, self.config.webhook_timeout_s) + 30.0

    def start(self) -> None:
        for line in startup_lines(self.config):
            log.info(line, extra={"event": "notify_setup"})
        self._loop_task = asyncio.create_task(self._run(), name="notification-sender")

    async def stop(self) -> None:
        """Stop; deliveries under way are cancelled (their notifications stay queued)."""
        for task in [t for t in (self._loop_task,) if t is not None] + list(self._tasks):
            task.cancel()
        for task in [t for t in (self._loop_task,) if t is not None] + list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._loop_task = None

    def wake(self) -> None:
        """Look at the queue now (something was queued)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.deliver_due()
            except StoreError as exc:
                if not self.store._writers:
                    return  # the store is closed: the server is stopping
                log.warning("notification queue not read", extra={"event": "notify_unread", "reason": str(exc)})
            # asyncio.wait, not wait_for: a cancellation that meets the timeout is never lost
            waiter = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({waiter}, timeout=self.config.notify_poll_s)
            finally:
                waiter.cancel()
            self._wake.clear()

    async def deliver_due(self) -> int:
        """Start delivering the notifications due now (within the bounds); how many were started."""
        now = self.clock()
        started = 0
        for row in await self.store.fetch(rows.due(now, BATCH)):
            if len(self._tasks) >= self.config.notify_concurrency:
                break
            account = row["account_id"]
            if account in self._busy:
                continue
            free_at = self.pace.free_at(account, now)
            if free_at > now:
                await self.store.write(rows.postpone(row["id"], row["attempts"], free_at))
                continue
            if not await self.store.execute(rows.claim(row["id"], row["next_at"], now + self.claim_s)):
                continue  # another process took it
            self._busy.add(account)
            task = asyncio.create_task(self._deliver(row))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        return started

    async def settle(self) -> None:
        """Wait for the deliveries under way (for tests and a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _deliver(self, row: dict[str, Any]) -> None:
        account = row["account_id"]
        try:
            found = await self.store.fetch(rows.settings_of(account))
            settings = NotifySettings.from_row(found[0] if found else None)
            try:
                sent = await self._send(row, settings)
            except Exception as exc:  # noqa: BLE001 - any failure: it stays queued and is tried again
                await self._failed(row, exc)
                return
            if sent:
                self.pace.note(account, self.clock())
                self.delivered += 1
            await self.store.write(rows.done(row["id"]))
        except StoreError as exc:  # stays claimed, so it is tried again once the claim runs out
            log.warning("notification not settled", extra={"event": "notify_unsettled", "reason": str(exc)})
        finally:
            self._busy.discard(account)

    async def _failed(self, row: dict[str, Any], exc: BaseException) -> None:
        attempts = row["attempts"] + 1
        wait = backoff_s(attempts, self.config.notify_retry_s, self.config.notify_retry_max_s)
        self.failed += 1
        log.warning(
            "notification not delivered: tried again later",
            extra={"event": "notify_failed", "kind": row["kind"], "attempts": attempts, "reason": _reason(exc)},
        )
        await self.store.write(rows.postpone(row["id"], attempts, self.clock() + wait))

    async def _send(self, row: dict[str, Any], settings: NotifySettings) -> bool:
        """Deliver ``row``; whether anything was sent (``False``: it has nowhere to go any more)."""
        kind, base = row["kind"], self.config.base_url
        if kind == "turn_webhook":
            if settings.webhook is None or not base:
                return False
            await self._post(settings.webhook, webhook_body(TurnFacts.from_json(row["payload"]), base))
            return True
        if self.config.mail_problem() is not None:
            raise DeliveryError(f"mail is off: {self.config.mail_problem()}")
        if kind == "turn_email":
            to = settings.mail_to()
            if to is None:
                return False
            token = self.links.unsubscribe_token(row["account_id"], to)
            facts = TurnFacts.from_json(row["payload"])
            sender = self.config.smtp_from
            await self._mail(turn_mail(facts, sender=sender, to=to, base_url=base, unsubscribe_token=token))
            return True
        if kind == "confirm_email":
            asked = json.loads(row["payload"])
            if settings.email != asked["email"] or settings.email_confirmed:
                return False
            mail = confirm_mail(sender=self.config.smtp_from, to=asked["email"], base_url=base, token=asked["token"])
            await self._mail(mail)
            return True
        return False

    async def _mail(self, message: Any) -> None:
        config = self.config
        await asyncio.wait_for(
            aiosmtplib.send(
                message,
                hostname=config.smtp_host,
                port=config.smtp_port,
                username=config.smtp_user or None,
                password=config.smtp_password or None,
                start_tls=config.smtp_starttls,
                timeout=config.smtp_timeout_s,
            ),
            2 * config.smtp_timeout_s,
        )

    async def _post(self, url: str, body: dict[str, Any]) -> None:
        timeout = self.config.webhook_timeout_s
        try:
            await asyncio.wait_for(public_host(url, local=self.config.webhook_local), timeout)
        except (OSError, ValueError) as exc:
            raise DeliveryError(f"the webhook's host is refused: {exc}") from exc
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
            answer = await asyncio.wait_for(client.post(url, json=body), 2 * timeout)
        if not 200 <= answer.status_code < 300:
            raise DeliveryError(f"the webhook answered {answer.status_code}")


def _reason(exc: BaseException) -> str:
    """A short reason for a failed delivery (no address, no message text)."""
    if isinstance(exc, DeliveryError):
        return str(exc)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return f"SMTP {exc.code}"
    return type(exc).__name__
