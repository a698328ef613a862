"""Seat tokens over HTTP: the browser's one seat cookie, or ``Authorization: Bearer``.

A browser keeps every seat it holds in one HttpOnly cookie, ``shadowtable_seats``: ``table:token``
pairs joined by ``|``, oldest first.  Each time it is written, the seats of games that ended more
than ``seat_cookie_keep_s`` ago are dropped, and past ``seat_cookie_max`` seats the oldest go, so
the cookie stays far below the 4 KB a browser keeps (and the header sizes proxies accept).  The
per-table cookies of older versions (``shadowtable_seat_<table>``) are still read, folded into the
new cookie the next time it is written, and deleted then.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection
from starlette.responses import Response

from shadowtable.server.errors import ServiceError

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

SEATS_COOKIE = "shadowtable_seats"
LEGACY_PREFIX = "shadowtable_seat_"
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKEN = re.compile(r"[A-Za-z0-9_.-]{1,512}")


def parse_seats(value: str | None) -> dict[str, str]:
    """The ``table -> token`` pairs of a seat cookie, oldest first (malformed pairs skipped)."""
    seats: dict[str, str] = {}
    for pair in (value or "").split("|"):
        table_id, _, token = pair.partition(":")
        if TABLE_ID.fullmatch(table_id) and TOKEN.fullmatch(token):
            seats.pop(table_id, None)
            seats[table_id] = token
    return seats


def format_seats(seats: dict[str, str]) -> str:
    return "|".join(f"{table_id}:{token}" for table_id, token in seats.items())


def legacy_cookies(request: HTTPConnection) -> dict[str, str]:
    """The per-table seat cookies of older versions: ``table -> token``."""
    found = {}
    for name, token in request.cookies.items():
        table_id = name.removeprefix(LEGACY_PREFIX)
        if name.startswith(LEGACY_PREFIX) and TABLE_ID.fullmatch(table_id) and TOKEN.fullmatch(token):
            found[table_id] = token
    return found


def seat_tokens(request: HTTPConnection) -> dict[str, str]:
    """Every seat this browser holds, ``table -> token``, oldest first (older per-table cookies first)."""
    seats = legacy_cookies(request)
    for table_id, token in parse_seats(request.cookies.get(SEATS_COOKIE)).items():
        seats.pop(table_id, None)
        seats[table_id] = token
    return seats


def cookie_tokens(request: HTTPConnection, table_id: str) -> dict[str, str]:
    """The browser's seat token for ``table_id`` alone (what a table's socket may use)."""
    token = seat_tokens(request).get(table_id)
    return {table_id: token} if token is not None else {}


def request_token(request: HTTPConnection, table_id: str, authorization: str | None = None) -> str | None:
    """The seat token from ``Authorization: Bearer ...`` or the browser's seat cookie."""
    if authorization and authorization.startswith("Bearer "):
        return authorization.removeprefix("Bearer ").strip()
    return seat_tokens(request).get(table_id)


def bounded(seats: dict[str, str], ended: set[str], most: int) -> dict[str, str]:
    """``seats`` without the ``ended`` tables, keeping the newest ``most``."""
    kept = [(table_id, token) for table_id, token in seats.items() if table_id not in ended]
    return dict(kept[-most:]) if most > 0 else {}


async def ended_tables(service: TableService, table_ids: list[str]) -> set[str]:
    """Those of ``table_ids`` whose game ended more than ``seat_cookie_keep_s`` ago (one query;
    none when the database does not answer)."""
    if not table_ids:
        return set()
    before = time.time() - service.config.seat_cookie_keep_s
    with contextlib.suppress(ServiceError):
        return await service.repository.ended_before(table_ids, before)
    return set()


async def write_seats(
    response: Response,
    request: HTTPConnection,
    service: TableService,
    add: tuple[str, str] | None = None,
    remove: str | None = None,
    force: bool = True,
) -> None:
    """Rewrite the seat cookie on ``response``: ``add`` a ``(table, token)`` as the newest, ``remove``
    a table, drop ended games and the oldest past the cap; delete the older per-table cookies.
    Without ``force`` nothing is written unless that changes the cookie."""
    config = service.config
    current = seat_tokens(request)
    seats = dict(current)
    if remove is not None:
        seats.pop(remove, None)
    if add is not None:
        seats.pop(add[0], None)
        seats[add[0]] = add[1]
    ended = await ended_tables(service, [t for t in seats if add is None or t != add[0]])
    seats = bounded(seats, ended, config.seat_cookie_max)
    legacy = legacy_cookies(request)
    if not force and not legacy and seats == current:
        return
    for table_id in legacy:
        response.delete_cookie(LEGACY_PREFIX + table_id, path="/")
    if seats:
        response.set_cookie(
            SEATS_COOKIE,
            format_seats(seats),
            max_age=config.token_max_age_s,
            httponly=True,
            samesite="strict",
            path="/",
        )
    else:
        response.delete_cookie(SEATS_COOKIE, path="/", httponly=True, samesite="strict")


async def set_seat_cookie(
    response: Response, request: HTTPConnection, table_id: str, token: str, service: TableService
) -> None:
    """Keep ``token`` for ``table_id`` in the browser's seat cookie (never readable by the page's scripts)."""
    await write_seats(response, request, service, add=(table_id, token))


async def clear_seat_cookie(response: Response, request: HTTPConnection, table_id: str, service: TableService) -> None:
    """Forget the seat of ``table_id`` (and ended games) in the browser's seat cookie."""
    await write_seats(response, request, service, remove=table_id)
