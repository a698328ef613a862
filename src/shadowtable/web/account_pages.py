"""The account pages: sign up, sign in and out, change or reset the password, the leaderboard, a
player's games and replays.

Forms post plainly and answer with a redirect; a refused sign-up or sign-in gets its form again with
the error and the name typed, any other refused form the error page, each with its status
(these are :class:`~shadowtable.web.responses.PageRoute` routes).  A replay is shown only for a
finished table (its full record is public then): each step is rendered with
:func:`shadowtable.web.render.view_fragments` from the view message a seat (or a spectator) would
have had at that step.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from shadowtable.core.registry import available_games, game_class
from shadowtable.core.wording import NamedResult
from shadowtable.server.analysis_jobs import NOT_OVER, AnalysisQueue
from shadowtable.server.clients import client_key
from shadowtable.server.dependencies import (
    AccountsDep,
    CurrentAccount,
    FinishedDep,
    LimitsDep,
    NotificationsDep,
    RatingsDep,
)
from shadowtable.server.errors import ServiceError, Unavailable
from shadowtable.server.ratings import Ratings, result_words
from shadowtable.server.replays import Finished
from shadowtable.web.forms import form_of
from shadowtable.web.render import board_stylesheet, view_fragments
from shadowtable.web.replay_analysis import analysis_view, objective_names_of
from shadowtable.web.responses import PageRoute, PrivatePageRoute, page, see

router = APIRouter(include_in_schema=False, route_class=PageRoute)
private = APIRouter(include_in_schema=False, route_class=PrivatePageRoute)
"""The pages of a password reset code (never cached, never referred)."""


def game_names() -> dict[str, str]:
    return {game_id: game_class(game_id).SPEC.name for game_id in available_games()}


def when(at: float | None) -> str:
    if at is None:
        return ""
    return datetime.datetime.fromtimestamp(at, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


@router.get("/signup", response_class=HTMLResponse)
async def signup_page() -> HTMLResponse:
    return page("account.html", mode="signup", name="", error="")


NAME_SHOWN = 32
"""The most characters of a refused name the form shows again (a name's limit)."""


def form_refused(mode: str, name: str, refusal: ServiceError) -> HTMLResponse:
    """The sign-up or sign-in form again, saying why it was refused and keeping the name typed,
    with the refusal's status and headers (a retry hint)."""
    answer = page("account.html", status_code=refusal.status, mode=mode, name=name[:NAME_SHOWN], error=str(refusal))
    answer.headers.update(refusal.headers())
    return answer


@router.post("/signup")
async def signup(request: Request, accounts: AccountsDep, limits: LimitsDep) -> Response:
    form = await form_of(request)
    name = form.get("name", "")
    try:
        account = await limits.sign_up(request, lambda: accounts.sign_up(name, form.get("password", "")))
    except ServiceError as refusal:
        return form_refused("signup", name, refusal)
    response = see("/")
    await accounts.sign_in(response, account, request)
    return response


@router.get("/login", response_class=HTMLResponse)
async def login_page() -> HTMLResponse:
    return page("account.html", mode="login", name="", error="")


@router.post("/login")
async def login(request: Request, accounts: AccountsDep, limits: LimitsDep) -> Response:
    form = await form_of(request)
    name, password = form.get("name", ""), form.get("password", "")
    try:
        account = await limits.log_in(request, name, lambda: accounts.log_in(name, password))
    except ServiceError as refusal:
        return form_refused("login", name, refusal)
    response = see("/")
    await accounts.sign_in(response, account, request)
    return response


@router.post("/logout")
async def logout(request: Request, accounts: AccountsDep) -> Response:
    response = see("/")
    await accounts.sign_out(request, response)
    return response


@router.get("/account/password", response_class=HTMLResponse)
async def password_page(account: CurrentAccount, changed: str = "") -> Response:
    if account is None:
        return see("/login")
    return page("password.html", mode="change", name=account.name, changed=changed == "yes")


@router.post("/account/password")
async def change_password(request: Request, accounts: AccountsDep, account: CurrentAccount) -> Response:
    form = await form_of(request)
    changed = await accounts.change_password(account, form.get("current_password", ""), form.get("new_password", ""))
    response = see("/account/password?changed=yes")
    await accounts.sign_in(response, changed, request)
    return response


@router.get("/account/notifications", response_class=HTMLResponse)
async def notifications_page(account: CurrentAccount, notifications: NotificationsDep, saved: str = "") -> Response:
    if account is None:
        return see("/login")
    settings = await notifications.settings(account.id)
    mail = notifications.config.mail_problem() is None
    shown = "Saved." if saved == "yes" else ""
    return page(
        "notifications.html", mode="settings", name=account.name, settings=settings, mail_available=mail, saved=shown
    )


@router.post("/account/notifications")
async def change_notifications(request: Request, account: CurrentAccount, notifications: NotificationsDep) -> Response:
    form = await form_of(request)
    changes: dict[str, Any] = {"webhook": form.get("webhook", "")}
    if notifications.config.mail_problem() is None:
        changes["email"] = form.get("email", "")
        current = await notifications.settings(account.id) if account else None
        if current is not None and current.email_confirmed and current.email == changes["email"].strip():
            changes["email_on"] = form.get("email_on") == "on"
    await notifications.change(account.id if account else None, **changes)
    return see("/account/notifications?saved=yes")


@private.get("/account/email/confirm", response_class=HTMLResponse)
async def confirm_email(notifications: NotificationsDep, token: str = "") -> HTMLResponse:
    """The page a confirmation link opens: the address is confirmed (the token is the proof)."""
    claim = await notifications.confirm(token)
    return page("notifications.html", mode="confirmed", email=claim.email)


@private.get("/notifications/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(notifications: NotificationsDep, token: str = "") -> HTMLResponse:
    """The page an unsubscribe link opens: one button (a link opened by a mail scanner changes nothing)."""
    claim = notifications.links_claim(token)
    return page("notifications.html", mode="unsubscribe", email=claim.email, token=token)


@private.post("/notifications/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(notifications: NotificationsDep, token: str = "") -> HTMLResponse:
    """One-click unsubscribe (RFC 8058: the mail client posts ``List-Unsubscribe=One-Click``)."""
    claim = await notifications.unsubscribe(token)
    return page("notifications.html", mode="unsubscribed", email=claim.email)


@private.get("/account/reset/{code}", response_class=HTMLResponse)
async def reset_page(code: str, accounts: AccountsDep) -> HTMLResponse:
    """The form a reset link opens (the code stays in the address: never cached, never referred)."""
    account = await accounts.reset_account(code)
    return page("password.html", mode="reset", name=account.name, code=code, changed=False)


@private.post("/account/reset/{code}")
async def reset(code: str, request: Request, accounts: AccountsDep) -> Response:
    form = await form_of(request)
    account = await accounts.reset_password(code, form.get("new_password", ""))
    response = see("/account/password?changed=yes")
    await accounts.sign_in(response, account, request)
    return response


def players_of(game: str, players: str | None) -> int:
    """The player count a leaderboard is asked for (the game's least by default)."""
    spec = game_class(game).SPEC
    try:
        count = int(players) if players else spec.min_players
    except ValueError:
        raise ServiceError("players: expected a number") from None
    if not spec.min_players <= count <= spec.max_players:
        raise ServiceError(f"players: {spec.name} takes {spec.min_players} to {spec.max_players}")
    return count


async def board_asked(
    ratings: Ratings, game: str | None, players: str | None
) -> tuple[str, int, list[tuple[str, int]]]:
    """The game and player count of the leaderboard shown (by default the first board there is),
    and every board there is."""
    boards = await ratings.boards()
    if game is None and players is None and boards:
        first, count = boards[0]
        return first, count, boards
    names = game_names()
    game = game or next(iter(names))
    if game not in names:
        raise ServiceError("game: choose one of " + ", ".join(names))
    return game, players_of(game, players), boards


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(ratings: RatingsDep, game: str | None = None, players: str | None = None) -> HTMLResponse:
    shown, count, boards = await board_asked(ratings, game, players)
    board = await ratings.leaderboard(shown, count)
    return page(
        "leaderboard.html",
        names=game_names(),
        game=shown,
        players=count,
        tabs=sorted({*boards, (shown, count)}),
        board=[{"rank": i + 1, **rated.to_json()} for i, rated in enumerate(board)],
    )


@router.get("/players/{name:path}", response_class=HTMLResponse)
async def player(name: str, accounts: AccountsDep, ratings: RatingsDep) -> HTMLResponse:
    account = await accounts.by_name(name)
    games = await ratings.history(account.id)
    for played in games:
        played["date"] = when(played["finished_at"])
    return page("player.html", player=account.name, games=games, names=game_names())


def audience_of(seat: str, players: int) -> int | None:
    """The seat a replay is seen from (``None``: a spectator)."""
    if seat in {"", "spectator"}:
        return None
    if seat.isascii() and seat.isdigit() and len(seat) < 4 and int(seat) < players:
        return int(seat)
    raise ServiceError(f"seat: a number from 0 to {players - 1}, or none to watch")


def step_of(step: str, last: int) -> int:
    """The step a replay shows (``end``: the last)."""
    if step == "end":
        return last
    if step.isascii() and step.isdigit() and len(step) < 8 and int(step) <= last:
        return int(step)
    raise ServiceError(f"step: a number from 0 to {last}")


def replay_href(table_id: str, audience: int | None, k: int, reveal: bool = False) -> str:
    """The address of one replay page: the seat (none: a spectator), the step and the reveal."""
    seat = "" if audience is None else f"seat={audience}&"
    return f"/replay/{quote(table_id)}?{seat}step={k}" + ("&reveal=1" if reveal else "")


def replay_links(
    table_id: str, info: dict[str, Any], audience: int | None, k: int, last: int, reveal: bool = False
) -> dict[str, Any]:
    """A replay page's links: to the first, previous, next and last step, to each seat's view, and
    to the same step with the reveal switched."""
    steps = {"first": 0, "prev": max(0, k - 1), "next": min(last, k + 1), "last": last}
    spectator = {"label": "Spectator", "href": replay_href(table_id, None, k, reveal), "current": audience is None}
    seats = [
        {
            "label": f"As {s['name']}",
            "href": replay_href(table_id, s["seat"], k, reveal),
            "current": audience == s["seat"],
        }
        for s in info["seats"]
    ]
    return {
        "links": {name: replay_href(table_id, audience, at, reveal) for name, at in steps.items()},
        "views": [spectator, *seats],
        "reveal_href": replay_href(table_id, audience, k, not reveal),
        "self_href": replay_href(table_id, audience, k, reveal),
    }


def replay_results(info: dict[str, Any], results: Sequence[NamedResult] = ()) -> list[dict[str, Any]]:
    """Each seat's name, result and why: the game's words when given, else read from the returns."""
    if results:
        return [{**result} for result in results]
    returns = info["returns"] or []
    return [
        {"name": s["name"], "seat": s["seat"], "result": result_words(returns, s["seat"]) if returns else "", "why": ""}
        for s in info["seats"]
    ]


def reveal_of(reveal: str) -> bool:
    """Whether the replay shows every seat's view (``1``) or one (``0`` or nothing)."""
    if reveal in {"", "0"}:
        return False
    if reveal == "1":
        return True
    raise ServiceError("reveal: 1 to show every seat's view, 0 (or nothing) to show one")


async def revealed_views(done: Finished, table_id: str, k: int, shown: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat's own view at step ``k`` of a finished game: its name and what it held and knew
    (the panel of its view)."""
    views = []
    for s in done.info["seats"]:
        message = await done.message(s["seat"], k)
        fragments = view_fragments(done.game, message, shown)
        views.append({"seat": s["seat"], "name": s["name"], "panel": fragments["panel"], "goal": fragments["goal"]})
    return views


async def analysis_state(request: Request, table_id: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Where the analysis of finished table ``table_id`` stands, and its stored result once done
    (``off``: this server offers none)."""
    analyses: AnalysisQueue | None = getattr(request.app.state, "analyses", None)
    if analyses is None or analyses.config.analysis_workers <= 0:
        return {"status": "off", "progress": 0.0, "error": None}, None
    try:
        status = await analyses.status(table_id)
        result = await analyses.result(table_id) if status["status"] == "done" else None
    except Unavailable:
        return {"status": "off", "progress": 0.0, "error": None}, None
    return status, result


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def replay(
    table_id: str,
    request: Request,
    limits: LimitsDep,
    finished: FinishedDep,
    seat: str = "",
    step: str = "0",
    reveal: str = "",
) -> HTMLResponse:
    """Step ``step`` of a finished game from ``seat``'s view (none: a spectator's), every seat's
    view side by side with ``reveal=1``, and the game's analysis once asked for."""
    await limits.hit("replays", client_key(request))
    done = await finished.get(table_id, "a replay is shown once the game is over")
    audience = audience_of(seat, done.game.players)
    k = step_of(step, len(done.rows))
    revealing = reveal_of(reveal)
    message = await done.message(audience, k)
    results = await done.results()
    game, info, last = done.game, done.info, len(done.rows)
    shown = {**info, "status": "over" if k == last else "playing"}
    names = [s["name"] for s in info["seats"]]
    status, result = await analysis_state(request, table_id)
    analysis = analysis_view(status, result, names, audience, k, last, objective_names_of(game.spec.id, game))
    links = replay_links(table_id, info, audience, k, last, revealing)
    return page(
        "replay.html",
        table=info,
        game_name=game.spec.name,
        seat=audience,
        step=k,
        last=last,
        reveal=revealing,
        revealed=await revealed_views(done, table_id, k, shown) if revealing else [],
        analysis=analysis,
        step_href=lambda at: replay_href(table_id, audience, at, revealing),
        **links,
        results=replay_results(info, results),
        fragments=view_fragments(game, message, shown),
        stylesheet=board_stylesheet(type(game)),
    )


@router.post("/replay/{table_id}/analyse")
async def analyse_from_replay(table_id: str, request: Request, limits: LimitsDep) -> Response:
    """The replay page's "Analyse this game" without JavaScript: queue the analysis of the
    finished table, then back to the same replay page, which says where the analysis stands."""
    await limits.hit("analyses", client_key(request))
    form = await form_of(request)
    analyses: AnalysisQueue = request.app.state.analyses
    await analyses.request(table_id)
    audience, k, revealing = form.get("seat", ""), form.get("step", "0"), form.get("reveal", "") == "1"
    done = await analyses.finished.get(table_id, NOT_OVER)
    back = replay_href(table_id, audience_of(audience, done.game.players), step_of(k, len(done.rows)), revealing)
    return see(back + "#analysis")


router.include_router(private)
