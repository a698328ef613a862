"""The "My tables" page and its badge: every table a player sits at (their account's seats, this
browser's seats), their turn first, then the others, then the finished ones; nothing on it but
what a spectator may know."""

from __future__ import annotations

import html
import re
import time
from typing import Any

from fastapi.testclient import TestClient

from server.account_helpers import Names, log_in, seat0_wins, sign_up, table_of
from server.conftest import config_for
from server.wire import BROWSER, Seat, create, play_out
from shadowtable.core.wording import SeatNames
from shadowtable.server.app import create_app
from shadowtable.server.table import seat_name

ROW = re.compile(r'<tr class="my-table ([a-z]+)" data-table="([A-Za-z0-9_-]+)" data-group="(\d)">')


def listed(client: Any) -> list[tuple[str, str]]:
    """The rows of the client's "My tables" page: (kind, table id), in order."""
    answer = client.get("/me/tables")
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    return [(kind, table) for kind, table, _group in ROW.findall(answer.text)]


def waiting(client: Any) -> dict[str, Any]:
    answer = client.get("/me/tables/count")
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    body: dict[str, Any] = answer.json()
    return body


def until(check: Any, tries: int = 500) -> Any:
    """``check()`` once it is true (bots play in the background); fails after ``tries``."""
    for _ in range(tries):
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("never happened")


def join_elsewhere(client: Any, table_id: str) -> str:
    """Another browser takes a free seat of ``table_id``: its token (this browser's cookies kept)."""
    saved = list(client.cookies.jar)
    client.cookies.clear()
    joined = client.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    for cookie in saved:
        client.cookies.jar.set_cookie(cookie)
    token: str = joined.json()["token"]
    return token


def as_browser(client: Any, seats: dict[str, str]) -> Any:
    """``client`` as a browser whose seat cookie holds ``seats`` (table -> token) alone."""
    client.cookies.clear()
    client.cookies.set("shadowtable_seats", "|".join(f"{table}:{token}" for table, token in seats.items()))
    return client


