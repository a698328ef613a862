"""A table's life over the API: create, read, join, take a seat back, invite, leave, start, rematch.

A seat is named by its token: ``Authorization: Bearer ...``, or the browser's seat cookie.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from shadowtable.server.cookies import clear_seat_cookie, seat_tokens, set_seat_cookie
from shadowtable.server.dependencies import (
    CurrentAccount,
    HeldToken,
    LimitsDep,
    SeatToken,
    ServiceDep,
    TableId,
    sitting_as,
)
from shadowtable.server.routes.models import (
    ERRORS,
    LIMITED,
    AwaySettings,
    CreateTable,
    Invite,
    InviteSeat,
    JoinTable,
    Seated,
    TableOut,
)
from shadowtable.server.service import NewTable
from shadowtable.server.table import TURN_BASED

router = APIRouter()


def new_table(body: CreateTable) -> NewTable:
    """The table a creation request asks for (every seat human unless ``seats`` says otherwise)."""
    seats = body.seats if body.seats is not None else ["human"] * body.players
    clock = body.clock.model_dump() if body.clock is not None else None
    turn = body.turn.model_dump() if body.turn is not None else None
    return NewTable(
        body.game, body.players, body.options, seats, clock, body.listed, body.pace, body.undo, body.mode, turn
    )


@router.post("/api/tables", response_model=Seated, status_code=201, responses=LIMITED)
async def create(
    body: CreateTable,
    request: Request,
    response: Response,
    service: ServiceDep,
    limits: LimitsDep,
    account: CurrentAccount,
) -> dict[str, Any]:
    """Create a table; with ``sit`` you take its first human seat and get that seat's token
    (signed in: as your account, under its name)."""
    name, account_id = sitting_as(account, body.name)
    held = list(seat_tokens(request))
    if body.sit:
        await service.seat_name(body.name, 0, account_id)  # checked before anything is created
        if body.mode == TURN_BASED:
            await service.check_turn_tables(account_id, held)
    async with limits.creating(request, service) as made:
        table = await service.create(new_table(body))
        made(table.id)
    if body.sit and any(not s.taken for s in table.seats):
        table, seat, token = await service.join(table.id, name, None, account_id, as_host=True, browser_tables=held)
        await set_seat_cookie(response, request, table.id, token, service)
        return {"table": service.info(table), "seat": seat, "token": token}
    return {"table": service.info(table), "seat": None, "token": None}


@router.get("/api/tables/{table_id}", response_model=TableOut, responses=ERRORS)
async def table_info(table_id: TableId, service: ServiceDep) -> dict[str, Any]:
    """What anyone may know of a table."""
    return service.info(await service.table(table_id))


@router.post("/api/tables/{table_id}/join", response_model=Seated, responses=LIMITED)
async def join(
    table_id: TableId,
    body: JoinTable,
    request: Request,
    response: Response,
    service: ServiceDep,
    limits: LimitsDep,
    account: CurrentAccount,
    holder: HeldToken,
) -> dict[str, Any]:
    """Take a free seat, or with ``invite`` the vacated seat the host invited you to: the answer
    (and an HttpOnly cookie) holds the seat's token (signed in: the seat is your account's, under
    its name).  With the Bearer token of a seat you hold here, refused unless ``move``.  A seat a
    rematch keeps for the player who held it in the finished game is theirs: signed in as that
    account, or with the Bearer token (or the cookie) of their seat at the finished table."""
    name, account_id = sitting_as(account, body.name)
    proofs = [*([] if holder is None else [holder]), *seat_tokens(request).values()]
    async with limits.joining(request, service) as took:
        table, seat, token = await service.join(
            table_id,
            name,
            body.seat,
            account_id,
            holder=holder,
            move=body.move,
            invite=body.invite,
            proofs=proofs,
            browser_tables=list(seat_tokens(request)),
        )
        took(table.id, seat, token)
    await set_seat_cookie(response, request, table.id, token, service)
    return {"table": service.info(table), "seat": seat, "token": token}


@router.post("/api/tables/{table_id}/return", response_model=Seated, responses=ERRORS)
async def take_back(
    table_id: TableId, request: Request, response: Response, service: ServiceDep, token: SeatToken
) -> dict[str, Any]:
    """Take back the seat you left in play, with the token you left with (valid again)."""
    table, seat = await service.take_back(table_id, token)
    assert token is not None
    await set_seat_cookie(response, request, table.id, token, service)
    return {"table": service.info(table), "seat": seat, "token": token}


@router.post("/api/tables/{table_id}/invite", response_model=Invite, responses=ERRORS)
async def invite(table_id: TableId, body: InviteSeat, service: ServiceDep, token: SeatToken) -> dict[str, Any]:
    """The host's single-use invite to a seat a bot plays since its player left it (a newer
    invite to the seat replaces it)."""
    code, expires = await service.invite(table_id, token, body.seat)
    return {"seat": body.seat, "code": code, "url": f"/t/{table_id}/invite/{code}", "expires_at": expires}


@router.post("/api/tables/{table_id}/away", response_model=TableOut, responses=ERRORS)
async def away(table_id: TableId, body: AwaySettings, service: ServiceDep, token: SeatToken) -> dict[str, Any]:
    """Turn-based tables: take ``days`` of vacation (your clock waits meanwhile), up to the days the
    table allows each seat in all; ``days: 0`` ends it now (the days taken stay taken)."""
    return service.info(await service.set_away(table_id, token, body.days))


@router.post("/api/tables/{table_id}/leave", response_model=TableOut, responses=ERRORS)
async def leave(
    table_id: TableId, request: Request, response: Response, service: ServiceDep, token: SeatToken
) -> dict[str, Any]:
    """Give up your seat (its token is revoked; in play a bot takes it over)."""
    table = await service.leave(table_id, token)
    if table.status != "playing":
        await clear_seat_cookie(response, request, table.id, service)  # in play it is kept: it takes the seat back
    return service.info(table)


@router.post("/api/tables/{table_id}/start", response_model=TableOut, responses=ERRORS)
async def start(table_id: TableId, service: ServiceDep, token: SeatToken) -> dict[str, Any]:
    """Start now: bots take the seats nobody joined."""
    return service.info(await service.start_now(table_id, token))


@router.post("/api/tables/{table_id}/rematch", response_model=TableOut, responses=ERRORS)
async def rematch(table_id: TableId, service: ServiceDep, token: SeatToken) -> dict[str, Any]:
    """The rematch table of a finished game (join it to play again)."""
    return service.info(await service.rematch(table_id, token))


@router.post("/api/tables/{table_id}/decline", response_model=TableOut, responses=ERRORS)
async def decline(
    table_id: TableId, request: Request, service: ServiceDep, account: CurrentAccount, holder: HeldToken
) -> dict[str, Any]:
    """Decline the seat this rematch keeps for you (signed in, or with the Bearer token of your seat
    at the finished table): anyone may take it then."""
    proofs = [*([] if holder is None else [holder]), *seat_tokens(request).values()]
    return service.info(await service.decline(table_id, None if account is None else account.id, proofs))
