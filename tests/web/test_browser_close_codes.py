"""In a real browser: the table page tells a table that does not exist (close code 4404) and a
refused connection (4403) from a lost connection, and does not retry them; a lost connection is
retried."""

from __future__ import annotations

from typing import Any

import pytest

from web.driver import PAGE_S, create_table, new_player

pytestmark = pytest.mark.browser


def _closing_with(page: Any, code: int, attempts: list[str]) -> None:
    """Every socket the page opens is answered by the test: closed at once with ``code``."""

    def handle(route: Any) -> None:
        attempts.append(route.url)
        route.close(code=code, reason="test")

    page.route_web_socket("**/ws/**", handle)


@pytest.mark.parametrize(
    ("code", "words"),
    [(4404, "This table does not exist."), (4403, "The server refused this connection.")],
    ids=["4404", "4403"],
)
def test_a_refusal_is_told_and_not_retried(code: int, words: str, browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "closed", seed=4)
    try:
        table = create_table(player.page, server.url, game="shadowlord", players=2, seats={1: "human"}, options={})
        attempts: list[str] = []
        _closing_with(player.page, code, attempts)
        player.page.goto(f"{server.url}/t/{table}")
        player.page.wait_for_selector(f"#notices >> text={words}", timeout=PAGE_S * 1000)
        player.page.wait_for_timeout(2500)  # a lost connection would have been retried by now
        assert len(attempts) == 1, attempts
    finally:
        player.page.context.close()


def test_a_lost_connection_is_retried(browser: Any, live_server: Any) -> None:
    server = live_server()
    player = new_player(browser, "lost", seed=5)
    try:
        table = create_table(player.page, server.url, game="shadowlord", players=2, seats={1: "human"}, options={})
        attempts: list[str] = []
        _closing_with(player.page, 1011, attempts)
        player.page.goto(f"{server.url}/t/{table}")
        player.page.wait_for_function("() => document.body.textContent.includes('reconnecting')")
        player.page.wait_for_timeout(2500)
        assert len(attempts) >= 2, attempts
        assert "This table does not exist." not in player.page.inner_text("body")
    finally:
        player.page.context.close()
