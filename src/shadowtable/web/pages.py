"""The browser pages: the lobby, table creation, joining a seat and the table page.

Forms post plainly (they work without scripts) and answer with a redirect; htmx refreshes the
lobby's table lists and the game-dependent part of the creation form; ``static/table.js`` keeps
the table page live over the game socket.  A refusal is answered with the error page and its
status (by :func:`shadowtable.server.failures.answer_error`: these are :class:`PageRoute` routes).
"""

from __future__ import annotations

import json
import time
from importlib import resources
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from shadowtable.server import master
from shadowtable.server.cookies import clear_seat_cookie, seat_tokens, set_seat_cookie, write_seats
from shadowtable.server.dependencies import CookieToken, CurrentAccount, LimitsDep, ServiceDep, sitting_as
from shadowtable.server.errors import Conflict, Forbidden, ServiceError
from shadowtable.server.service import Table, TableService
from shadowtable.server.table import TURN_BASED
from shadowtable.web.forms import (
    CLOCKS,
    MODES,
    MOVE_TIMES,
    PACES,
    RESERVES,
    VACATIONS,
    form_of,
    game_specs,
    new_table,
    parse_players,
    parse_seat_number,
    setup_context,
    setup_fields,
    setup_options,
    spec_of,
)
from shadowtable.web.render import board_stylesheet, board_stylesheet_text, view_fragments
from shadowtable.web.responses import PageRoute, PrivatePageRoute, page, see

INVALID_INVITE = "this invite link is not valid: it was used, replaced by a newer one or expired"

router = APIRouter(include_in_schema=False, route_class=PageRoute)
private = APIRouter(include_in_schema=False, route_class=PrivatePageRoute)
"""The pages holding an invite code (never cached, never referred)."""


async def board_stylesheet_file(name: str) -> Response:
    """A game's board stylesheet, kept in the game's own package beside its board."""
    css = board_stylesheet_text(name)
    if css is None:
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(css, media_type="text/css")


def mount_static(app: FastAPI) -> None:
    """Serve the pages' scripts, stylesheets and images at ``/static`` (a board's stylesheet from
    its game's package, at ``/static/boards/<game>.css``)."""
    app.add_api_route("/static/boards/{name}.css", board_stylesheet_file, include_in_schema=False)
    static = resources.files("shadowtable.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")


def seat_of(service: TableService, table: Table, token: str | None) -> tuple[int | None, str | None]:
    """The seat this browser holds at ``table`` (by its cookie's ``token``), and why none if it was
    refused (not when it left its seat in play: :meth:`TableService.left_seat` says which)."""
    if token is None or service.left_seat(table, token) is not None:
        return None, None
    try:
        return service.claim(table, token).seat, None
    except Forbidden as exc:
        return None, str(exc)


def join_page(
    table: Table, info: dict[str, Any], number: int, current: int | None, invite: str | None, status: int = 200
) -> HTMLResponse:
    """The page with the button that takes seat ``number`` (``current``: the seat held here now)."""
    return page(
        "join.html",
        status,
        table=info,
        game_name=table.game.spec.name,
        seat=info["seats"][number],
        current=current,
        invite=invite,
    )


@router.get("/", response_class=HTMLResponse)
async def lobby() -> HTMLResponse:
    specs = game_specs()
    return page(
        "lobby.html",
        games=specs,
        setup=setup_context(specs[0], specs[0].min_players),
        clocks=CLOCKS,
        paces=PACES,
        modes=MODES,
        move_times=MOVE_TIMES,
        reserves=RESERVES,
        vacations=VACATIONS,
    )


@router.get("/lobby/setup", response_class=HTMLResponse)
async def setup(request: Request, game: str | None = None, players: str | None = None) -> HTMLResponse:
    """The game-dependent part of the creation form (htmx swaps it when the game, the player count
    or an option changes; the seats and options chosen are kept where they still fit)."""
    spec = spec_of(game)
    try:
        count = parse_players(spec, players)
    except ServiceError:
        count = spec.min_players
    chosen = setup_fields(spec, count, request.query_params)
    return page("fragments/setup.html", setup=setup_context(spec, count, setup_options(spec, count, chosen), chosen))


