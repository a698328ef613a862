"""The "My tables" page and its badge: every table the player sits at (their account's seats and
this browser's), "your turn" first, and a small JSON answer the pages poll for the badge.

Both answer only from what spectators may know (:mod:`shadowtable.server.my_tables`) and are
never cached: they are this player's alone.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from shadowtable.server.cookies import seat_tokens
from shadowtable.server.dependencies import CurrentAccount, ServiceDep
from shadowtable.server.my_tables import MOST_FINISHED, MOST_TABLES, MyTables
from shadowtable.web.responses import PageRoute, page

router = APIRouter(include_in_schema=False, route_class=PageRoute)
counts = APIRouter(include_in_schema=False)
"""The badge's JSON answer (its errors are JSON too)."""

NO_STORE = {"Cache-Control": "no-store"}


def clock_words(ms: int | None) -> str:
    """Time left on a clock as ``m:ss`` (``h:mm:ss`` past an hour, ``2 d 5 h`` past a day); empty
    without one."""
    if ms is None:
        return ""
    seconds = max(0, -(-ms // 1000))
    if seconds >= 86400:
        days, rest = divmod(seconds, 86400)
        return f"{days} d {rest // 3600} h"
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@router.get("/me/tables", response_class=HTMLResponse)
async def my_tables(request: Request, service: ServiceDep, account: CurrentAccount) -> HTMLResponse:
    """The player's tables: their turn first, then the others in play or waiting, then the latest finished."""
    lines = await MyTables(service).lines(None if account is None else account.id, seat_tokens(request))
    answer = page(
        "my_tables.html",
        lines=lines,
        waiting=sum(line.yours for line in lines),
        clock_words=clock_words,
        most=MOST_TABLES,
        most_finished=MOST_FINISHED,
    )
    answer.headers.update(NO_STORE)
    return answer


@counts.get("/me/tables/count")
async def my_turns(request: Request, service: ServiceDep, account: CurrentAccount) -> JSONResponse:
    """How many tables wait for the player's decision, and which (for the badge and alerts)."""
    tables = await MyTables(service).waiting(None if account is None else account.id, seat_tokens(request))
    body: dict[str, Any] = {
        "waiting": len(tables),
        "tables": [{"id": table.id, "title": table.game.spec.name} for table in tables],
    }
    return JSONResponse(body, headers=NO_STORE)
