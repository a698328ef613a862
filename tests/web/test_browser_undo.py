"""Undo from the page, in a real browser (Chromium driven by Playwright), for each title.

At a table created with undo allowed, every seat a browser: the first seat plays until the
"Undo my last move" button shows (the server says its last decision revealed nothing), clicks
it, and its page goes back to what it showed before that decision (board and choices), while the
other seats are told by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from web.driver import PAGE_S, Player, create_table, join_seat, new_player, random_policy

pytestmark = pytest.mark.browser

TITLES = [("shadowlord", 2), ("shadow-planet", 3)]


def _undo_shown(player: Player) -> bool:
    return bool(player.page.evaluate("() => !document.getElementById('undo-move').hidden"))


def _board(player: Player) -> str:
    return str(player.page.evaluate("() => document.getElementById('frag-board').textContent"))


def _version(player: Player) -> str:
    return str(player.page.evaluate("() => document.body.dataset.v || ''"))


def _wait_for_new_version(player: Player, old: str) -> None:
    player.page.wait_for_function("old => (document.body.dataset.v || '') !== old", arg=old, timeout=PAGE_S * 1000)


@pytest.mark.parametrize(("title", "players"), TITLES)
def test_a_seat_takes_back_a_move_from_the_page(browser: Any, live_server: Any, title: str, players: int) -> None:
    server = live_server()
    ada = new_player(browser, "seat0", seed=0)
    table = create_table(
        ada.page,
        server.url,
        game=title,
        players=players,
        seats={seat: "human" for seat in range(1, players)},
        options={},
        choices={"undo": "yes"},
    )
    others = []
    for seat in range(1, players):
        other = new_player(browser, f"seat{seat}", seed=seat)
        join_seat(other.page, server.url, table, seat, f"Friend {seat}")
        others.append(other)
    try:
        ada.page.wait_for_selector("#conn.ok")
        for _ in range(300):
            deciding = next((p for p in [ada, *others] if p.dataset().get("turn", "") and p.choices()), None)
            if deciding is None:
                ada.page.wait_for_timeout(50)
                continue
            board, choices, old = _board(deciding), deciding.choices(), _version(deciding)
            deciding.step(random_policy)
            _wait_for_new_version(deciding, old)
            if deciding is ada and _undo_shown(ada):
                break
        else:
            raise AssertionError("the undo button never showed")
        old = _version(ada)
        ada.page.click("#undo-move")
        _wait_for_new_version(ada, old)
        ada.page.wait_for_function("() => document.body.dataset.turn !== ''", timeout=PAGE_S * 1000)
        assert _board(ada) == board
        assert ada.choices() == choices
        for other in others:
            other.page.wait_for_selector("#notices >> text=Ada took back a move", timeout=PAGE_S * 1000)
        undos = [m for m in ada.messages("view") if m.get("events") and m["events"][-1]["kind"] == "undo"]
        assert undos and undos[-1]["obs"] is not None
    finally:
        for player in [ada, *others]:
            player.page.context.close()
