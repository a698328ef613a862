"""The FastAPI application: the REST API, ``/healthz`` and one WebSocket per seat (``/ws/{table}``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Path, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketState

import shadowtable
from shadowtable.core.registry import available_games, game_class
from shadowtable.server.account_api import add_account_api
from shadowtable.server.accounts import AccountMiddleware, Accounts
from shadowtable.server.api_docs import add_api_docs
from shadowtable.server.bot_levels import LEVELS, SEAT_VALUES, plays
from shadowtable.server.bots import runner_for
from shadowtable.server.clients import client_key
from shadowtable.server.config import ServerConfig
from shadowtable.server.cookies import clear_seat_cookie, cookie_tokens, request_token, set_seat_cookie
from shadowtable.server.errors import Forbidden, NotFound, ServiceError, Unavailable
from shadowtable.server.limits import ClientLimits, per_client
from shadowtable.server.ratings import Ratings
from shadowtable.server.replays import FinishedTables
from shadowtable.server.security import SecurityMiddleware
from shadowtable.server.service import Connection, NewTable, TableService
from shadowtable.server.sizes import SizeLimits
from shadowtable.server.store import Store
from shadowtable.server.throttle import SocketCount
from shadowtable.server.tokens import SeatTokens
from shadowtable.web.account_pages import add_account_pages
from shadowtable.web.pages import add_pages, error_page
from shadowtable.web.render import view_fragments

log = logging.getLogger("shadowtable.server")

TableId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", max_length=32)]


# -- REST models ------------------------------------------------------------------------------------
class Problem(BaseModel):
    """An error: what was wrong, in words."""

    error: str


class ClockSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    initial_s: int = Field(ge=1, le=604800, description="time each seat starts with")
    bonus_s: int = Field(0, ge=0, le=604800, description="time added after each of the seat's moves")
    on_timeout: Literal["bot", "skip"] = Field(
        "bot", description="bot: a bot takes the seat over; skip: a bot makes that one move"
    )


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64, description="game id, e.g. shadow-planet or shadowlord")
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    seats: list[Annotated[str, Field(max_length=200, json_schema_extra={"enum": SEAT_VALUES})]] | None = Field(
        None,
        max_length=16,
        description="per seat: human or bot:<level> (a level of GET /api/games); default: every seat human",
    )
    clock: ClockSettings | None = None
    listed: bool = Field(True, description="shown in the lobby")
    name: str | None = Field(None, max_length=64, description="your name, if you sit at the table")
    sit: bool = Field(True, description="take the first human seat (the answer holds its token)")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=64)
    seat: int | None = Field(None, ge=0, le=15, description="the seat wanted; default: the first free one")
    move: bool = Field(
        False, description="you hold a seat of this table (Bearer token): give it up for this one (before the start)"
    )
    invite: str | None = Field(
        None, min_length=1, max_length=64, description="an invite code from the host: sit at the seat it names"
    )


class InviteSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=15, description="a seat a bot plays since its player left it")


class Invite(BaseModel):
    seat: int
    code: str = Field(description="single use; give it only to the player invited")
    url: str = Field(description="the page that seats the invited player (path on this server)")
    expires_at: float


class SeatOut(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    taken: bool
    bot_playing: bool
    vacated: bool = Field(description="left by its player in play: only they, or someone the host invites, take it")


class TableOut(BaseModel):
    id: str
    game: str
    version: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "over"]
    listed: bool
    clock: ClockSettings | None
    seats: list[SeatOut]
    created_at: float
    returns: list[float] | None
    rematch: str | None
    host_seat: int | None = Field(description="the creator's seat: its holder may invite to vacated seats")


class Seated(BaseModel):
    table: TableOut
    seat: int | None = Field(description="your seat (null: you did not sit)")
    token: str | None = Field(description="your seat token: send it in hello; keep it secret")


class GameOut(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]


class BotLevelOut(BaseModel):
    name: str = Field(description="seat it as bot:<name>")
    description: str
    plays: dict[str, list[int]] = Field(description="the games it plays here, each with its player counts")


class Catalogue(BaseModel):
    games: list[GameOut]
    bots: list[str] = Field(description="the bot levels a seat may be given")
    levels: list[BotLevelOut]


class Health(BaseModel):
    ok: bool
    database: bool
    version: str
    tables_in_memory: int


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
    503: {"model": Problem},
}
UNAVAILABLE: dict[int | str, dict[str, Any]] = {503: {"model": Problem}}
LIMITED: dict[int | str, dict[str, Any]] = {**ERRORS, 429: {"model": Problem, "description": "over a limit"}}


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server application for ``config`` (the defaults: SQLite in the data folder)."""
    config = config or ServerConfig()
    state: dict[str, TableService] = {}
    accounts, ratings = Accounts(), Ratings()
    limits = ClientLimits(config)
    finished = FinishedTables(lambda: state["service"], config.replay_cache)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(config.database_url(), sqlite_synchronous=config.sqlite_synchronous)
        await store.open()
        bots = _app.state.bots = runner_for(config)
        await bots.start()  # workers warm (games, bots, PyTorch) before the first request
        service = TableService(
            config, store, SeatTokens(config.signing_secret(), config.token_max_age_s), bots, view_fragments
        )
        state["service"] = service
        accounts.open(store, config.signing_secret())
        ratings.store = store
        service.on_over.append(ratings.table_over)
        await service.start()
        # what start-up made (modules, the app, the schema) lives as long as the server: kept out of
        # the garbage collector's full passes, which pause every connection while they run
        gc.collect()
        gc.freeze()
        await ratings.apply_pending()  # ends stored but not counted (the server stopped in between)
        resumed = asyncio.ensure_future(service.resume_all())
        log.info("server started", extra={"event": "start"})
        if config.ready_message:
            print(config.ready_message, flush=True)
        try:
            yield
        finally:
            resumed.cancel()
            await service.stop()
            await ratings.drain()
            await store.close()
            bots.close()
            log.info("server stopped", extra={"event": "stop"})

    app = FastAPI(
        title="ShadowTable",
        version=shadowtable.__version__,
        description="Online play of The Shadow Planet and Shadowlord!: tables, seats, bots and the game protocol.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    if config.api_docs:
        add_api_docs(app)

    def service() -> TableService:
        return state["service"]

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=exc.headers())

    @app.exception_handler(HTTPException)
    async def _http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        """The framework's own refusals (a body that is not JSON, an unknown path) as ``{"error": ...}``."""
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.get("/healthz", response_model=Health, responses={503: {"model": Health}})
    async def healthz() -> JSONResponse:
        """Whether the server and its database answer."""
        svc = service()
        database = await svc.store.ping()
        body = Health(ok=database, database=database, version=shadowtable.__version__, tables_in_memory=len(svc.tables))
        return JSONResponse(body.model_dump(), status_code=200 if database else 503)

    @app.get("/api/games", response_model=Catalogue)
    async def games() -> Catalogue:
        """The games and bots this server offers."""
        out = []
        for game_id in available_games():
            spec = game_class(game_id).SPEC
            out.append(
                GameOut(
                    id=spec.id,
                    name=spec.name,
                    min_players=spec.min_players,
                    max_players=spec.max_players,
                    options={o.name: o.default for o in spec.options},
                )
            )
        levels = [BotLevelOut(name=lv.name, description=lv.description, plays=plays(lv.name)) for lv in LEVELS.values()]
        return Catalogue(games=out, bots=[level.name for level in levels if level.plays], levels=levels)

    @app.get("/api/games/{game_id}/reference", responses=ERRORS)
    async def reference(game_id: Annotated[str, Path(max_length=64)], players: int = Query(ge=1, le=16)) -> Any:
        """The printed material of a game (cards, board, how each role wins): nothing secret."""
        from shadowtable.core.errors import ShadowTableError
        from shadowtable.core.registry import make

        try:
            return make(game_id, players=players).reference()
        except ShadowTableError as exc:
            raise ServiceError(str(exc)) from exc

    @app.get("/api/tables", response_model=list[TableOut], responses=UNAVAILABLE)
    async def lobby(
        status: Literal["open", "playing", "over"] = "open", limit: Annotated[int, Query(ge=1, le=200)] = 50
    ) -> list[dict[str, Any]]:
        """The lobby: listed tables, newest first (``open``: waiting for players)."""
        return await service().lobby(status, limit)

    @app.post("/api/tables", response_model=Seated, status_code=201, responses=LIMITED)
    async def create(body: CreateTable, request: Request, response: Response) -> dict[str, Any]:
        """Create a table; with ``sit`` you take its first human seat and get that seat's token
        (signed in: as your account, under its name)."""
        svc = service()
        account = accounts.current(request)
        if body.sit:
            await svc.seat_name(body.name, 0, account.id if account else None)  # checked before anything is created
        seats = body.seats if body.seats is not None else ["human"] * body.players
        clock = body.clock.model_dump() if body.clock is not None else None
        async with limits.creating(request, svc) as made:
            table = await svc.create(NewTable(body.game, body.players, body.options, seats, clock, body.listed))
            made(table.id)
        if body.sit and any(not s.taken for s in table.seats):
            name, account_id = (account.name, account.id) if account else (body.name, None)
            table, seat, token = await svc.join(table.id, name, None, account_id, as_host=True)
            await set_seat_cookie(response, request, table.id, token, svc)
            return {"table": svc.info(table), "seat": seat, "token": token}
        return {"table": svc.info(table), "seat": None, "token": None}

    @app.get("/api/tables/{table_id}", response_model=TableOut, responses=ERRORS)
    async def table_info(table_id: TableId) -> dict[str, Any]:
        """What anyone may know of a table."""
        svc = service()
        return svc.info(await svc.table(table_id))

    @app.post("/api/tables/{table_id}/join", response_model=Seated, responses=LIMITED)
    async def join(
        table_id: TableId,
        body: JoinTable,
        request: Request,
        response: Response,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Take a free seat, or with ``invite`` the vacated seat the host invited you to: the answer
        (and an HttpOnly cookie) holds the seat's token (signed in: the seat is your account's, under
        its name).  With the Bearer token of a seat you hold here, refused unless ``move``."""
        svc = service()
        account = accounts.current(request)
        name, account_id = (account.name, account.id) if account else (body.name, None)
        holder = request_token(request, table_id, authorization) if authorization else None
        async with limits.joining(request, svc) as took:
            table, seat, token = await svc.join(
                table_id, name, body.seat, account_id, holder=holder, move=body.move, invite=body.invite
            )
            took(table.id, seat, token)
        await set_seat_cookie(response, request, table.id, token, svc)
        return {"table": svc.info(table), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/return", response_model=Seated, responses=ERRORS)
    async def take_back(
        table_id: TableId, request: Request, response: Response, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Take back the seat you left in play, with the token you left with (valid again)."""
        svc = service()
        token = request_token(request, table_id, authorization)
        table, seat = await svc.take_back(table_id, token)
        assert token is not None
        await set_seat_cookie(response, request, table.id, token, svc)
        return {"table": svc.info(table), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/invite", response_model=Invite, responses=ERRORS)
    async def invite(
        table_id: TableId, body: InviteSeat, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The host's single-use invite to a seat a bot plays since its player left it (a newer
        invite to the seat replaces it)."""
        svc = service()
        code, expires = await svc.invite(table_id, request_token(request, table_id, authorization), body.seat)
        return {"seat": body.seat, "code": code, "url": f"/t/{table_id}/invite/{code}", "expires_at": expires}

    @app.post("/api/tables/{table_id}/leave", response_model=TableOut, responses=ERRORS)
    async def leave(
        table_id: TableId, request: Request, response: Response, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Give up your seat (its token is revoked; in play a bot takes it over)."""
        svc = service()
        table = await svc.leave(table_id, request_token(request, table_id, authorization))
        if table.status != "playing":
            await clear_seat_cookie(response, request, table.id, svc)  # in play it is kept: it takes the seat back
        return svc.info(table)

    @app.post("/api/tables/{table_id}/start", response_model=TableOut, responses=ERRORS)
    async def start(
        table_id: TableId, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Start now: bots take the seats nobody joined."""
        svc = service()
        return svc.info(await svc.start_now(table_id, request_token(request, table_id, authorization)))

    @app.post("/api/tables/{table_id}/rematch", response_model=TableOut, responses=ERRORS)
    async def rematch(
        table_id: TableId, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The rematch table of a finished game (join it to play again)."""
        svc = service()
        return svc.info(await svc.rematch(table_id, request_token(request, table_id, authorization)))

    @app.get("/api/tables/{table_id}/record", responses=LIMITED, dependencies=[per_client("replays")])
    async def record(table_id: TableId) -> JSONResponse:
        """The full game record of a finished table, for ``shadowtable replay`` and ``view``."""
        done = await finished.get(table_id, "the record is available once the game is over")
        return JSONResponse(
            done.record,
            headers={"Content-Disposition": f'attachment; filename="{done.record["game"]}-{table_id}.json"'},
        )

    sockets = SocketCount(config.sockets_per_client)

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        """One seat's (or a spectator's) connection: see ``docs/server.md`` for the protocol.
        Refusals come after the handshake, with a close code a page can tell apart."""
        await websocket.accept()
        if not _origin_allowed(websocket, config):
            await _refuse(websocket, 4403, "this page's origin may not connect to this server")
            return
        client = client_key(websocket)
        if not sockets.take(client):
            if sockets.first_refusal(client):
                log.warning("too many sockets", extra={"event": "ws_sockets", "client": client})
            await _refuse(websocket, 4429, f"too many connections from your address (at most {sockets.limit})")
            return
        try:
            await _serve_socket(websocket, service(), table_id)
        finally:
            sockets.give_back(client)

    async def _serve_socket(websocket: WebSocket, svc: TableService, table_id: str) -> None:
        try:
            table = await svc.table(table_id)
        except NotFound:
            await _refuse(websocket, 4404, "no such table")
            return
        except ServiceError as exc:
            await _refuse(websocket, 1013, str(exc)[:120])
            return
        connection = Connection(
            cookie_tokens(websocket, table_id), max_messages=config.ws_outbox_messages, max_bytes=config.ws_outbox_bytes
        )
        sender = asyncio.ensure_future(_send_loop(websocket, connection))

        def cut_off() -> None:
            sender.cancel()  # it may wait on a client that does not read: close without it
            closing.append(asyncio.ensure_future(_refuse(websocket, connection.close_code, connection.close_reason)))

        closing: list[asyncio.Future[None]] = []
        connection.on_cut_off = cut_off
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = message.get("text")
                if frame is None:
                    frame = message.get("bytes") or b""
                if not await svc.receive(table, connection, frame):
                    break
        except WebSocketDisconnect:
            pass
        except Unavailable:
            connection.push({"t": "notice", "text": "the server cannot reach its database: reconnect in a moment"})
        finally:
            svc.disconnect(table, connection)
            connection.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)
            for task in closing:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    code = connection.close_code if connection.greeted or connection.close_code != 1000 else 4403
                    await websocket.close(code=code, reason=connection.close_reason)

    app.state.accounts, app.state.ratings = accounts, ratings
    app.state.limits, app.state.finished = limits, finished
    add_account_api(app, accounts, ratings)
    add_pages(app, service, config, accounts)
    add_account_pages(app, service, accounts, ratings)
    app.add_middleware(AccountMiddleware, accounts=accounts)
    app.add_middleware(
        SecurityMiddleware,
        allowed_origins=config.allowed_origins,
        cookie_setting=config.secure_cookies,
        html_refusal=lambda why: error_page(Forbidden(why)),
    )
    app.add_middleware(SizeLimits, max_body=config.max_body, max_header=config.max_header)  # outermost
    return app


async def _send_loop(websocket: WebSocket, connection: Connection) -> None:
    while True:
        text = await connection.outbox.get()
        if text is None:
            await _refuse(websocket, connection.close_code, connection.close_reason)
            return
        try:
            await websocket.send_text(text)
        except Exception:  # noqa: BLE001 - the peer went away; the receive loop ends the connection
            return


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Close an accepted socket with ``code`` and ``reason`` (if it is still open)."""
    if websocket.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason.encode()[:120].decode(errors="ignore"))  # 123 bytes at most


def _origin_allowed(websocket: WebSocket, config: ServerConfig) -> bool:
    """No ``Origin`` (not a browser), the server's own origin, or one of the allowed ones."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in config.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    parts = urlsplit(origin)
    return parts.scheme in {"http", "https"} and parts.netloc == host
