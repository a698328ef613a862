"""Seat tokens: signed (itsdangerous), expiring, and revocable through a key stored per seat.

A token names a table, a seat and a random key; the seat row keeps only the key's SHA-256.
Giving the seat a new key (or none) revokes every token issued before.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from shadowtable.core.errors import ShadowTableError


class TokenError(ShadowTableError):
    """A seat token that is forged, malformed, expired or revoked."""


@dataclass(frozen=True)
class SeatClaim:
    """What a valid token says: the table, the seat and the key to compare with the seat's."""

    table: str
    seat: int
    key: str


def new_key() -> str:
    """A fresh random seat key."""
    return secrets.token_urlsafe(18)


def key_hash(key: str) -> str:
    """The SHA-256 of a seat key, as stored."""
    return hashlib.sha256(key.encode()).hexdigest()


class SeatTokens:
    """Issues and checks seat tokens signed with the server's secret."""

    def __init__(self, secret: str, max_age_s: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="shadowtable-seat")
        self.max_age_s = max_age_s

    def issue(self, table: str, seat: int, key: str) -> str:
        """A token for ``seat`` of ``table`` holding ``key``."""
        return str(self._serializer.dumps([table, seat, key]))

    def read(self, token: object) -> SeatClaim:
        """The claim of a genuine, unexpired token; :class:`TokenError` otherwise (it does not
        check revocation: compare :attr:`SeatClaim.key` with the seat's key hash)."""
        if not isinstance(token, str) or not 0 < len(token) <= 512 or not token.isascii():
            raise TokenError("the seat token is missing or malformed")
        try:
            data = self._serializer.loads(token, max_age=self.max_age_s)
        except SignatureExpired as exc:
            raise TokenError("the seat token has expired: join the table again") from exc
        except BadSignature as exc:
            raise TokenError("the seat token is not valid") from exc
        if (
            not isinstance(data, list)
            or len(data) != 3
            or not isinstance(data[0], str)
            or isinstance(data[1], bool)
            or not isinstance(data[1], int)
            or not isinstance(data[2], str)
        ):
            raise TokenError("the seat token is not valid")
        return SeatClaim(data[0], data[1], data[2])


def matches(claim: SeatClaim, stored_hash: str | None) -> bool:
    """Whether ``claim`` holds the seat's current key (constant time)."""
    return stored_hash is not None and secrets.compare_digest(key_hash(claim.key), stored_hash)
