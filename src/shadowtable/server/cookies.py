"""Seat tokens over HTTP: the table's HttpOnly cookie, or ``Authorization: Bearer``."""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response

from shadowtable.server.config import ServerConfig

COOKIE_PREFIX = "shadowtable_seat_"


def cookie_name(table_id: str) -> str:
    return COOKIE_PREFIX + table_id


def request_token(request: HTTPConnection, table_id: str, authorization: str | None = None) -> str | None:
    """The seat token from ``Authorization: Bearer ...`` or the table's HttpOnly cookie."""
    if authorization and authorization.startswith("Bearer "):
        return authorization.removeprefix("Bearer ").strip()
    return request.cookies.get(cookie_name(table_id))


def set_seat_cookie(response: Response, table_id: str, token: str, config: ServerConfig) -> None:
    """Keep ``token`` in the browser for this table only (never readable by the page's scripts)."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=config.token_max_age_s,
        httponly=True,
        samesite="strict",
        path="/",
    )


def clear_seat_cookie(response: Response, table_id: str) -> None:
    response.delete_cookie(cookie_name(table_id), path="/")
