"""Learn to play in a real browser (Debian's Chromium driven by Playwright): a newcomer walks each
tutorial to its end by clicking the coach's buttons, at desktop and phone width, every text at
least 4.5:1 (3:1 large) against its background, one ``<h1>`` and the favicon on every state."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from shadowtable.tutorial import deals
from web.driver import new_player
from web.test_browser_a11y import BOARD_TEXT_MIN_PX, contrast_failures

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def page_basics(page: Any, url: str) -> None:
    """One ``<h1>``, and the favicon linked and served."""
    assert page.locator("h1").count() == 1, page.url
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon and icon.startswith("/static/favicon"), icon
    assert page.request.get(url + icon.split("?")[0]).ok


def walk(page: Any, url: str, game_id: str, rng: random.Random) -> int:
    """Click varied choices from the first page of the tutorial to its end; the decisions made."""
    page.goto(f"{url}/learn/{game_id}")
    decisions = 0
    while True:
        assert page.locator("a", has_text="Leave the tutorial / start a real table").count() == 1
        buttons = page.locator(".learn-choices button")
        count = buttons.count()
        if count == 0:
            return decisions
        # ``autofocus`` is applied at the browser's next rendering update after load, not at once.
        # A function, not a bare expression: Playwright polls a bare one with ``eval``, which the
        # page's Content Security Policy (no ``unsafe-eval``) refuses.
        page.wait_for_function(
            "() => document.activeElement === document.querySelector('.learn-choices button')", timeout=10_000
        )
        assert page.inner_text("#coach-h").startswith("Your decision:")
        with page.expect_navigation():
            buttons.nth(rng.randrange(count)).click()
        decisions += 1


@pytest.mark.parametrize("game_id", sorted(deals()))
def test_a_newcomer_plays_each_tutorial_to_its_end_in_the_browser(browser: Any, live_server: Any, game_id: str) -> None:
    server = live_server()
    player = new_player(browser, "newcomer", seed=1)
    try:
        player.page.goto(server.url + "/")
        with player.page.expect_navigation():
            player.page.click("text=Learn to play")
        with player.page.expect_navigation():
            player.page.click(f"a[href='/learn/{game_id}']")
        started = time.monotonic()
        page_basics(player.page, server.url)
        assert contrast_failures(player.page, f"learn {game_id}: first decision") == []
        decisions = walk(player.page, server.url, game_id, random.Random(5))
        assert decisions > 10 and time.monotonic() - started < 300
        page_basics(player.page, server.url)
        assert contrast_failures(player.page, f"learn {game_id}: the end") == []
        assert player.page.inner_text("#coach-h").startswith(("You won", "You lost", "Draw", "Nobody won"))
        assert player.page.locator("button", has_text="play the tutorial again").count() == 1
    finally:
        player.page.context.close()


def test_the_tutorial_fits_a_phone_without_sideways_scrolling(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "phone", seed=2, viewport=PHONE)
    try:
        player.page.goto(f"{server.url}/learn/shadow-planet")
        page_basics(player.page, server.url)
        failures = contrast_failures(player.page, "learn on a phone", board_min_px=BOARD_TEXT_MIN_PX)
        assert failures == []
        width = player.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1
        coach_top = player.page.locator("#coach").bounding_box()
        assert coach_top is not None and coach_top["y"] < 200, "the coach is at the top"
    finally:
        player.page.context.close()
