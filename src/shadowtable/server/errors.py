"""Errors the server answers with: each carries the HTTP status it maps to."""

from __future__ import annotations

from shadowtable.core.errors import ShadowTableError


class ServiceError(ShadowTableError):
    """A request the server refuses; ``status`` is its HTTP status code."""

    status = 400


class Unauthorized(ServiceError):
    """Nobody is signed in where an account is needed."""

    status = 401


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Forbidden(ServiceError):
    status = 403


class Unavailable(ServiceError):
    status = 503


class Stale(Conflict):
    """Another server process changed the table first: re-read it and decide again."""
