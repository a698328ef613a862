"""Every player's clock in a real browser: at a table with a clock, each player's Players tab
shows every seat's clock, and the clock of the seat to move counts down in the page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from web.driver import PAGE_S, Player, create_table, join_seat, new_player

pytestmark = pytest.mark.browser

CLOCK = re.compile(r", clock (\d+):(\d\d)( running)?")


def _clocks(player: Player) -> dict[str, tuple[int, bool]]:
    """Each seat's clock as the Players tab shows it: seconds left and whether it runs."""
    shown: dict[str, tuple[int, bool]] = {}
    for li in player.page.locator("#presence li").all():
        found = CLOCK.search(li.inner_text())
        if found:
            shown[str(li.get_attribute("data-seat"))] = (int(found[1]) * 60 + int(found[2]), bool(found[3]))
    return shown


def _deciding_seat(player: Player) -> str:
    player.page.wait_for_selector("#presence li.deciding", timeout=PAGE_S * 1000)
    return str(player.page.locator("#presence li.deciding").first.get_attribute("data-seat"))


def test_every_seats_clock_is_shown_to_each_player_and_the_movers_counts_down(browser: Any, live_server: Any) -> None:
    server = live_server()
    ada = new_player(browser, "seat0", seed=41)
    table = create_table(
        ada.page, server.url, game="shadowlord", players=2, seats={1: "human"}, options={}, clock="300"
    )
    bob = new_player(browser, "seat1", seed=42)
    try:
        join_seat(bob.page, server.url, table, 1, "Bob")
        for player in (ada, bob):
            player.page.click("#tab-players")
            player.page.wait_for_function(
                "() => [...document.querySelectorAll('#presence li')]"
                ".filter((li) => li.textContent.includes(', clock ')).length === 2",
                timeout=PAGE_S * 1000,
            )
        for player in (ada, bob):
            mover = _deciding_seat(player)
            clocks = _clocks(player)
            assert sorted(clocks) == ["0", "1"], f"{player.name} sees the clocks of {sorted(clocks)}"
            assert all(0 < left <= 300 for left, _ in clocks.values())
            assert [seat for seat, (_, running) in clocks.items() if running] == [mover]
            first = clocks[mover][0]
            player.page.wait_for_function(
                """([seat, first]) => {
                  const li = document.querySelector(`#presence li[data-seat="${seat}"]`);
                  const m = li && li.textContent.match(/, clock (\\d+):(\\d\\d) running/);
                  return !!m && Number(m[1]) * 60 + Number(m[2]) < first;
                }""",
                arg=[mover, first],
                timeout=PAGE_S * 1000,
            )
            waiting = next(seat for seat in clocks if seat != mover)
            assert _clocks(player)[waiting] == clocks[waiting], "the clock of a seat not to move stands still"
            own = player.page.locator("#clock").inner_text()  # the header's clock says whose it is
            assert re.fullmatch(r"your time \d+:\d\d(, running)?", own), own
    finally:
        for player in (ada, bob):
            player.page.context.close()
