"""The browser pages: the lobby, table creation, joining a seat and the table page.

Forms post plainly (they work without scripts) and answer with a redirect; htmx refreshes the
lobby's table lists and the game-dependent part of the creation form; ``static/table.js`` keeps
the table page live over the game socket.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

import shadowtable
from shadowtable.core.registry import available_games, game_class
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.server.accounts import Accounts, signed_in
from shadowtable.server.bot_levels import LEVELS, levels_for
from shadowtable.server.config import ServerConfig
from shadowtable.server.cookies import clear_seat_cookie, request_token, set_seat_cookie, write_seats
from shadowtable.server.errors import Conflict, Forbidden, ServiceError
from shadowtable.server.limits import limits_of
from shadowtable.server.service import SERVER_REFUSED_OPTIONS, NewTable, Table, TableService
from shadowtable.web.render import board_stylesheet, board_stylesheet_text, view_fragments
from shadowtable.web.templating import render

BOT_LEVELS = {name: level.description for name, level in LEVELS.items()}
CLOCKS = {"": "No clock", "300": "5 minutes each", "900": "15 minutes each", "1800": "30 minutes each"}
TABLE_PATH = r"^[A-Za-z0-9_-]{1,32}$"


def page(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("account", signed_in.get())
    return HTMLResponse(render(template, version=shadowtable.__version__, **context), status_code=status_code)


def error_page(exc: ServiceError) -> HTMLResponse:
    answer = page("error.html", status_code=exc.status, message=str(exc))
    answer.headers.update(exc.headers())
    return answer


def see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def game_specs() -> list[GameSpec]:
    return [game_class(game_id).SPEC for game_id in available_games()]


def offered_options(spec: GameSpec) -> list[OptionSpec]:
    """The options a player may set from the browser (never one naming a server file)."""
    return [option for option in spec.options if option.name not in SERVER_REFUSED_OPTIONS]


def parse_options(spec: GameSpec, form: dict[str, str]) -> dict[str, Any]:
    """The game options of a creation form (``opt_<name>`` fields), typed; unknown text refused."""
    options: dict[str, Any] = {}
    for option in offered_options(spec):
        raw = form.get(f"opt_{option.name}")
        if raw is None or raw == "":
            continue
        if option.type is bool:
            if raw not in {"yes", "no"}:
                raise ServiceError(f"option {option.name}: expected yes or no")
            options[option.name] = raw == "yes"
        elif option.type is int:
            try:
                options[option.name] = int(raw)
            except ValueError:
                raise ServiceError(f"option {option.name}: expected a whole number") from None
        else:
            options[option.name] = raw
    return options


def parse_clock(form: dict[str, str]) -> dict[str, Any] | None:
    initial = form.get("clock", "")
    if initial == "":
        return None
    try:
        initial_s, bonus_s = int(initial), int(form.get("clock_bonus", "0") or 0)
    except ValueError:
        raise ServiceError("clock: expected whole seconds") from None
    return {"initial_s": initial_s, "bonus_s": bonus_s, "on_timeout": form.get("on_timeout", "bot")}


def bots_offered(game: str, players: int) -> list[str]:
    """The bot levels the lobby offers for ``game`` with ``players`` players (the trained policy
    only where one ships for them and PyTorch is installed)."""
    return levels_for(game, players)


def parse_seats(form: dict[str, str], game: str, players: int) -> list[str]:
    """Seat 0 is the creator's; every other seat is ``human`` or ``bot:<name>``."""
    seats = ["human"]
    offered = bots_offered(game, players)
    for i in range(1, players):
        choice = form.get(f"seat_{i}", "human")
        if choice != "human" and choice.removeprefix("bot:") not in offered:
            raise ServiceError(f"seat {i}: expected human or one of the bots")
        seats.append(choice)
    return seats


def parse_players(spec: GameSpec, raw: str | None) -> int:
    try:
        players = int(raw or spec.min_players)
    except ValueError:
        raise ServiceError("players: expected a number") from None
    if not spec.min_players <= players <= spec.max_players:
        raise ServiceError(f"players: {spec.name} takes {spec.min_players} to {spec.max_players}")
    return players


def spec_of(game_id: str | None) -> GameSpec:
    for spec in game_specs():
        if spec.id == game_id:
            return spec
    raise ServiceError("game: choose one of " + ", ".join(s.id for s in game_specs()))


def seat_of(service: TableService, table: Table, request: Request) -> tuple[int | None, str | None]:
    """The seat this browser holds at ``table`` (by its cookie), and why none if it was refused (not
    when it left its seat in play: :meth:`TableService.left_seat` says which)."""
    token = request_token(request, table.id)
    if token is None or service.left_seat(table, token) is not None:
        return None, None
    try:
        return service.claim(table, token).seat, None
    except Forbidden as exc:
        return None, str(exc)


