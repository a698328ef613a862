"""Sign-in sessions kept in the database, so that one can be revoked.

A session is a random 256-bit id: the browser's cookie holds it signed with the server's secret
(itsdangerous, a salt of its own, so a seat token is never a session), the ``sessions`` table only
its SHA-256, with the account, when it started, when it was last seen (updated at most once per
:data:`SEEN_EVERY_S`) and when it expires.  Every request with the cookie looks its row up (one
primary-key read): logging out deletes the row, and a password change or reset deletes every row
of the account, so a copied cookie stops working at once, in every server process.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from shadowtable.server.repository.accounts import end_session, session_account, session_seen, start_session
from shadowtable.server.store import Store, StoreError
from shadowtable.server.tokens import key_hash

SESSION_MAX_AGE_S = 30 * 24 * 3600
SEEN_EVERY_S = 3600.0
"""How stale ``seen_at`` may get before a request updates it (one write per session per hour)."""


class Sessions:
    """The sessions of the accounts in ``store``, their cookies signed with ``secret``."""

    def __init__(self, store: Store, secret: str, max_age_s: int = SESSION_MAX_AGE_S) -> None:
        self.store = store
        self.max_age_s = max_age_s
        self._signer = URLSafeTimedSerializer(secret, salt="shadowtable-session-id")

    def _id_of(self, value: str | None) -> str | None:
        """The session id a cookie value carries, or ``None`` (missing, forged, expired or malformed)."""
        if not value or len(value) > 256 or not value.isascii():
            return None
        try:
            data = self._signer.loads(value, max_age=self.max_age_s)
        except BadSignature:
            return None
        return data if isinstance(data, str) and 0 < len(data) <= 64 else None

    async def start(self, account_id: str) -> str:
        """A new session of ``account_id``: its cookie value (the account's expired sessions go)."""
        session_id = secrets.token_urlsafe(32)
        now = time.time()
        await self.store.write(*start_session(key_hash(session_id), account_id, now, now + self.max_age_s))
        return str(self._signer.dumps(session_id))

    async def account_of(self, value: str | None) -> dict[str, Any] | None:
        """The account (``id``, ``name``) whose live session the cookie ``value`` names, else ``None``;
        :class:`StoreError` when the database does not answer."""
        session_id = self._id_of(value)
        if session_id is None:
            return None
        now = time.time()
        rows = await self.store.fetch(session_account(key_hash(session_id), now))
        if not rows:
            return None
        row = rows[0]
        if now - row["seen_at"] > SEEN_EVERY_S:
            with contextlib.suppress(StoreError):  # only a date: tried again at the next request
                await self.store.write(session_seen(key_hash(session_id), now))
        return {"id": row["id"], "name": row["name"]}

    async def end(self, value: str | None) -> None:
        """Revoke the session the cookie ``value`` names (nothing when it names none)."""
        session_id = self._id_of(value)
        if session_id is not None:
            await self.store.write(end_session(key_hash(session_id)))
