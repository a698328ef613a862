"""The account pages: sign up, sign in and out, the leaderboard, a player's games and replays.

Forms post plainly and answer with a redirect; a refused form gets the error page with its status.
A replay is shown only for a finished table (its full record is public then): each step is
rendered with :func:`shadowtable.web.render.view_fragments` from the view message a seat (or a
spectator) would have had at that step.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from shadowtable.core.registry import available_games, game_class
from shadowtable.server.accounts import Accounts, clear_cookie
from shadowtable.server.clients import client_key
from shadowtable.server.errors import ServiceError
from shadowtable.server.limits import limits_of
from shadowtable.server.ratings import Ratings, result_words
from shadowtable.server.replays import FinishedTables
from shadowtable.server.service import TableService
from shadowtable.web.pages import error_page, page, see
from shadowtable.web.render import board_stylesheet, view_fragments


def game_names() -> dict[str, str]:
    return {game_id: game_class(game_id).SPEC.name for game_id in available_games()}


def when(at: float | None) -> str:
    if at is None:
        return ""
    return datetime.datetime.fromtimestamp(at, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def add_account_pages(app: FastAPI, service: Callable[[], TableService], accounts: Accounts, ratings: Ratings) -> None:
    """Mount ``/signup``, ``/login``, ``/logout``, ``/leaderboard``, ``/players/{name}`` and
    ``/replay/{table}`` on ``app``."""
    router = APIRouter(include_in_schema=False)

    async def form_of(request: Request) -> dict[str, str]:
        return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}

    @router.get("/signup", response_class=HTMLResponse)
    async def signup_page() -> HTMLResponse:
        return page("account.html", mode="signup", name="")

    @router.post("/signup")
    async def signup(request: Request) -> Response:
        form = await form_of(request)
        try:
            account = await limits_of(request).sign_up(
                request, lambda: accounts.sign_up(form.get("name", ""), form.get("password", ""))
            )
        except ServiceError as exc:
            return error_page(exc)
        response = see("/")
        accounts.set_cookie(response, account)
        return response

    @router.get("/login", response_class=HTMLResponse)
    async def login_page() -> HTMLResponse:
        return page("account.html", mode="login", name="")

    @router.post("/login")
    async def login(request: Request) -> Response:
        form = await form_of(request)
        try:
            name, password = form.get("name", ""), form.get("password", "")
            account = await limits_of(request).log_in(request, name, lambda: accounts.log_in(name, password))
        except ServiceError as exc:
            return error_page(exc)
        response = see("/")
        accounts.set_cookie(response, account)
        return response

    @router.post("/logout")
    async def logout() -> Response:
        response = see("/")
        clear_cookie(response)
        return response

    @router.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard(game: str | None = None, players: str | None = None) -> HTMLResponse:
        names = game_names()
        try:
            boards = await ratings.boards()
            if game is None and players is None and boards:
                game, count = boards[0]
            else:
                game = game or next(iter(names))
                if game not in names:
                    raise ServiceError("game: choose one of " + ", ".join(names))
                spec = game_class(game).SPEC
                try:
                    count = int(players) if players else spec.min_players
                except ValueError:
                    raise ServiceError("players: expected a number") from None
                if not spec.min_players <= count <= spec.max_players:
                    raise ServiceError(f"players: {spec.name} takes {spec.min_players} to {spec.max_players}")
            board = await ratings.leaderboard(game, count)
        except ServiceError as exc:
            return error_page(exc)
        tabs = sorted({*boards, (game, count)})
        return page(
            "leaderboard.html",
            names=names,
            game=game,
            players=count,
            tabs=tabs,
            board=[{"rank": i + 1, **rated.to_json()} for i, rated in enumerate(board)],
        )

    @router.get("/players/{name:path}", response_class=HTMLResponse)
    async def player(name: str) -> HTMLResponse:
        try:
            account = await accounts.by_name(name)
            games = await ratings.history(account.id)
        except ServiceError as exc:
            return error_page(exc)
        for played in games:
            played["date"] = when(played["finished_at"])
        return page("player.html", player=account.name, games=games, names=game_names())

    @router.get("/replay/{table_id}", response_class=HTMLResponse)
    async def replay(table_id: str, request: Request, seat: str = "", step: str = "0") -> HTMLResponse:
        finished: FinishedTables = request.app.state.finished
        try:
            await limits_of(request).hit("replays", client_key(request))
            done = await finished.get(table_id, "a replay is shown once the game is over")
            players = done.game.players
            if seat in {"", "spectator"}:
                audience: int | None = None
            elif seat.isascii() and seat.isdigit() and len(seat) < 4 and int(seat) < players:
                audience = int(seat)
            else:
                raise ServiceError(f"seat: a number from 0 to {players - 1}, or none to watch")
            last = len(done.rows)
            if step == "end":
                k = last
            elif step.isascii() and step.isdigit() and len(step) < 8 and int(step) <= last:
                k = int(step)
            else:
                raise ServiceError(f"step: a number from 0 to {last}")
            message = await done.message(audience, k)
        except ServiceError as exc:
            return error_page(exc)
        game = done.game
        info = done.info
        shown = {**info, "status": "over" if k == last else "playing"}
        fragments = view_fragments(game, message, shown)
        returns = info["returns"] or []
        results = [
            {"name": s["name"], "seat": s["seat"], "result": result_words(returns, s["seat"]) if returns else ""}
            for s in info["seats"]
        ]
        base = f"/replay/{quote(table_id)}?" + ("" if audience is None else f"seat={audience}&")
        return page(
            "replay.html",
            table=info,
            game_name=game.spec.name,
            seat=audience,
            step=k,
            last=last,
            links={
                "first": f"{base}step=0",
                "prev": f"{base}step={max(0, k - 1)}",
                "next": f"{base}step={min(last, k + 1)}",
                "last": f"{base}step={last}",
            },
            views=[{"label": "Spectator", "href": f"/replay/{quote(table_id)}?step={k}", "current": audience is None}]
            + [
                {
                    "label": f"Seat {s['seat']}: {s['name']}",
                    "href": f"/replay/{quote(table_id)}?seat={s['seat']}&step={k}",
                    "current": audience == s["seat"],
                }
                for s in info["seats"]
            ],
            results=results,
            fragments=fragments,
            stylesheet=board_stylesheet(type(game)),
        )

    app.include_router(router)
