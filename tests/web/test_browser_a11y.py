"""Accessibility of the pages in a real browser: the contrast of every visible text computed from
the rendered styles (4.5:1, 3:1 for large text) over the lobby, a table of each title in play with
bots, at 1280 px and on a 390 px phone (where board text is at least 11 CSS px), and the end
screen; one ``<h1>`` and the favicon on every page; keyboard focus on each new decision (never
taken from the chat); the turn alerts the player turns on."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from web.driver import Player, create_table, new_player, play_until_over, random_policy

pytestmark = pytest.mark.browser

CONTRAST_JS = (Path(__file__).parent / "a11y" / "contrast.js").read_text()
PHONE = {"width": 390, "height": 844}
BOARD_TEXT_MIN_PX = 11
SHOTS_FOLDER = "SHADOWTABLE_SHOTS"
"""Where the screenshots of the judged states go, to be looked at (default: the test's temporary folder)."""


def contrast_failures(page: Any, state: str, *, board_min_px: float | None = None) -> list[str]:
    """What fails on ``page`` now (every ``<details>`` opened first, so their text is judged too)."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    found = page.evaluate(CONTRAST_JS)
    assert found["checked"] > 10, f"{state}: hardly any text was judged: {found}"
    problems = [f"{state}: {f}" for f in found["failures"]]
    smallest = found["smallestBoard"]
    if board_min_px is not None and smallest is not None and smallest["size"] < board_min_px:
        problems.append(f"{state}: board text of {smallest['size']} px: {smallest['text']!r}")
    return problems


def page_basics(page: Any) -> None:
    """One ``<h1>``, and the favicon linked."""
    assert page.locator("h1").count() == 1, page.url
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon and icon.startswith("/static/favicon"), icon
    assert page.request.get(page.url.split("/t/")[0].rstrip("/") + icon.split("?")[0]).ok


def wait_for_decision(player: Player) -> None:
    player.page.wait_for_function("() => !!document.body.dataset.turn || document.body.dataset.over === '1'")


def judged_states(player: Player, game: str, shots: Path) -> list[str]:
    """Play a while with bots, then judge the table at 1280 px and at 390 px."""
    play_until_over([player], {player.name: random_policy}, clicks=12)
    wait_for_decision(player)
    page = player.page
    page_basics(page)
    problems = contrast_failures(page, f"{game} in play")
    page.screenshot(path=str(shots / f"{game}-desktop.png"), full_page=False)
    page.set_viewport_size(PHONE)
    problems += contrast_failures(page, f"{game} in play, phone", board_min_px=BOARD_TEXT_MIN_PX)
    page.screenshot(path=str(shots / f"{game}-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    return problems


def judged_end(player: Player, game: str, shots: Path) -> list[str]:
    """Play to the end, then judge the end screen."""
    play_until_over([player], {player.name: random_policy})
    player.page.wait_for_selector("#over:not([hidden])")
    page_basics(player.page)
    problems = contrast_failures(player.page, f"{game} over")
    player.page.screenshot(path=str(shots / f"{game}-over.png"), full_page=True)
    return problems


@pytest.mark.parametrize(
    ("game", "players", "options", "to_the_end"),
    [
        # The Shadow Planet's end screen is judged in every ordinary run by test_browser_end.py,
        # which plays it to the end anyway; here in the slow run only.
        pytest.param("shadow-planet", 3, {}, False, id="shadow-planet-3-in-play"),
        pytest.param("shadow-planet", 3, {}, True, id="shadow-planet-3-to-the-end", marks=pytest.mark.slow),
        pytest.param("shadowlord", 2, {"turn_cap": "6"}, True, id="shadowlord-2-to-the-end"),
    ],
)
def test_every_text_is_readable_from_the_lobby_to_the_end(
    browser: Any,
    live_server: Any,
    tmp_path: Path,
    game: str,
    players: int,
    options: dict[str, str],
    to_the_end: bool,
) -> None:
    shots = Path(os.environ.get(SHOTS_FOLDER, tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    server = live_server()
    player = new_player(browser, "seat0", seed=11, viewport={"width": 1280, "height": 800})
    try:
        player.page.goto(server.url + "/")
        page_basics(player.page)
        problems = contrast_failures(player.page, "lobby")
        seats = {i: ("bot:heuristic" if i % 2 else "bot:random") for i in range(1, players)}
        create_table(player.page, server.url, game=game, players=players, seats=seats, options=options)
        problems += judged_states(player, game, shots)
        if to_the_end:
            problems += judged_end(player, game, shots)
        assert not problems, "\n".join(problems)
    finally:
        player.page.context.close()


def test_a_table_waiting_for_players_is_readable(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=14, viewport={"width": 1280, "height": 800})
    try:
        create_table(
            player.page, server.url, game="shadowlord", players=3, seats={1: "human", 2: "bot:random"}, options={}
        )
        player.page.wait_for_selector("#conn.ok")
        page_basics(player.page)
        problems = contrast_failures(player.page, "waiting for players")
        player.page.set_viewport_size(PHONE)
        problems += contrast_failures(player.page, "waiting for players, phone")
        assert not problems, "\n".join(problems)
    finally:
        player.page.context.close()


def _decision_focus(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => ({first: document.activeElement === document.querySelector(
                       '#frag-actions .choices > li > button, #frag-actions .choices > li > details > summary'),
                   tag: document.activeElement.tagName, name: document.activeElement.getAttribute('name')})"""
    )
    return found