def test_a_guest_sees_the_tables_of_this_browser_its_turn_first(serve: Any) -> None:
    with serve() as client:
        # finished: this browser's seat against a bot, played out
        done = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], options={"rounds": 1})
        with client.websocket_connect(f"/ws/{done['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(done["token"])
            play_out(seat)
        # its turn: seat 0 of two humans decides first
        mine = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        other_mine = join_elsewhere(client, mine["table"]["id"])
        # the other's turn: seat 0 has decided
        theirs = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        other_theirs = join_elsewhere(client, theirs["table"]["id"])
        with client.websocket_connect(f"/ws/{theirs['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(theirs["token"])
            assert seat.wait_to_decide()
            seat.act(0)
            assert seat.until("ack")["t"] == "ack"
        # waiting for players
        empty = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        rows = listed(client)
        assert rows == [
            ("yours", mine["table"]["id"]),
            ("open", empty["table"]["id"]),
            ("playing", theirs["table"]["id"]),
            ("over", done["table"]["id"]),
        ]
        assert waiting(client) == {"waiting": 1, "tables": [{"id": mine["table"]["id"], "title": "Tiny Showdown"}]}
        page = client.get("/me/tables").text
        assert "Player 1: pass" in page  # the last thing that happened at the other's table, by name
        assert "The game is over" in page
        # only the finished table links to its replay and analysis, from this browser's seat
        assert page.count("Replay and analysis") == 1
        assert f'href="/replay/{done["table"]["id"]}?seat=0">Replay and analysis</a>' in page
        # the other browser sits at two of them, its turn at the second
        other = as_browser(client, {mine["table"]["id"]: other_mine, theirs["table"]["id"]: other_theirs})
        assert listed(other) == [("yours", theirs["table"]["id"]), ("playing", mine["table"]["id"])]
        assert [t["id"] for t in waiting(other)["tables"]] == [theirs["table"]["id"]]


def test_a_stranger_and_a_forged_cookie_see_nothing(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])
        assert [table for _, table in listed(client)] == [answer["table"]["id"]]
        stranger = as_browser(client, {})
        assert listed(stranger) == [] and waiting(stranger) == {"waiting": 0, "tables": []}
        stranger.cookies.set("shadowtable_seats", f"{answer['table']['id']}:forged.token")
        assert listed(stranger) == [] and waiting(stranger)["waiting"] == 0
        assert "You sit at no table yet" in stranger.get("/me/tables").text


def test_an_account_sees_its_tables_from_any_browser(serve: Any) -> None:
    with serve() as client:
        names = Names()
        ann, bob = names.ann, names.bob
        sign_up(client, ann)
        sign_up(client, bob)
        finished, token0, token1 = table_of(client, ann, bob)
        seat0_wins(client, finished, token0, token1)
        playing, _, _ = table_of(client, ann, bob)  # seat 0 (Ann) decides first
        log_in(client, ann)  # a browser without any seat cookie
        assert listed(client) == [("yours", playing), ("over", finished)]
        assert [t["id"] for t in waiting(client)["tables"]] == [playing]
        page = client.get("/me/tables").text
        assert f"{ann} won" in page and f"{ann}, {bob}" in page
        log_in(client, bob)
        assert listed(client) == [("playing", playing), ("over", finished)]
        assert waiting(client)["waiting"] == 0
        client.cookies.clear()
        assert listed(client) == []


def test_the_page_tells_only_what_a_spectator_is_told(sqlite_database: str) -> None:
    """The last line shown is the spectators' last log line; no line told to the seat alone (its
    own cards, its draws) is on the page."""
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        answer = create(client, game="shadow-planet", players=3, seats=["human", "bot:random", "bot:random"])
        table_id = answer["table"]["id"]
        until(lambda: waiting(client)["waiting"] == 1)
        table = client.app.state.service.tables[table_id]  # type: ignore[attr-defined]
        names = SeatNames.of([seat_name(i, s) for i, s in enumerate(table.seats)])
        public = [names.shown(e["text"]) for e in table.live.channels[None].since(0)]
        private = [names.shown(e["text"]) for e in table.live.channels[0].since(0)]
        secret = set(private) - set(public)
        assert secret, "the seat was told nothing of its own: this check would prove nothing"
        page = html.unescape(client.get("/me/tables").text)
        assert f'<td class="last">{public[-1]}</td>' in page
        shown = [line for line in secret if line in page]
        assert shown == []
        count = client.get("/me/tables/count").text
        assert not any(line in count for line in secret)


def test_a_seat_left_in_play_is_listed_but_never_waits_for_its_player(serve: Any) -> None:
    with serve(bot_delay_s=3600.0) as client:  # the bot that takes the seat over does not move
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        table_id = answer["table"]["id"]
        join_elsewhere(client, table_id)
        until(lambda: waiting(client)["waiting"] == 1)  # seat 0 decides first
        assert client.post(f"/api/tables/{table_id}/leave").status_code == 200
        assert listed(client) == [("playing", table_id)]
        assert "you left: a bot plays for you" in client.get("/me/tables").text
        assert waiting(client) == {"waiting": 0, "tables": []}


def test_a_turn_based_table_shows_the_time_left_in_days(serve: Any) -> None:
    from shadowtable.web.my_tables_pages import clock_words

    assert clock_words((2 * 86400 + 5 * 3600) * 1000) == "2 d 5 h"
    assert clock_words(65_000) == "1:05"
    turn = {"move_s": 2 * 86400, "reserve_s": 0, "on_timeout": "bot"}
    with serve() as client:
        mine = create(client, game="tiny-showdown", players=2, seats=["human", "human"], mode="turn-based", turn=turn)
        join_elsewhere(client, mine["table"]["id"])
        page = client.get("/me/tables").text
    cell = re.search(r'<span class="clock-left" data-deadline="\d+">([^<]+)</span>', page)
    assert cell is not None and cell.group(1) in ("1 d 23 h", "2 d 0 h"), page
