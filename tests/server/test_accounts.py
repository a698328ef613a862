"""Accounts (sign up, log in, the session cookie) and ratings of finished tables, on both databases."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import sqlalchemy as sa

from server.account_helpers import (
    PASSWORD,
    Names,
    board,
    log_in,
    rated_at,
    rows,
    seat0_wins,
    sign_up,
    table_of,
    wait_until,
)
from server.wire import Seat, play_out
from shadowtable.server import schema


def accounts_in(database: str, name: str) -> list[dict[str, Any]]:
    """The stored accounts called ``name`` (any case)."""
    return rows(database, sa.select(schema.accounts).where(schema.accounts.c.name_key == name.casefold()))


def test_sign_up_log_in_and_out(serve: Any, database: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    n = Names()
    ann = f"Ann Lee{n.suffix}"
    with serve() as client:
        made = client.post("/api/accounts", json={"name": f"Ann  Lee{n.suffix}", "password": PASSWORD})
        assert made.status_code == 201 and made.json() == {"name": ann}
        cookie = made.headers["set-cookie"].lower()
        assert "shadowtable_account=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        assert "max-age=2592000" in cookie
        # signed in: a seat is taken under the account's name
        answer = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "name": "someone"})
        assert answer.json()["table"]["seats"][0]["name"] == ann
        assert client.delete("/api/session").status_code == 204
        assert "shadowtable_account" not in client.cookies
        logged = client.post("/api/session", json={"name": ann.upper(), "password": PASSWORD})
        assert logged.status_code == 200 and logged.json() == {"name": ann}
        client.cookies.clear()
        wrong = client.post("/api/session", json={"name": ann, "password": "not the password"})
        unknown = client.post("/api/session", json={"name": n.nobody, "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 403
        assert wrong.json() == unknown.json(), "an unknown name and a wrong password get the same answer"
        assert "shadowtable_account" not in client.cookies
        # a forged cookie signs nobody in
        client.cookies.set("shadowtable_account", "WyJ4IiwiQW5uIExlZSJd.forged.sig")
        guest = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "name": "Guest"})
        assert guest.json()["table"]["seats"][0]["name"] == "Guest"
    stored = accounts_in(database, ann)
    assert len(stored) == 1
    row = stored[0]
    assert row["name"] == ann and row["name_key"] == ann.casefold()
    assert row["password_hash"].startswith("$argon2id$") and PASSWORD not in row["password_hash"]
    assert all(
        PASSWORD not in record.getMessage() and PASSWORD not in str(record.__dict__) for record in caplog.records
    )


@pytest.mark.parametrize(
    ("body", "status", "why"),
    [
        ({"name": "Al", "password": PASSWORD}, 400, "name: 3 to 32"),
        ({"name": "x" * 33, "password": PASSWORD}, 400, "name: 3 to 32"),
        ({"name": "Bad\u0007name", "password": PASSWORD}, 400, "printable"),
        ({"name": "   ", "password": PASSWORD}, 400, "name"),
        ({"name": "Valid name", "password": "short"}, 400, "password: 8 to 256"),
        ({"name": "Valid name", "password": "p" * 257}, 400, "password: 8 to 256"),
    ],
)
def test_bad_names_and_passwords_are_refused_and_nothing_is_stored(
    serve: Any, database: str, body: dict[str, str], status: int, why: str
) -> None:
    with serve() as client:
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == status and why in answer.json()["error"]
        assert "shadowtable_account" not in client.cookies
    assert rows(database, sa.select(schema.accounts).where(schema.accounts.c.name_key.in_(["al", "valid name"]))) == []
    assert rows(database, sa.select(schema.accounts).where(schema.accounts.c.name_key == body["name"].casefold())) == []


def test_a_name_is_unique_whatever_its_case(serve: Any, database: str) -> None:
    zoe = "Zoë" + Names().suffix
    with serve() as client:
        sign_up(client, zoe)
        client.cookies.clear()
        again = client.post("/api/accounts", json={"name": zoe.upper(), "password": "another password"})
        assert again.status_code == 409 and again.json() == {"error": "that name is taken"}
        # the first password still works, the second was never stored
        log_in(client, zoe.lower())
        client.cookies.clear()
        assert client.post("/api/session", json={"name": zoe, "password": "another password"}).status_code == 403
    assert len(accounts_in(database, zoe)) == 1


def test_a_rated_game_updates_both_ratings_once(serve: Any, database: str) -> None:
    n = Names()
    names = [n.ann, n.bob, n.cy]
    with serve() as client:
        sign_up(client, n.ann)
        sign_up(client, n.bob)
        table_id, token0, token1 = table_of(client, n.ann, n.bob)
        seats = rows(database, sa.select(schema.seats.c.account_id).where(schema.seats.c.table_id == table_id))
        assert all(seat["account_id"] for seat in seats)
        seat0_wins(client, table_id, token0, token1)
        ratings = wait_until(lambda: board(client, names) if len(board(client, names)) == 2 else None)
        assert [r["name"] for r in ratings] == [n.ann, n.bob]
        ann, bob = ratings
        assert ann["games"] == bob["games"] == 1
        assert ann["ordinal"] > 0.0 > bob["ordinal"], "default ordinal 0: the winner goes up, the loser down"
        assert ann["mu"] > 25.0 > bob["mu"] and ann["sigma"] < 25 / 3
        assert rated_at(database, table_id)["rated_at"] is not None
        # the end hook again (a second call, a restart's sweep): nothing changes
        applied = client.portal.call(client.app.state.ratings.apply, table_id)
        assert applied is False
        assert client.portal.call(client.app.state.ratings.apply_pending) == 0
        assert board(client, names) == ratings
    with serve() as client:  # a restart counts nothing twice
        assert board(client, names) == ratings


def test_a_game_with_a_bot_seat_or_a_guest_is_not_rated(serve: Any, database: str) -> None:
    n = Names()
    names = [n.ann, n.bob, n.cy]
    with serve() as client:
        sign_up(client, n.ann)
        sign_up(client, n.bob)
        with_bot, token0, _ = table_of(client, n.ann, None, ["human", "bot:random"])
        with client.websocket_connect(f"/ws/{with_bot}") as ws:
            seat = Seat(ws)
            seat.hello(token0)
            play_out(seat)
        with_guest, token0, token1 = table_of(client, n.ann, None)
        seat0_wins(client, with_guest, token0, token1)
        for table_id in (with_bot, with_guest):
            flags = wait_until(lambda t=table_id: rated_at(database, t) if rated_at(database, t)["rated_at"] else None)
            assert flags["rated"] is False or flags["rated"] == 0
        assert board(client, names) == []


def test_a_takeover_makes_a_game_unrated(serve: Any, database: str) -> None:
    n = Names()
    names = [n.ann, n.bob, n.cy]
    with serve() as client:
        sign_up(client, n.ann)
        sign_up(client, n.bob)
        table_id, token0, token1 = table_of(client, n.ann, n.bob)
        with client.websocket_connect(f"/ws/{table_id}") as ws0:
            seat0 = Seat(ws0)
            seat0.hello(token0)
            left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token1}"})
            assert left.status_code == 200
            assert not rated_at(database, table_id)["rated"], "stored as unrated with the takeover"
            play_out(seat0)
        assert wait_until(lambda: rated_at(database, table_id)["rated_at"])
        assert board(client, names) == []


def test_the_leaderboard_is_sorted_and_lists_a_players_games(serve: Any, database: str) -> None:
    n = Names()
    names = [n.ann, n.bob, n.cy]
    with serve() as client:
        for name in names:
            sign_up(client, name)
        seat0_wins(client, *table_of(client, n.ann, n.bob))
        wait_until(lambda: len(board(client, names)) == 2)
        seat0_wins(client, *table_of(client, n.cy, n.bob))
        wait_until(lambda: len(board(client, names)) == 3)
        ratings = board(client, names)
        assert [r["rank"] for r in ratings] == sorted(r["rank"] for r in ratings), "ranks follow the order"
        assert ratings[-1]["name"] == n.bob and ratings[-1]["games"] == 2
        assert [r["ordinal"] for r in ratings] == sorted((r["ordinal"] for r in ratings), reverse=True)
        games = client.get(f"/api/players/{n.bob.lower()}/games")
        assert games.status_code == 200
        played = games.json()
        assert played["name"] == n.bob and len(played["games"]) == 2
        assert {g["result"] for g in played["games"]} == {"lost (placed 2 of 2)"}
        assert all(g["rated"] and g["replay"].startswith("/replay/") for g in played["games"])
        assert client.get(f"/api/players/{n.nobody}/games").status_code == 404
        empty = client.get("/api/leaderboard", params={"game": "shadowlord", "players": 3})
        assert empty.status_code == 200 and empty.json()["ratings"] == []
