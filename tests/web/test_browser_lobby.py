"""The lobby's creation form in a real browser: its game-dependent part (players, seats, options)
always ends up matching the game and player count chosen, whatever order the answers arrive in
and even when the choice is made before the page's scripts have loaded."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from web.driver import PAGE_S, new_player

pytestmark = pytest.mark.browser

SHOWS_SHADOWLORD_WITH_THREE = """() => {
    const players = document.querySelector('select[name=players]');
    return !!players && !!players.querySelector('option[value="2"]') && players.value === '3'
        && !!document.querySelector('select[name=seat_2]') && !document.querySelector('select[name=seat_3]');
}"""
"""The form's part for Shadowlord! with three players (only Shadowlord! offers two players)."""

COUNT_FORM_REQUESTS = """() => {
    window.formRequests = {started: new Set(), ended: new Set()};
    const mine = (event) => (event.detail.pathInfo?.requestPath || '').includes('/lobby/setup');
    document.addEventListener('htmx:beforeRequest', (e) => mine(e) && window.formRequests.started.add(e.detail.xhr));
    document.addEventListener('htmx:afterRequest', (e) => mine(e) && window.formRequests.ended.add(e.detail.xhr));
}"""
"""Keeps the requests for the form's part that the page started and those it is done with
(answered and swapped in, refused, or given up)."""
ENDED = "(n) => window.formRequests.started.size === n && window.formRequests.ended.size === n"


def _until(page: Any, done: Any, what: str) -> None:
    """Let the page's events in until ``done()`` (the routed requests are handled on the page's
    own events); ``PAGE_S`` guards against one that never comes."""
    for _ in range(PAGE_S * 50):
        if done():
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"{what} never happened")


def test_an_answer_for_an_earlier_choice_never_replaces_the_form_for_a_later_one(
    browser: Any, live_server: Any
) -> None:
    server = live_server()
    page = new_player(browser, "creator", seed=0).page
    held: list[Any] = []
    page.route("**/lobby/setup*", lambda route: held.append(route))  # each answer waits until the test lets it go
    try:
        page.goto(server.url + "/")
        page.evaluate(COUNT_FORM_REQUESTS)
        page.select_option("select[name=game]", "shadowlord")
        _until(page, lambda: len(held) == 1, "the request for the game's form")
        # chosen before the game's form came: the player count of the form still shown
        page.select_option("select[name=players]", "3")
        _until(page, lambda: len(held) == 2, "the request for the player count's form")
        held[1].continue_()  # the later choice's answer comes first ...
        page.wait_for_function("() => !!document.querySelector('select[name=players] option[value=\"2\"]')")
        with contextlib.suppress(Exception):  # the page may have given that request up already
            held[0].continue_()  # ... and the earlier one's after it
        page.wait_for_function(ENDED, arg=2)
        shown = page.evaluate("() => document.getElementById('setup').innerText")
        assert page.evaluate(SHOWS_SHADOWLORD_WITH_THREE), f"the form shows an earlier choice: {shown!r}"
    finally:
        page.context.close()


def test_a_game_chosen_before_the_scripts_load_still_gets_its_form(browser: Any, live_server: Any) -> None:
    server = live_server()
    page = new_player(browser, "creator", seed=0).page
    held: list[Any] = []
    page.route("**/static/vendor/htmx-*.js", lambda route: held.append(route))
    try:
        page.goto(server.url + "/", wait_until="commit")
        page.wait_for_selector("select[name=players]", state="attached")
        _until(page, lambda: len(held) == 1, "the request for the page's script")
        page.select_option("select[name=game]", "shadowlord")  # no script listens yet
        page.select_option("select[name=players]", "3")  # still the first game's part of the form
        held[0].continue_()
        page.wait_for_function(SHOWS_SHADOWLORD_WITH_THREE)
    finally:
        page.context.close()


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize(("game", "counts"), [("shadow-planet", (3, 4, 5)), ("shadowlord", (2, 3, 4))])
def test_the_form_fits_a_phone_for_every_player_count(
    browser: Any, live_server: Any, game: str, counts: tuple[int, ...]
) -> None:
    """The seat choices name each bot level with its time and rating, the longest texts of the
    page: at 390 px the form still fits without sideways scrolling."""
    server = live_server()
    page = new_player(browser, "phone", seed=0, viewport=PHONE).page
    try:
        page.goto(server.url + "/")
        page.select_option("select[name=game]", game)
        for players in counts:
            page.select_option("select[name=players]", str(players))
            page.wait_for_selector(
                f"#setup:not(.htmx-request) > fieldset[data-game='{game}'][data-players='{players}']", state="attached"
            )
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{game} with {players} players: the page is {width} px wide"
            seat = page.locator("select[name=seat_1]").bounding_box()
            assert seat is not None and seat["x"] + seat["width"] <= PHONE["width"]
    finally:
        page.context.close()
