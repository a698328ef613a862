"""Signed links of notification mails: confirm an address, unsubscribe in one click.

Both name an account and an address and are signed with the server's secret (itsdangerous, a salt
each), so a link works only for the address it was sent to: after the address changes, its old
links do nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from shadowtable.server.errors import Conflict

CONFIRM_MAX_AGE_S = 3 * 24 * 3600
"""How long a confirmation link works."""
UNSUBSCRIBE_MAX_AGE_S = 365 * 24 * 3600
"""How long an unsubscribe link works (a year: a mail read late still unsubscribes)."""
TOKEN_MAX = 512


@dataclass(frozen=True)
class AddressClaim:
    """What a valid link says: the account and the address it was sent to."""

    account_id: str
    email: str


class NotifyLinks:
    """Issues and reads the confirmation and unsubscribe tokens."""

    def __init__(self, secret: str) -> None:
        self._confirm = URLSafeTimedSerializer(secret, salt="shadowtable-email-confirm")
        self._unsubscribe = URLSafeTimedSerializer(secret, salt="shadowtable-unsubscribe")

    def confirm_token(self, account_id: str, email: str) -> str:
        return str(self._confirm.dumps([account_id, email]))

    def unsubscribe_token(self, account_id: str, email: str) -> str:
        return str(self._unsubscribe.dumps([account_id, email]))

    def read_confirm(self, token: object) -> AddressClaim:
        """The claim of a genuine, unexpired confirmation token; :class:`Conflict` otherwise."""
        return _read(self._confirm, token, CONFIRM_MAX_AGE_S, "confirmation")

    def read_unsubscribe(self, token: object) -> AddressClaim:
        """The claim of a genuine unsubscribe token; :class:`Conflict` otherwise."""
        return _read(self._unsubscribe, token, UNSUBSCRIBE_MAX_AGE_S, "unsubscribe")


def _read(serializer: URLSafeTimedSerializer, token: object, max_age: int, what: str) -> AddressClaim:
    gone = f"this {what} link is not valid: it is damaged or too old"
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX or not token.isascii():
        raise Conflict(gone)
    try:
        data = serializer.loads(token, max_age=max_age)
    except (SignatureExpired, BadSignature) as exc:
        raise Conflict(gone) from exc
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(item, str) for item in data)):
        raise Conflict(gone)
    return AddressClaim(data[0], data[1])
