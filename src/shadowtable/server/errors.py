"""Errors the server answers with: each carries the HTTP status it maps to."""

from __future__ import annotations

from shadowtable.core.errors import ShadowTableError


class ServiceError(ShadowTableError):
    """A request the server refuses; ``status`` is its HTTP status code."""

    status = 400

    def headers(self) -> dict[str, str]:
        """Headers the answer carries besides the status (a retry hint)."""
        return {}


class Unauthorized(ServiceError):
    """Nobody is signed in where an account is needed."""

    status = 401


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class TooManyTurnTables(Conflict):
    """An account (or a guest's browser) sits at the most turn-based tables allowed already."""


class Forbidden(ServiceError):
    status = 403


class Unavailable(ServiceError):
    status = 503


class Stale(Conflict):
    """Another server process changed the table first: re-read it and decide again."""


class RateLimited(ServiceError):
    """A client over one of its limits (a rate or a count): ``retry_after`` seconds to wait."""

    status = 429

    def __init__(self, what: str, retry_after: int) -> None:
        self.retry_after = max(1, int(retry_after))
        super().__init__(f"{what}; try again in {self.retry_after} s")

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}
