"""The "My tables" link on every page, in a real browser: its badge counts the tables waiting for
the player's decision, on the lobby and on a table page alike, and the tab's title says it too."""

from __future__ import annotations

from typing import Any

import pytest

from web.driver import PAGE_S, create_table, join_seat, new_player

pytestmark = pytest.mark.browser

WAITING = "() => fetch('/me/tables/count').then((r) => r.json()).then((d) => d.waiting)"
BADGE_SAYS = """(n) => {
    const badge = document.getElementById('my-turns');
    const count = document.getElementById('my-turns-count');
    return !!badge && !badge.hidden && count.textContent === String(n) && document.title.startsWith(`(${n}) `);
}"""


def _badge_shows(page: Any, count: int) -> None:
    link = page.locator("header a#my-tables-link")
    assert link.get_attribute("href") == "/me/tables"
    page.wait_for_function(BADGE_SAYS, arg=count, timeout=PAGE_S * 1000)


def test_the_badge_counts_the_tables_waiting_for_the_player_on_every_page(browser: Any, live_server: Any) -> None:
    server = live_server()
    first = new_player(browser, "seat0", seed=1)
    second = new_player(browser, "seat1", seed=2)
    try:
        table = create_table(first.page, server.url, game="shadowlord", players=2, seats={1: "human"}, options={})
        join_seat(second.page, server.url, table, 1, "Bea")
        first.page.goto(f"{server.url}/t/{table}")
        counts = [player.page.evaluate(WAITING) for player in (first, second)]
        assert sorted(counts) == [0, 1]  # one of the two decides first
        deciding, other = (first, second) if counts[0] == 1 else (second, first)
        _badge_shows(deciding.page, 1)  # the table page
        deciding.page.goto(server.url + "/")
        _badge_shows(deciding.page, 1)  # the lobby
        deciding.page.click("header a#my-tables-link")
        deciding.page.wait_for_selector(f"tr.my-table.yours[data-table='{table}']", timeout=PAGE_S * 1000)
        other.page.goto(server.url + "/")
        other.page.wait_for_function(
            "() => document.getElementById('my-turns') && document.getElementById('my-turns').hidden"
        )
        assert other.page.locator("header a#my-tables-link").count() == 1
    finally:
        for player in (first, second):
            player.page.context.close()
