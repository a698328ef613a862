"""Players in a real browser: each a Playwright context on the table page, choosing by clicking.

Every WebSocket frame a page receives and the text of its board at every version it shows are
kept, so the secrecy checks can compare them with the true game afterwards.

Every wait here is for something the page shows when the state is reached (the lobby form's part
for the chosen game and player count, the ``turn`` of a decision the page holds, the end of the
game); the timeouts only guard against a page that never gets there, and are generous so a loaded
machine is merely slow."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

Choice = tuple[int, str]
"""A legal action on the page: its id and its words."""
Policy = Callable[["Player", list[Choice]], int]
PAGE_S = 120
"""The most seconds one page is given to reach a state it waits for (a last-resort guard)."""


@dataclass
class Player:
    """One browser context at the table (a seat, or a spectator)."""

    page: Any
    name: str
    rng: random.Random
    frames: list[str] = field(default_factory=list)
    shown: dict[int, str] = field(default_factory=dict)
    """The text of the board and panel at each version the page showed."""
    clicked: list[str] = field(default_factory=list)
    board_clicks: int = 0

    def listen(self) -> None:
        def on_socket(socket: Any) -> None:
            socket.on(
                "framereceived", lambda payload: self.frames.append(payload) if isinstance(payload, str) else None
            )

        self.page.on("websocket", on_socket)

    # -- reading the page ---------------------------------------------------------------------------
    def dataset(self) -> dict[str, str]:
        result: dict[str, str] = self.page.evaluate("() => ({...document.body.dataset})")
        return result

    def over(self) -> bool:
        return bool(self.page.evaluate("() => document.body.dataset.over === '1'"))

    def choices(self) -> list[Choice]:
        found: list[list[Any]] = self.page.evaluate(
            """() => [...document.querySelectorAll('#frag-actions [data-act]')]
                   .map(b => [Number(b.dataset.act), b.textContent.trim()])"""
        )
        return [(int(a), str(t)) for a, t in found]

    def board_targets(self) -> list[int]:
        found: list[str] = self.page.evaluate(
            "() => [...document.querySelectorAll('#frag-board [data-act], #frag-panel [data-act]')]"
            ".map(e => e.dataset.act)"
        )
        return [int(a) for a in found]

    def remember_shown(self) -> None:
        """Keep the text of the board and panel now shown, under the page's version."""
        data = self.page.evaluate(
            """() => ({v: document.body.dataset.v,
                       text: ['frag-board', 'frag-panel']
                             .map(id => document.getElementById(id).textContent).join('')})"""
        )
        self.shown[int(data["v"] or 0)] = data["text"]

    # -- acting -----------------------------------------------------------------------------------
    def click(self, action: int, *, on_board: bool) -> None:
        if on_board:
            target = self.page.locator(f'#frag-board [data-act="{action}"], #frag-panel [data-act="{action}"]').first
            self.board_clicks += 1
        else:
            self.page.evaluate(
                'id => document.querySelector(`#frag-actions [data-act="${id}"]`)'
                "?.closest('details')?.setAttribute('open', '')",
                action,
            )
            target = self.page.locator(f'#frag-actions [data-act="{action}"]')
        target.click(timeout=PAGE_S * 1000)

    def step(self, policy: Policy) -> bool:
        """Take one decision if this page holds one; whether it did.

        The page's ``turn`` is empty from a click until the view that answers it (or a refusal's
        view) arrives, so a decision is never taken twice nor from a stale view."""
        if not self.dataset().get("turn", ""):
            return False
        choices = self.choices()
        if not choices:
            return False
        self.remember_shown()
        action = policy(self, choices)
        words = dict(choices)[action]
        on_board = action in self.board_targets() and self.rng.random() < 0.5
        self.click(action, on_board=on_board)
        self.clicked.append(words)
        return True

    def messages(self, kind: str | None = None) -> list[dict[str, Any]]:
        decoded = [json.loads(frame) for frame in self.frames]
        return [m for m in decoded if kind is None or m.get("t") == kind]


def random_policy(player: Player, choices: list[Choice]) -> int:
    return player.rng.choice(choices)[0]


