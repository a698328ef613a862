"""Learn to play: ``/learn`` (choose a title) and ``/learn/{game_id}``, a guided first game against
bots on the title's prepared deal (:mod:`shadowtable.tutorial`).

Each browser's tutorial lives in the server process, found by the ``shadowtable_learn`` cookie, in
a bounded in-memory store (at most :data:`STORE_LIMIT` games, each dropped :data:`STORE_AGE_S`
after its last use); nothing is written to the database.  Every choice is a form post answered
with a redirect, so the pages work without scripts."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from shadowtable.core.errors import IllegalActionError
from shadowtable.core.registry import game_class
from shadowtable.server.errors import Conflict, NotFound
from shadowtable.tutorial import Tutorial, deal_for, deals
from shadowtable.web.forms import form_of
from shadowtable.web.render import board_renderer, board_stylesheet
from shadowtable.web.responses import PageRoute, page, see

LEARN_COOKIE = "shadowtable_learn"
STORE_LIMIT = 200
"""At most this many tutorial games are kept at once (the least recently used go first)."""
STORE_AGE_S = 3600.0
"""A tutorial game unused this long is dropped."""

router = APIRouter(include_in_schema=False, route_class=PageRoute)


class TutorialStore:
    """Tutorial games by ``(browser, game id)``: bounded in count and age."""

    def __init__(self, limit: int = STORE_LIMIT, age_s: float = STORE_AGE_S) -> None:
        self.limit, self.age_s = limit, age_s
        self._games: OrderedDict[tuple[str, str], tuple[Tutorial, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def get(self, browser: str, game_id: str, now: float | None = None) -> Tutorial | None:
        """The browser's tutorial of ``game_id``, if it is still kept."""
        now = time.monotonic() if now is None else now
        self.evict(now)
        found = self._games.get((browser, game_id))
        if found is None:
            return None
        self._games[(browser, game_id)] = (found[0], now)
        self._games.move_to_end((browser, game_id))
        return found[0]

    def put(self, browser: str, game_id: str, tutorial: Tutorial, now: float | None = None) -> None:
        """Keep ``tutorial`` as the browser's game of ``game_id``."""
        now = time.monotonic() if now is None else now
        self._games.pop((browser, game_id), None)
        self._games[(browser, game_id)] = (tutorial, now)
        self.evict(now)

    def evict(self, now: float) -> None:
        """Drop the games unused for :attr:`age_s`, then the oldest beyond :attr:`limit`."""
        for key, (_tutorial, used) in list(self._games.items()):
            if now - used > self.age_s:
                del self._games[key]
        while len(self._games) > self.limit:
            self._games.popitem(last=False)


def store_of(request: Request) -> TutorialStore:
    """The application's tutorial store (made on first use)."""
    state = request.app.state
    if not hasattr(state, "tutorials"):
        state.tutorials = TutorialStore()
    store: TutorialStore = state.tutorials
    return store


def browser_of(request: Request) -> str | None:
    """The browser's tutorial id from its cookie, if it has a well-formed one."""
    value = request.cookies.get(LEARN_COOKIE, "")
    return value if 16 <= len(value) <= 64 and value.replace("-", "").replace("_", "").isalnum() else None


def remember_browser(response: Response, browser: str) -> None:
    """Set the browser's tutorial cookie (the security middleware marks it ``Secure`` where due)."""
    response.set_cookie(LEARN_COOKIE, browser, httponly=True, samesite="lax", path="/learn")


def checked_game(game_id: str) -> str:
    if game_id not in deals():
        raise NotFound(f"no tutorial for {game_id!r}")
    return game_id


def board_html(tutorial: Tutorial) -> dict[str, Any]:
    """The compact board of the newcomer's view: the game's web board, without its clickable
    places (the choices are the coach's buttons)."""
    presence = [{"seat": seat, "name": name} for seat, name in enumerate(tutorial.names)]
    message = tutorial.view().to_json(presence=presence)
    message.update(legal=None, groups=None)
    game = tutorial.table.game
    board = board_renderer(type(game))(game, message)
    return {"board": board.board, "panel": board.panel, "goal": board.goal, "stylesheet": board_stylesheet(type(game))}


@router.get("/learn", response_class=HTMLResponse)
async def learn() -> HTMLResponse:
    """Choose a title to learn."""
    titles = [{"id": gid, "name": game_class(gid).SPEC.name, "why": deal.why} for gid, deal in deals().items()]
    return page("learn.html", titles=titles)


@router.get("/learn/{game_id}", response_class=HTMLResponse)
async def learn_table(game_id: str, request: Request) -> Response:
    """The tutorial game of this browser (a new one on the prepared deal if it has none)."""
    game_id = checked_game(game_id)
    store = store_of(request)
    browser = browser_of(request) or secrets.token_urlsafe(18)
    tutorial = store.get(browser, game_id)
    if tutorial is None:
        tutorial = Tutorial(deal_for(game_id))
        store.put(browser, game_id, tutorial)
    answer = page(
        "learn_table.html",
        game_id=game_id,
        game_name=tutorial.table.game.spec.name,
        coaching=tutorial.coaching(),
        decisions=tutorial.decisions,
        chosen=tutorial.chosen,
        names=tutorial.names,
        log=tutorial.coach.log_lines(tutorial.table.view(0)),
        **board_html(tutorial),
    )
    answer.headers["Cache-Control"] = "no-store"
    remember_browser(answer, browser)
    return answer


@router.post("/learn/{game_id}")
async def learn_choose(game_id: str, request: Request) -> Response:
    """The newcomer's choice (``action``); the bots answer at once."""
    game_id = checked_game(game_id)
    browser = browser_of(request)
    tutorial = store_of(request).get(browser, game_id) if browser else None
    if tutorial is None:
        return see(f"/learn/{game_id}")  # expired or never started: a new tutorial
    form = await form_of(request)
    if form.get("turn") != str(tutorial.decisions):
        return see(f"/learn/{game_id}")  # a repeated post of a choice already taken
    try:
        tutorial.choose(int(form.get("action") or ""))
    except ValueError as exc:
        raise Conflict("choose one of the buttons") from exc
    except IllegalActionError as exc:
        raise Conflict(str(exc)) from exc
    return see(f"/learn/{game_id}")


@router.post("/learn/{game_id}/restart")
async def learn_restart(game_id: str, request: Request) -> Response:
    """Start the tutorial again on the same deal."""
    game_id = checked_game(game_id)
    browser = browser_of(request) or secrets.token_urlsafe(18)
    store_of(request).put(browser, game_id, Tutorial(deal_for(game_id)))
    answer = see(f"/learn/{game_id}")
    remember_browser(answer, browser)
    return answer
