"""A table's bot pace: chosen at creation, stored with the table, carried to its rematch, and the
delay its bots wait before each move (the server's ``--bot-delay`` for a table without one)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.conftest import config_for
from server.wire import BROWSER, Seat, create, play_out
from shadowtable.server.app import create_app
from shadowtable.server.errors import ServiceError
from shadowtable.server.new_table import new_pace
from shadowtable.server.table import BOT_PACES, StoredTable


def _client(database: str, **overrides: Any) -> TestClient:
    return TestClient(create_app(config_for(database, **overrides)), headers=BROWSER)


def _stored(pace: str | None) -> StoredTable:
    return StoredTable("t", "open", None, True, 0.0, [], pace=pace)


def test_a_pace_gives_its_own_delay_and_none_gives_the_servers() -> None:
    assert _stored(None).bot_delay_s(0.5) == 0.5
    assert _stored("instant").bot_delay_s(0.5) == 0.0
    assert _stored("quick").bot_delay_s(0.5) == BOT_PACES["quick"] == pytest.approx(0.15)
    assert _stored("relaxed").bot_delay_s(0.0) == BOT_PACES["relaxed"] == pytest.approx(0.8)


def test_an_unknown_pace_is_refused() -> None:
    assert new_pace(None) is None and new_pace("quick") == "quick"
    with pytest.raises(ServiceError, match="pace"):
        new_pace("glacial")


def test_the_api_refuses_an_unknown_pace(sqlite_database: str) -> None:
    with _client(sqlite_database) as client:
        answer = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "pace": "glacial"})
        assert answer.status_code == 422


def _seconds_to_the_end(client: TestClient, pace: str) -> float:
    """Seconds from seat 0's only move to the end, where the bot at seat 1 moves last."""
    answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], pace=pace)
    with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
        seat = Seat(ws)
        seat.hello(answer["token"])
        assert seat.wait_to_decide() and seat.view is not None
        start = time.monotonic()
        play_out(seat)
        return time.monotonic() - start


def test_an_instant_table_does_not_wait_the_servers_delay(sqlite_database: str) -> None:
    with _client(sqlite_database, bot_delay_s=30.0) as client:
        assert _seconds_to_the_end(client, "instant") < 10.0


def test_a_relaxed_table_waits_its_own_delay(sqlite_database: str) -> None:
    with _client(sqlite_database, bot_delay_s=0.0) as client:
        assert _seconds_to_the_end(client, "relaxed") >= BOT_PACES["relaxed"] - 0.05


def test_the_pace_is_stored_and_carried_to_the_rematch(sqlite_database: str) -> None:
    with _client(sqlite_database) as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], pace="relaxed")
        table_id = answer["table"]["id"]
        assert answer["table"]["pace"] == "relaxed"
        plain = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])
        assert plain["table"]["pace"] is None
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            play_out(seat)
        rematch = client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {answer['token']}"})
        assert rematch.status_code in (200, 201), rematch.text
    with _client(sqlite_database) as client:  # read again from the database by a new process
        assert client.get(f"/api/tables/{table_id}").json()["pace"] == "relaxed"
        again = client.get(f"/api/tables/{rematch.json()['id']}").json()
        assert again["pace"] == "relaxed"
