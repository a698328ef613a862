"""Learn to play over HTTP (no browser): each tutorial walked to its end with varied choices, the
leave link at every step, stale and bad posts, and the bounded store of tutorial games."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from shadowtable.server.routes.learn import TutorialStore, board_html  # noqa: E402
from shadowtable.tutorial import Tutorial, deal_for, deals  # noqa: E402
from tutorial.secrets_of import leaks, secrets  # noqa: E402

ACTION = re.compile(r'name="action" value="(\d+)"')
TURN = re.compile(r'name="turn" value="(\d+)"')


def shown_text(page: str) -> str:
    """The text a page shows: its markup removed, its character references read."""
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


def stored(client: Any, game_id: str) -> Tutorial:
    """The one tutorial game of ``game_id`` the test client's server keeps."""
    games = client.app.state.tutorials._games
    found = [tutorial for (_browser, gid), (tutorial, _used) in games.items() if gid == game_id]
    assert len(found) == 1
    return found[0]


def test_the_lobby_links_to_every_tutorial(client: Any) -> None:
    assert 'href="/learn"' in client.get("/").text
    page = client.get("/learn")
    assert page.status_code == 200
    for game_id in deals():
        assert f'href="/learn/{game_id}"' in page.text
    assert client.get("/learn/no-such-game").status_code == 404


@pytest.mark.parametrize("game_id", sorted(deals()))
def test_a_newcomer_walks_each_tutorial_to_its_end(client: Any, game_id: str) -> None:
    rng, decisions = random.Random(7), 0
    while True:
        page = client.get(f"/learn/{game_id}")
        assert page.status_code == 200
        assert "Leave the tutorial / start a real table" in page.text
        tutorial = stored(client, game_id)
        board = board_html(tutorial)  # the game's board of the seat's own observation
        lines, cards = secrets(tutorial, shown_text(board["board"] + board["panel"]))
        assert leaks(shown_text(page.text), lines, cards) == [], "the page shows nothing the seat may not know"
        actions = ACTION.findall(page.text)
        if not actions:
            break
        assert "Your decision:" in page.text and "What it is for:" in page.text
        turn = TURN.search(page.text)
        assert turn is not None and int(turn.group(1)) == tutorial.decisions
        answer = client.post(f"/learn/{game_id}", data={"action": rng.choice(actions), "turn": turn.group(1)})
        assert answer.status_code == 200  # followed the redirect
        decisions += 1
    assert decisions > 10
    assert re.search(r'<h1 id="coach-h">(You won|You lost|Draw|Nobody won)', page.text)
    assert "play the tutorial again" in page.text


def test_a_repeated_or_bad_post_changes_nothing(client: Any) -> None:
    page = client.get("/learn/shadowlord")
    action = ACTION.findall(page.text)[0]
    assert client.post("/learn/shadowlord", data={"action": action, "turn": "0"}).status_code == 200
    tutorial = stored(client, "shadowlord")
    made = tutorial.decisions
    assert tutorial.chosen == 1 and made >= 1
    client.post("/learn/shadowlord", data={"action": action, "turn": "0"})  # a double click
    assert tutorial.decisions == made
    refused = client.post("/learn/shadowlord", data={"action": "999999", "turn": str(made)})
    assert refused.status_code == 409 and tutorial.decisions == made
    assert client.post("/learn/shadowlord", data={"action": "x", "turn": str(made)}).status_code == 409
    restarted = client.post("/learn/shadowlord/restart")
    assert restarted.status_code == 200 and stored(client, "shadowlord").decisions == 0


def test_the_tutorial_store_is_bounded_in_count_and_age() -> None:
    store = TutorialStore(limit=2, age_s=100.0)
    games = [Tutorial(deal_for("shadowlord")) for _ in range(3)]
    store.put("a", "shadowlord", games[0], now=0.0)
    store.put("b", "shadowlord", games[1], now=1.0)
    assert store.get("a", "shadowlord", now=2.0) is games[0]  # now the most recently used
    store.put("c", "shadowlord", games[2], now=3.0)
    assert len(store) == 2 and store.get("b", "shadowlord", now=4.0) is None
    assert store.get("a", "shadowlord", now=50.0) is games[0]
    assert store.get("c", "shadowlord", now=104.0) is None, "unused for longer than its age"
    assert store.get("a", "shadowlord", now=149.0) is games[0]
    assert len(store) == 1
