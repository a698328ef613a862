"""The end screen in a real browser (Debian's Chromium driven by Playwright): one browser seat and
bots play each title to its end; the top says You won / You lost / Draw with why, and every end
box (top, status line, the board's reveal, Game over, the replay page) agrees on each seat's result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from web.driver import create_table, new_player, play_until_over, random_policy

pytestmark = pytest.mark.browser

HEADLINE = {"won": "You won", "lost": "You lost", "drew": "Draw"}


def _reveal_selector(game: str) -> str:
    """Where the board's end panel gives one seat's result."""
    return "[data-reveal-seat='{seat}'] strong" if game == "shadow-planet" else "[data-result-seat='{seat}'] strong"


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("shadow-planet", 3, {}), ("shadowlord", 3, {"turn_cap": "6"})],
)
def test_every_end_box_agrees_on_each_seats_result(
    browser: Any, live_server: Any, game: str, players: int, options: dict[str, str]
) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=5)
    bots = {seat: "bot:random" for seat in range(1, players)}
    table = create_table(player.page, server.url, game=game, players=players, seats=bots, options=options)
    try:
        play_until_over([player], {player.name: random_policy})
        page = player.page
        page.wait_for_selector("#end-banner:not([hidden])")
        over = player.messages("over")[-1]
        results, returns = over["results"], over["returns"]
        assert len(results) == players
        mine = results[0]
        # the top of the page: this seat's own result and why
        assert page.inner_text("#end-head").strip() == HEADLINE[mine["result"]]
        assert page.inner_text("#end-why").strip() == mine["why"]
        assert page.inner_text("#frag-status").strip().startswith(f"{HEADLINE[mine['result']]}: ")
        # Game over: every seat's result, as the game words it
        lines = page.locator("#results li").all_inner_texts()
        assert lines == [f"{r['name']} (seat {r['seat']}): {r['result']} - {r['why']}" for r in results]
        # the board's reveal says the same result for each seat
        for r in results:
            shown = page.locator(f"#frag-panel {_reveal_selector(game).format(seat=r['seat'])}").inner_text()
            assert shown.strip().endswith(f": {r['result']}"), (shown, r)
        # results and returns agree: a winner's return is above every loser's
        won = [returns[r["seat"]] for r in results if r["result"] == "won"]
        lost = [returns[r["seat"]] for r in results if r["result"] == "lost"]
        assert (min(won) > max(lost, default=-1)) if won else len(set(returns)) == 1
        # the replay link, and the replay page says the same results
        href = page.get_attribute("#end-banner .replay-link", "href")
        assert href == f"/replay/{table}?seat=0"
        page.goto(server.url + href)
        page.wait_for_selector("#results-h")
        for r in results:
            text = page.inner_text(f"[data-result-seat='{r['seat']}']")
            assert re.search(rf"\(seat {r['seat']}\): {r['result']}\b", text), text
    finally:
        player.page.context.close()