@router.get("/lobby/tables", response_class=HTMLResponse)
async def tables(service: ServiceDep, status: str = "open") -> HTMLResponse:
    if status not in {"open", "playing", "over"}:
        raise ServiceError("status: open, playing or over")
    found = await service.lobby(status, 30)
    names = {spec.id: spec.name for spec in game_specs()}
    return page("fragments/tables.html", tables=found, status=status, names=names)


@router.post("/tables")
async def create(request: Request, service: ServiceDep, limits: LimitsDep, account: CurrentAccount) -> Response:
    form = await form_of(request)
    spec = spec_of(form.get("game"))
    players = parse_players(spec, form.get("players"))
    name, account_id = sitting_as(account, form.get("name"))
    await service.seat_name(name, 0, account_id)  # checked before anything is created
    new = new_table(spec, players, form)
    held = list(seat_tokens(request))
    if new.mode == TURN_BASED:
        await service.check_turn_tables(account_id, held)  # refused before anything is created
    async with limits.creating(request, service) as made:
        table = await service.create(new)
        made(table.id)
    table, _seat, token = await service.join(table.id, name, 0, account_id, as_host=True, browser_tables=held)
    response = see(f"/t/{table.id}")
    await set_seat_cookie(response, request, table.id, token, service)
    return response


def kept_for_me(service: TableService, table: Table, request: Request, account_id: str | None) -> frozenset[int]:
    """The seats of ``table`` a rematch keeps for this browser's player (its account, or a seat its
    cookie holds at the finished table)."""
    proofs = list(seat_tokens(request).values())
    return master.kept_seats(table, time.time(), account_id, service.claims(proofs)).mine


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(
    table_id: str, request: Request, service: ServiceDep, token: CookieToken, account: CurrentAccount
) -> HTMLResponse:
    table = await service.table(table_id)
    seat, refused = seat_of(service, table, token)
    info = service.info(table)
    kept = kept_for_me(service, table, request, None if account is None else account.id) if seat is None else set()
    # the view the socket sends, with its fragments: built once per table version and reused
    message = json.loads(service.view_text(table, seat, 0, html=True))
    fragments = message.pop("html", None) or view_fragments(table.game, message, info)
    answer = page(
        "table.html",
        table=info,
        game_name=table.game.spec.name,
        seat=seat,
        refused=refused,
        left=service.left_seat(table, token),
        host=seat is not None and seat == table.host_seat,
        kept=kept,
        v=message["v"],
        fragments=fragments,
        base=str(request.base_url).rstrip("/"),
        stylesheet=board_stylesheet(type(table.game)),
    )
    if table.status == "over":  # the seats of ended games leave the browser's seat cookie
        await write_seats(answer, request, service, force=False)
    return answer


@router.get("/t/{table_id}/seat/{seat}", response_class=HTMLResponse)
async def seat_page(table_id: str, seat: str, service: ServiceDep, token: CookieToken) -> HTMLResponse:
    """The join link of one seat: a page with a button (a link alone never takes a seat); a
    browser that already sits at this table is asked whether to move."""
    table = await service.table(table_id)
    info = service.info(table)
    number = int(seat) if seat.isascii() and seat.isdigit() and len(seat) < 4 else -1
    if not 0 <= number < len(info["seats"]):
        raise ServiceError(f"seat must be between 0 and {len(info['seats']) - 1}")
    return join_page(table, info, number, service.held_seat(table, token), invite=None)


@private.get("/t/{table_id}/invite/{code}", response_class=HTMLResponse)
async def invite_page(table_id: str, code: str, service: ServiceDep, token: CookieToken) -> HTMLResponse:
    """An invite link from the host: a page with a button that seats its bearer (the code is
    used up then, not by opening the link)."""
    table, number = await service.invited_seat(table_id, code)
    if number is None:
        raise Conflict(INVALID_INVITE)
    return join_page(table, service.info(table), number, service.held_seat(table, token), invite=code)


def move_question(service: TableService, table: Table, holder: str | None, wanted: int | None) -> HTMLResponse | None:
    """Before the start, a browser sitting at another seat of ``table`` is asked whether to move to
    ``wanted`` (409, the join page): never moved silently.  ``None``: nothing to ask."""
    current = service.held_seat(table, holder)
    if table.status != "open" or wanted is None or current in (None, wanted):
        return None
    info = service.info(table)
    if not 0 <= wanted < len(info["seats"]):
        return None
    return join_page(table, info, wanted, current, invite=None, status=409)


