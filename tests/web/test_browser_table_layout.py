"""The table page a newcomer reads without scrolling, in a real browser: at 1280x800, mid-game,
the status, the "since your last decision" summary, the choices and the top of the board lie in
the first viewport for both titles; on a 390 px phone the choices and the summary come before
the board; changed board elements are highlighted, without animation where the reader asks for
reduced motion; the log is in a tab, filterable; the chat tab counts unread lines."""

from __future__ import annotations

from typing import Any

import pytest

from web.driver import Player, create_table, new_player, play_until_over, random_policy

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _mid_game(player: Player, server: Any, game: str, players: int) -> None:
    """A table of ``game`` with bots, played until this seat decides with a summary shown."""
    seats = {i: "bot:random" for i in range(1, players)}
    create_table(player.page, server.url, game=game, players=players, seats=seats, options={})
    play_until_over([player], {player.name: random_policy}, clicks=12)
    player.page.wait_for_function(
        "() => !!document.body.dataset.turn && !!document.querySelector('#frag-summary h2')"
        " && !!document.querySelector('#frag-actions [data-act]')"
    )


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return dict(box)


@pytest.mark.parametrize(("game", "players"), [("shadow-planet", 3), ("shadowlord", 2)])
def test_the_essentials_are_in_the_first_viewport(browser: Any, live_server: Any, game: str, players: int) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=31, viewport=DESKTOP)
    page = player.page
    try:
        _mid_game(player, server, game, players)
        page.evaluate("() => window.scrollTo(0, 0)")
        for selector in ("#frag-status .status", "#frag-summary", "#frag-actions h2", "#frag-actions [data-act]"):
            box = _box(page, selector)
            assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], f"{selector} at {box}"
            assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"], f"{selector} at {box}"
        board = _box(page, "#frag-board")
        assert 0 <= board["y"] < DESKTOP["height"] - 200, f"the board starts at {board['y']} px"
        rule = _box(page, "#frag-rule h2")
        assert rule["y"] + rule["height"] <= DESKTOP["height"], "the rule now is below the first viewport"
        # however many choices there are (a long list is made here from copies of the first), the
        # list scrolls in its card and the rule stays in the first viewport
        page.evaluate(
            "() => { const list = document.querySelector('#frag-actions .choices');"
            " const first = list.firstElementChild;"
            " for (let i = 0; i < 40; i++) list.appendChild(first.cloneNode(true)); }"
        )
        rule = _box(page, "#frag-rule h2")
        assert rule["y"] + rule["height"] <= DESKTOP["height"], "with 40 more choices the rule is below the viewport"
        log = _box(page, "#pane-log")
        assert log["x"] > board["x"] + board["width"] - 1, "the log is not beside the board"
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        choices, summary, board = (_box(page, s) for s in ("#frag-actions", "#frag-summary", "#frag-board"))
        assert choices["y"] < summary["y"] < board["y"], "on a phone: choices, then the summary, then the board"
        assert _box(page, "#pane-log")["y"] > board["y"]
    finally:
        page.context.close()


def test_changes_are_highlighted_and_still_where_motion_is_reduced(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=32, viewport=DESKTOP)
    page = player.page
    try:
        _mid_game(player, server, "shadowlord", 2)
        for _ in range(30):
            if page.locator("#frag-board .changed").count():
                break
            play_until_over([player], {player.name: random_policy}, clicks=1)
            page.wait_for_function("() => !!document.body.dataset.turn || document.body.dataset.over === '1'")
        assert page.locator("#frag-board .changed").count(), "no changed board element was highlighted"
        moving = "() => getComputedStyle(document.querySelector('#frag-board .changed')).animationName"
        assert page.evaluate(moving) == "changed-flash"
        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(moving) == "none"
    finally:
        page.context.close()


def test_the_log_filters_and_the_chat_counts_unread_lines(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=33, viewport=DESKTOP)
    page = player.page
    try:
        _mid_game(player, server, "shadowlord", 2)
        lines = page.locator("#frag-log li")
        assert lines.count() > 5
        texts = lines.all_inner_texts()
        assert len(texts) - len(set(texts)) < len(texts) // 3, "the log repeats itself"
        page.check("input[name=log-show][value=mine]")
        shown = page.locator("#frag-log li:not([hidden])").all_inner_texts()
        assert shown and all("you" in text.lower() for text in shown)
        page.check("input[name=log-show][value=all]")
        page.fill("#log-find", "zzz-nothing")
        assert page.locator("#frag-log li:not([hidden])").count() == 0
        page.fill("#log-find", "")
        page.click("#tab-chat")
        page.fill("#chat-form input[name=text]", "hello")
        page.press("#chat-form input[name=text]", "Enter")
        page.wait_for_selector("#chat-lines li")
        assert page.locator("#chat-unread").is_hidden(), "a line read in the open chat counted as unread"
        page.click("#tab-log")
        page.evaluate(
            "() => { const form = document.getElementById('chat-form');"
            " form.elements.text.value = 'again'; form.requestSubmit(); }"
        )
        page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length === 2")
        assert page.inner_text("#chat-unread") == "1 new"
        page.click("#tab-chat")
        assert page.locator("#chat-unread").is_hidden()
    finally:
        page.context.close()


def test_the_log_tags_private_lines_and_the_public_filter_hides_them(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "seat0", seed=34, viewport=DESKTOP)
    page = player.page
    try:
        _mid_game(player, server, "shadow-planet", 3)
        private = page.locator("#frag-log li[data-private]")
        assert private.count() > 0, "no line was told to this seat alone"
        assert all(text.startswith("private ") for text in private.all_inner_texts()), "a private line is tagged"
        everything = page.locator("#frag-log li").count()
        page.check("input[name=log-show][value=public]")
        assert page.locator("#frag-log li[data-private]:not([hidden])").count() == 0
        assert page.locator("#frag-log li:not([hidden])").count() == everything - private.count() > 0
        page.check("input[name=log-show][value=private]")
        shown = page.locator("#frag-log li:not([hidden])")
        assert (
            shown.count() == private.count()
            and page.locator("#frag-log li:not([data-private]):not([hidden])").count() == 0
        )
        page.check("input[name=log-show][value=all]")
        assert page.locator("#frag-log li:not([hidden])").count() == everything
    finally:
        page.context.close()
