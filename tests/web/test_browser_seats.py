"""In a real browser: a seat left in play is not offered to anyone else, and its player takes it
back with the page's button."""

from __future__ import annotations

from typing import Any

import pytest

from web.driver import PAGE_S, create_table, join_seat, new_player

pytestmark = pytest.mark.browser


def test_a_left_seat_is_taken_back_from_the_page_and_offered_to_nobody_else(browser: Any, live_server: Any) -> None:
    server = live_server()
    creator = new_player(browser, "seat0", seed=1)
    table = create_table(creator.page, server.url, game="shadowlord", players=2, seats={1: "human"}, options={})
    leaver = new_player(browser, "seat1", seed=2)
    join_seat(leaver.page, server.url, table, 1, "Leaver")
    stranger = new_player(browser, "stranger", seed=3)
    try:
        leaver.page.click("form.leave button")
        leaver.page.wait_for_selector("text=You left this seat; a bot plays it", timeout=PAGE_S * 1000)
        creator.page.wait_for_function(
            "() => document.querySelector('#notices').textContent.includes('a bot plays for them')",
            timeout=PAGE_S * 1000,
        )
        stranger.page.goto(f"{server.url}/t/{table}/seat/1")
        assert "A bot plays this seat since its player left it" in stranger.page.inner_text("main")
        assert stranger.page.locator("button", has_text="Take this seat").count() == 0
        leaver.page.click("text=Take my seat back")
        leaver.page.wait_for_selector("text=you: Leaver", timeout=PAGE_S * 1000)
        creator.page.wait_for_function(
            "() => document.querySelector('#notices').textContent.includes('Leaver is back')",
            timeout=PAGE_S * 1000,
        )
    finally:
        for player in (creator, leaver, stranger):
            player.page.context.close()