INVALID_INVITE = "this invite link is not valid: it was used, replaced by a newer one or expired"
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
"""Headers of a page holding an invite code: kept out of caches and of other sites' referrers
(``same-origin``, not ``no-referrer``: under that a browser sends ``Origin: null`` with the page's
form, which the check against forged requests refuses)."""


def add_pages(
    app: FastAPI, service: Callable[[], TableService], config: ServerConfig, accounts: Accounts | None = None
) -> None:
    """Mount the static files and the browser pages on ``app``."""

    def sitter(request: Request, name: str | None) -> tuple[str | None, str | None]:
        """The name and account a seat is taken with: a signed-in browser's account, else ``name``."""
        account = accounts.current(request) if accounts is not None else None
        return (account.name, account.id) if account is not None else (name, None)

    @app.get("/static/boards/{name}.css", include_in_schema=False)
    async def board_stylesheet_file(name: str) -> Response:
        """A game's board stylesheet, kept in the game's own package beside its board."""
        css = board_stylesheet_text(name)
        if css is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(css, media_type="text/css")

    static = resources.files("shadowtable.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    router = APIRouter(include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    async def lobby() -> HTMLResponse:
        specs = game_specs()
        return page(
            "lobby.html",
            games=specs,
            setup=setup_context(specs[0], specs[0].min_players),
            clocks=CLOCKS,
        )

    def setup_context(spec: GameSpec, players: int) -> dict[str, Any]:
        return {
            "spec": spec,
            "players": players,
            "options": offered_options(spec),
            "bots": BOT_LEVELS,
            "bots_here": bots_offered(spec.id, players),
        }

    @router.get("/lobby/setup", response_class=HTMLResponse)
    async def setup(game: str | None = None, players: str | None = None) -> HTMLResponse:
        """The game-dependent part of the creation form (htmx swaps it when the game changes)."""
        try:
            spec = spec_of(game)
            try:
                count = parse_players(spec, players)
            except ServiceError:
                count = spec.min_players
        except ServiceError as exc:
            return error_page(exc)
        return page("fragments/setup.html", setup=setup_context(spec, count))

    @router.get("/lobby/tables", response_class=HTMLResponse)
    async def tables(status: str = "open") -> HTMLResponse:
        if status not in {"open", "playing", "over"}:
            return error_page(ServiceError("status: open, playing or over"))
        try:
            found = await service().lobby(status, 30)
        except ServiceError as exc:
            return error_page(exc)
        names = {spec.id: spec.name for spec in game_specs()}
        return page("fragments/tables.html", tables=found, status=status, names=names)

    @router.post("/tables")
    async def create(request: Request) -> Response:
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        svc = service()
        try:
            spec = spec_of(form.get("game"))
            players = parse_players(spec, form.get("players"))
            name, account_id = sitter(request, form.get("name"))
            await svc.seat_name(name, 0, account_id)  # checked before anything is created
            new = NewTable(
                spec.id,
                players,
                parse_options(spec, form),
                parse_seats(form, spec.id, players),
                parse_clock(form),
                form.get("listed", "yes") == "yes",
            )
            async with limits_of(request).creating(request, svc) as made:
                table = await svc.create(new)
                made(table.id)
            table, _seat, token = await svc.join(table.id, name, 0, account_id, as_host=True)
        except ServiceError as exc:
            return error_page(exc)
        response = see(f"/t/{table.id}")
        await set_seat_cookie(response, request, table.id, token, svc)
        return response

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        svc = service()
        try:
            table = await svc.table(table_id)
        except ServiceError as exc:
            return error_page(exc)
        seat, refused = seat_of(svc, table, request)
        left = svc.left_seat(table, request_token(request, table.id))
        info = svc.info(table)
        # the view the socket sends, with its fragments: built once per table version and reused
        message = json.loads(svc.view_text(table, seat, 0, html=True))
        fragments = message.pop("html", None) or view_fragments(table.game, message, info)
        base = str(request.base_url).rstrip("/")
        answer = page(
            "table.html",
            table=info,
            game_name=table.game.spec.name,
            seat=seat,
            refused=refused,
            left=left,
            host=seat is not None and seat == table.host_seat,
            v=message["v"],
            fragments=fragments,
            base=base,
            stylesheet=board_stylesheet(type(table.game)),
        )
        if table.status == "over":  # the seats of ended games leave the browser's seat cookie
            await write_seats(answer, request, svc, force=False)
        return answer

    @router.get("/t/{table_id}/seat/{seat}", response_class=HTMLResponse)
    async def seat_page(table_id: str, seat: str, request: Request) -> HTMLResponse:
        """The join link of one seat: a page with a button (a link alone never takes a seat); a
        browser that already sits at this table is asked whether to move."""
        svc = service()
        try:
            table = await svc.table(table_id)
        except ServiceError as exc:
            return error_page(exc)
        info = svc.info(table)
        number = int(seat) if seat.isascii() and seat.isdigit() and len(seat) < 4 else -1
        if not 0 <= number < len(info["seats"]):
            return error_page(ServiceError(f"seat must be between 0 and {len(info['seats']) - 1}"))
        current = svc.held_seat(table, request_token(request, table.id))
        return page(
            "join.html",
            table=info,
            game_name=table.game.spec.name,
            seat=info["seats"][number],
            current=current,
            invite=None,
        )

    @router.get("/t/{table_id}/invite/{code}", response_class=HTMLResponse)
    async def invite_page(table_id: str, code: str, request: Request) -> HTMLResponse:
        """An invite link from the host: a page with a button that seats its bearer (the code is
        used up then, not by opening the link)."""
        svc = service()
        try:
            table, number = await svc.invited_seat(table_id, code)
        except ServiceError as exc:
            return error_page(exc)
        if number is None:
            return error_page(Conflict(INVALID_INVITE))
        info = svc.info(table)
        current = svc.held_seat(table, request_token(request, table.id))
        answer = page(
            "join.html",
            table=info,
            game_name=table.game.spec.name,
            seat=info["seats"][number],
            current=current,
            invite=code,
        )
        answer.headers.update(PRIVATE)
        return answer

    @router.post("/t/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        raw_seat = form.get("seat", "")
        try:
            wanted = int(raw_seat) if raw_seat != "" else None
        except ValueError:
            return error_page(ServiceError("seat: expected a number"))
        svc = service()
        holder = request_token(request, table_id)
        move, invite = form.get("move") == "yes", form.get("invite") or None
        try:
            table = await svc.table(table_id)
            current = svc.held_seat(table, holder)
            asked = not move and invite is None and table.status == "open"
            if asked and wanted is not None and current not in (None, wanted):
                info = svc.info(table)
                if 0 <= wanted < len(info["seats"]):  # ask first: never moved silently
                    seat_info = info["seats"][wanted]
                    return page(
                        "join.html",
                        409,
                        table=info,
                        game_name=table.game.spec.name,
                        seat=seat_info,
                        current=current,
                        invite=None,
                    )
            name, account_id = sitter(request, form.get("name"))
            async with limits_of(request).joining(request, svc) as took:
                table, _seat, token = await svc.join(
                    table_id, name, wanted, account_id, holder=holder, move=move, invite=invite
                )
                took(table.id, _seat, token)
        except ServiceError as exc:
            return error_page(exc)
        response = see(f"/t/{table.id}")
        await set_seat_cookie(response, request, table.id, token, svc)
        return response

    @router.post("/t/{table_id}/return")
    async def take_back(table_id: str, request: Request) -> Response:
        try:
            await service().take_back(table_id, request_token(request, table_id))
        except ServiceError as exc:
            return error_page(exc)
        return see(f"/t/{table_id}")

    @router.post("/t/{table_id}/invite")
    async def invite(table_id: str, request: Request) -> Response:
        """The host makes a single-use invite link to a vacated seat: shown once, on this page."""
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        raw_seat = form.get("seat", "")
        svc = service()
        try:
            if not (raw_seat.isascii() and raw_seat.isdigit() and len(raw_seat) < 4):
                raise ServiceError("seat: expected a number")
            code, expires = await svc.invite(table_id, request_token(request, table_id), int(raw_seat))
            table = await svc.table(table_id)
        except ServiceError as exc:
            return error_page(exc)
        base = str(request.base_url).rstrip("/")
        answer = page(
            "invite.html",
            table=svc.info(table),
            game_name=table.game.spec.name,
            seat=int(raw_seat),
            link=f"{base}/t/{table_id}/invite/{code}",
            hours=round((expires - time.time()) / 3600),
        )
        answer.headers.update(PRIVATE)
        return answer

    @router.post("/t/{table_id}/start")
    async def start(table_id: str, request: Request) -> Response:
        try:
            await service().start_now(table_id, request_token(request, table_id))
        except ServiceError as exc:
            return error_page(exc)
        return see(f"/t/{table_id}")

    @router.post("/t/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> Response:
        svc = service()
        try:
            table = await svc.leave(table_id, request_token(request, table_id))
        except ServiceError as exc:
            return error_page(exc)
        response = see(f"/t/{table_id}")
        if table.status != "playing":
            await clear_seat_cookie(response, request, table_id, svc)  # in play it is kept: it takes the seat back
        return response

    @router.post("/t/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> Response:
        svc = service()
        token = request_token(request, table_id)
        try:
            old = await svc.table(table_id)
            seat = svc.claim(old, token).seat
            new = await svc.rematch(table_id, token)
            name, account_id = sitter(request, old.seats[seat].name)
            new, _seat, new_token = await svc.join(new.id, name, seat, account_id, as_host=True)
        except ServiceError as exc:
            return error_page(exc)
        response = see(f"/t/{new.id}")
        await set_seat_cookie(response, request, new.id, new_token, svc)
        return response

    app.include_router(router)