def _move_by_script(page: Any) -> str:
    """Play the first choice without touching the focus (as a click from elsewhere would); the turn."""
    turn: str = page.evaluate(
        "() => { const t = document.body.dataset.turn;"
        " document.querySelector('#frag-actions [data-act]').click(); return t; }"
    )
    return turn


def _next_decision(page: Any, turn: str) -> bool:
    """Wait for a decision after ``turn``; whether one came (not the end)."""
    page.wait_for_function(
        "(t) => (document.body.dataset.turn && document.body.dataset.turn !== t) || document.body.dataset.over === '1'",
        arg=turn,
    )
    return not page.evaluate("() => document.body.dataset.over === '1'")


def test_focus_lands_on_each_new_decision_but_never_leaves_the_chat(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=12)
    page = player.page
    page.set_default_timeout(30_000)
    create_table(page, server.url, game="shadowlord", players=2, seats={1: "bot:random"}, options={})
    try:
        landed = 0
        for _ in range(4):
            wait_for_decision(player)
            choices = player.choices()
            player.click(choices[-1][0], on_board=False)  # the last choice: focus is away from the first
            if not _next_decision(page, ""):
                break
            focus = _decision_focus(page)
            assert focus["first"], f"focus went to {focus} after a move, not to the new decision's first choice"
            landed += 1
        assert landed >= 2
        page.click("#tab-chat")
        page.focus("#chat-form input[name=text]")
        page.keyboard.type("hello")
        if _next_decision(page, _move_by_script(page)):
            assert _decision_focus(page)["name"] == "text", "focus was taken from the chat"
            assert page.input_value("#chat-form input[name=text]") == "hello"
    finally:
        page.context.close()


RECORD_ALERTS = """
window.__alerts = {notes: [], tones: 0};
window.__hidden = false;
Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) { super(title, options); window.__alerts.notes.push(title); }
};
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__alerts.tones += 1; return oscillator.call(this); };
"""


def test_turn_alerts_are_off_until_chosen_and_then_sound_and_notify(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=13)
    page = player.page
    page.set_default_timeout(30_000)
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.context.add_init_script(RECORD_ALERTS)
    create_table(page, server.url, game="shadowlord", players=2, seats={1: "bot:random"}, options={})
    try:
        wait_for_decision(player)
        assert page.get_attribute("#favicon", "href") == "/static/favicon-turn.svg"
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        turn = _move_by_script(page)
        assert _next_decision(page, turn)
        assert page.evaluate("() => window.__alerts") == {"notes": [], "tones": 0}  # nothing unless chosen
        page.click("#sound-toggle")
        page.click("#notify-toggle")
        assert page.get_attribute("#notify-toggle", "aria-pressed") == "true"
        page.evaluate("() => { window.__hidden = true; }")
        assert _next_decision(page, _move_by_script(page))
        alerts = page.evaluate("() => window.__alerts")
        assert alerts["tones"] > 0 and len(alerts["notes"]) == 1 and alerts["notes"][0].startswith("Your move")
        page.reload()
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"  # remembered
    finally:
        page.context.close()