@router.post("/t/{table_id}/join")
async def join(
    table_id: str,
    request: Request,
    service: ServiceDep,
    limits: LimitsDep,
    account: CurrentAccount,
    holder: CookieToken,
) -> Response:
    form = await form_of(request)
    wanted = parse_seat_number(form.get("seat", ""))
    move, invite = form.get("move") == "yes", form.get("invite") or None
    table = await service.table(table_id)
    question = None if move or invite is not None else move_question(service, table, holder, wanted)
    if question is not None:
        return question
    name, account_id = sitting_as(account, form.get("name"))
    async with limits.joining(request, service) as took:
        table, seat, token = await service.join(
            table_id,
            name,
            wanted,
            account_id,
            holder=holder,
            move=move,
            invite=invite,
            proofs=list(seat_tokens(request).values()),
            browser_tables=list(seat_tokens(request)),
        )
        took(table.id, seat, token)
    response = see(f"/t/{table.id}")
    await set_seat_cookie(response, request, table.id, token, service)
    return response


@router.post("/t/{table_id}/return")
async def take_back(table_id: str, service: ServiceDep, token: CookieToken) -> Response:
    await service.take_back(table_id, token)
    return see(f"/t/{table_id}")


@private.post("/t/{table_id}/invite")
async def invite(table_id: str, request: Request, service: ServiceDep, token: CookieToken) -> Response:
    """The host makes a single-use invite link to a vacated seat: shown once, on this page."""
    raw_seat = (await form_of(request)).get("seat", "")
    if not (raw_seat.isascii() and raw_seat.isdigit() and len(raw_seat) < 4):
        raise ServiceError("seat: expected a number")
    code, expires = await service.invite(table_id, token, int(raw_seat))
    table = await service.table(table_id)
    base = str(request.base_url).rstrip("/")
    return page(
        "invite.html",
        table=service.info(table),
        game_name=table.game.spec.name,
        seat=int(raw_seat),
        link=f"{base}/t/{table_id}/invite/{code}",
        hours=round((expires - time.time()) / 3600),
    )


@router.post("/t/{table_id}/start")
async def start(table_id: str, service: ServiceDep, token: CookieToken) -> Response:
    await service.start_now(table_id, token)
    return see(f"/t/{table_id}")


@router.post("/t/{table_id}/leave")
async def leave(table_id: str, request: Request, service: ServiceDep, token: CookieToken) -> Response:
    table = await service.leave(table_id, token)
    response = see(f"/t/{table_id}")
    if table.status != "playing":
        await clear_seat_cookie(response, request, table_id, service)  # in play it is kept: it takes the seat back
    return response


@router.post("/t/{table_id}/away")
async def away(table_id: str, request: Request, service: ServiceDep, token: CookieToken) -> Response:
    """A seated player of a turn-based table takes days of vacation (0: ends it now)."""
    raw = (await form_of(request)).get("days", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 3):
        raise ServiceError("days: expected a whole number of days")
    await service.set_away(table_id, token, int(raw))
    return see(f"/t/{table_id}")


@router.post("/t/{table_id}/rematch")
async def rematch(
    table_id: str, request: Request, service: ServiceDep, account: CurrentAccount, token: CookieToken
) -> Response:
    old = await service.table(table_id)
    seat = service.claim(old, token).seat
    new = await service.rematch(table_id, token)
    name, account_id = sitting_as(account, old.seats[seat].name)
    new, _seat, new_token = await service.join(
        new.id, name, seat, account_id, as_host=True, proofs=[] if token is None else [token]
    )
    response = see(f"/t/{new.id}")
    await set_seat_cookie(response, request, new.id, new_token, service)
    return response


@router.post("/t/{table_id}/decline")
async def decline(table_id: str, request: Request, service: ServiceDep, account: CurrentAccount) -> Response:
    """The player a rematch keeps a seat for declines it (anyone may take it then)."""
    proofs = list(seat_tokens(request).values())
    await service.decline(table_id, None if account is None else account.id, proofs)
    return see(f"/t/{table_id}")


router.include_router(private)
