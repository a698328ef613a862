"""The end screen in a real browser (Debian's Chromium driven by Playwright): one browser seat and
bots play each title to its end from late in a game (the table's stored moves are a seeded random
game's, up to a few of the browser seat's last decisions); the top says You won / You lost / Draw
with why, and every end box (top, status line, the board's reveal, Game over, the replay page)
agrees on each seat's result."""

from __future__ import annotations

import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from web.driver import create_table, new_player, play_until_over, random_policy
from web.test_browser_a11y import contrast_failures, page_basics

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
    browser: Any, live_server: Any, tmp_path: Path, game: str, players: int, options: dict[str, str]
) -> None:
    first = live_server()
    player = new_player(browser, "seat0", seed=5)
    people = {seat: "human" for seat in range(1, players)}
    table = create_table(player.page, first.url, game=game, players=players, seats=people, options=options)
    first.stop()
    typed = {name: int(value) for name, value in options.items()}
    _seat_bots_and_rows(tmp_path, table, _rows_before_the_end(game, players, typed))
    server = live_server()
    player.page.goto(f"{server.url}/t/{table}")
    try:
        clicks = play_until_over([player], {player.name: random_policy})
        assert clicks > 0, "the browser seat made no decision before the end"
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
        assert lines == [f"{r['name']}: {r['result']} - {r['why']}" for r in results]
        # the board's reveal says the same result for each seat
        for r in results:
            shown = page.locator(f"#frag-panel {_reveal_selector(game).format(seat=r['seat'])}").inner_text()
            assert shown.strip().endswith(f": {r['result']}"), (shown, r)
        # results and returns agree: a winner's return is above every loser's
        won = [returns[r["seat"]] for r in results if r["result"] == "won"]
        lost = [returns[r["seat"]] for r in results if r["result"] == "lost"]
        assert (min(won) > max(lost, default=-1)) if won else len(set(returns)) == 1
        # the end screen is readable (test_browser_a11y.py judges a game in play and, in its slow
        # run, this screen too)
        page_basics(page)
        assert contrast_failures(page, f"{game} over") == []
        # the replay link, and the replay page says the same results
        href = page.get_attribute("#end-banner .replay-link", "href")
        assert href == f"/replay/{table}?seat=0"
        page.goto(server.url + href)
        page.wait_for_selector("#results-h")
        for r in results:
            text = page.inner_text(f"[data-result-seat='{r['seat']}']")
            assert re.search(rf"{re.escape(str(r['name']))}: {r['result']}\b", text), text
    finally:
        player.page.context.close()


def _rows_before_the_end(
    game_id: str, players: int, options: dict[str, int], seed: int = 5, decisions_left: int = 4
) -> list[tuple[int, int]]:
    """The moves of a seeded random game of ``game_id`` up to seat 0's ``decisions_left``-th last
    decision: a position late in a game, where seat 0 still has decisions to make."""
    from shadowtable.core.registry import make
    from shadowtable.testing import random_move

    game = make(game_id, players=players, **options)
    rng, state, rows = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        seat, action = random_move(game, state, rng)
        rows.append((seat, action))
        state = game.apply(state, action)
    seat0 = [i for i, (seat, _) in enumerate(rows) if seat == 0]
    assert len(seat0) > decisions_left, "seat 0 decides too rarely in this game"
    return rows[: seat0[-decisions_left]]


# -- a Shadowlord! seat knocked out mid-game ------------------------------------------------------------
def _knocked_out_by_its_own_decision(seed: int = 0) -> tuple[list[tuple[int, int]], int]:
    """A seeded three-player Shadowlord! game played by the rules (random choices and draws) up to
    a decision of seat 0 that knocks seat 0 out while the game goes on: the rows before it and
    that decision's action."""
    from shadowtable.core.registry import make
    from shadowtable.testing import random_move

    game = make("shadowlord", players=3)
    rng, state, rows = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        seat, action = random_move(game, state, rng)
        after = game.apply(state, action)
        if seat == 0 and after.seat_out[0] and not state.seat_out[0] and not game.is_terminal(after):
            return rows, action
        rows.append((seat, action))
        state = after
    raise AssertionError("seat 0 was not knocked out by its own decision")


def _seat_bots_and_rows(folder: Path, table: str, rows: list[tuple[int, int]]) -> None:
    """Make the open table ``table`` a game in play at ``rows``, heuristic bots at seats 1 and 2
    (they finish the game in about half the moves random bots take), written to the stopped
    server's database as the server itself would have stored them."""
    with sqlite3.connect(folder / "server.db") as db:
        db.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table,))
        db.execute(
            "UPDATE seats SET kind = 'bot', bot = 'heuristic', name = NULL WHERE table_id = ? AND seat > 0", (table,)
        )
        db.executemany(
            "INSERT INTO actions (table_id, idx, seat, action, client_id, at) VALUES (?, ?, ?, ?, NULL, ?)",
            [(table, idx, seat, action, time.time()) for idx, (seat, action) in enumerate(rows)],
        )


def test_a_knocked_out_player_is_told_at_once_and_gets_a_truthful_end(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    rows, fatal = _knocked_out_by_its_own_decision()
    first = live_server()
    player = new_player(browser, "seat0", seed=7)
    table = create_table(
        player.page, first.url, game="shadowlord", players=3, seats={1: "human", 2: "human"}, options={}
    )
    first.stop()
    _seat_bots_and_rows(tmp_path, table, rows)
    server = live_server()
    page = player.page
    try:
        page.goto(f"{server.url}/t/{table}")
        page.wait_for_selector(f'#frag-actions [data-act="{fatal}"]', state="attached")
        # the page takes a click only once its first view has given it the turn
        page.wait_for_function("() => document.body.dataset.turn !== ''")
        assert page.locator("#out-notice").is_hidden()
        shown_before = len(player.messages("view"))
        player.click(fatal, on_board=False)
        # told at once, at the top, and why; no "Waiting for" any more; no decisions
        page.wait_for_selector("#out-notice:not([hidden])")
        notice = page.inner_text("#out-notice")
        assert notice.startswith("You are out of the game") and "left the game" in notice and "in turn" in notice
        status = page.inner_text("#frag-status")
        assert "Waiting for" not in status and "out of the game" in status
        assert player.choices() == []
        # only bots decide now: fast-forward them to the end
        page.wait_for_selector("#fast-forward:not([hidden])")
        page.click("#fast-forward")
        page.wait_for_selector("#end-banner:not([hidden])", timeout=600_000)
        over = player.messages("over")[-1]
        mine = over["results"][0]
        assert mine["result"] == "lost" and mine["why"].startswith("eliminated (in turn")
        assert page.inner_text("#end-head").strip() == "You lost"
        assert page.inner_text("#end-why").strip() == mine["why"]
        assert "surrendered to" not in mine["why"] and "other players surrendered" not in page.inner_text("#over")
        # nothing of the notice or the results reached the page before their time
        views = player.messages("view")
        assert all(v["out"] is None and v["results"] is None for v in views[:shown_before])
        assert all(v["results"] is None for v in views if v["out"] is not None)
        assert any(m["t"] == "notice" and m.get("fast") for m in player.messages())
    finally:
        page.context.close()