def play_until_over(
    players: list[Player],
    policies: dict[str, Policy],
    *,
    limit_s: float = 900,
    clicks: int | None = None,
    until: Callable[[], bool] | None = None,
) -> int:
    """Click for every seated page until every page shows the end (or, given ``clicks``, until
    that many clicks are made; given ``until``, until it holds); the number of clicks.
    ``limit_s`` only guards against a game that never ends.

    Between two rounds where no page held a decision the pages are polled (one page cannot wait
    for another's event), each poll a look at what the pages show."""
    deadline = time.monotonic() + limit_s
    made = 0
    while not all(p.over() for p in players) and (clicks is None or made < clicks) and not (until and until()):
        if time.monotonic() > deadline:
            states = {p.name: p.dataset() for p in players}
            raise AssertionError(f"the game did not end within {limit_s} s ({made} clicks): {states}")
        moved = False
        for player in players:
            policy = policies.get(player.name)
            if policy is not None and player.step(policy):
                made += 1
                moved = True
        if not moved:
            players[0].page.wait_for_timeout(20)
    for player in players:
        player.remember_shown()
    return made


# -- pages ------------------------------------------------------------------------------------------
def create_table(
    page: Any,
    url: str,
    *,
    game: str,
    players: int,
    seats: dict[int, str],
    options: dict[str, str],
    clock: str = "",
    choices: dict[str, str] | None = None,
) -> str:
    """Create a table from the lobby form (``clock``: the seconds each player has, as the form
    offers them; "": no clock; ``choices``: other selects of the form by name, ``{"undo": "yes"}``);
    the table's id (the creator sits at seat 0)."""
    page.goto(url + "/")
    fill_form_field(page, "input[name=name]", "Ada")
    page.select_option("select[name=game]", game)
    wait_for_setup(page, game)
    page.select_option("select[name=players]", str(players))
    wait_for_setup(page, game, players)
    for seat, choice in seats.items():
        page.select_option(f"select[name=seat_{seat}]", choice)
    if options:
        page.click("details summary:has-text('Game options')")
        for name, value in options.items():
            page.fill(f"input[name=opt_{name}]", value)
    if clock:
        page.select_option("select[name=clock]", clock)
    for name, value in (choices or {}).items():
        page.select_option(f"select[name={name}]", value)
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/t/[A-Za-z0-9_-]+$"), timeout=PAGE_S * 1000)
    return str(page.url.rsplit("/", 1)[1])


def wait_for_setup(page: Any, game: str, players: int | None = None) -> None:
    """Wait until the lobby form's game-dependent part is the one for ``game`` (and ``players``)
    and no newer one is on its way (``#setup`` is marked while one loads)."""
    wanted = f"fieldset[data-game='{game}']" + ("" if players is None else f"[data-players='{players}']")
    try:
        page.wait_for_selector(f"#setup:not(.htmx-request) > {wanted}", state="attached", timeout=PAGE_S * 1000)
    except Exception as exc:
        shown = page.evaluate("() => document.getElementById('setup')?.outerHTML.slice(0, 300)")
        raise AssertionError(f"the lobby form never showed {wanted}; it shows {shown!r}") from exc


def fill_form_field(page: Any, selector: str, value: str) -> None:
    """Fill a field of a page just opened; on failure, say what the page showed instead."""
    try:
        page.wait_for_selector(selector, state="visible", timeout=PAGE_S * 1000)
    except Exception as exc:
        shown = page.evaluate("() => document.body ? document.body.innerText.slice(0, 400) : ''")
        raise AssertionError(f"no {selector} on {page.url}; the page shows: {shown!r}") from exc
    page.fill(selector, value)


def join_seat(page: Any, url: str, table: str, seat: int, name: str) -> None:
    page.goto(f"{url}/t/{table}/seat/{seat}")
    fill_form_field(page, "input[name=name]", name)
    page.click("button.primary")
    page.wait_for_url(re.compile(rf".*/t/{table}$"), timeout=PAGE_S * 1000)


CSP_VIOLATIONS: list[str] = []
"""What the browser refused under the pages' Content-Security-Policy (each test expects none)."""


def _watch_csp(message: Any) -> None:
    if "Content Security Policy" in message.text:
        CSP_VIOLATIONS.append(message.text)


def new_player(browser: Any, name: str, seed: int, viewport: dict[str, int] | None = None) -> Player:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_S * 1000)
    context.on("console", _watch_csp)
    player = Player(context.new_page(), name, random.Random(seed))
    player.listen()
    return player


# -- text of HTML, as a browser's textContent gives it ---------------------------------------------
class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(html: str) -> str:
    """The text content of ``html`` with every whitespace removed (for comparing with the DOM)."""
    parser = _Text()
    parser.feed(html)
    return squeeze("".join(parser.parts))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)
