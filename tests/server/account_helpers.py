"""Helpers for the account tests: sign up, play a decided tiny game, read rows directly."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from server.wire import Seat, create
from shadowtable.server.store import async_url

PASSWORD = "correct horse battery"


def sign_up(client: Any, name: str, password: str = PASSWORD) -> None:
    """Sign ``client`` up as ``name`` (its cookie jar then holds the account cookie)."""
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text


def log_in(client: Any, name: str, password: str = PASSWORD) -> None:
    client.cookies.clear()
    answer = client.post("/api/session", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text


def table_of(
    client: Any, first: str | None, second: str | None, seats: list[str] | None = None
) -> tuple[str, str, str]:
    """A one-round tiny-showdown table: seat 0 taken as ``first``, seat 1 as ``second`` (``None``:
    a guest; with a bot seat, only seat 0 is joined).  Returns the id and both tokens."""
    client.cookies.clear()
    if first is not None:
        log_in(client, first)
    seats = seats or ["human", "human"]
    answer = create(client, game="tiny-showdown", players=2, seats=seats, options={"rounds": 1})
    table_id = answer["table"]["id"]
    client.cookies.clear()
    token1 = ""
    if seats[1] == "human":
        if second is not None:
            log_in(client, second)
        joined = client.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200, joined.text
        token1 = joined.json()["token"]
    client.cookies.clear()
    return table_id, answer["token"], token1


def decide(seat: Seat, action: int) -> None:
    assert seat.wait_to_decide()
    seat.act(action)
    assert seat.until("ack")["t"] == "ack"


def seat0_wins(client: Any, table_id: str, token0: str, token1: str) -> dict[str, Any]:
    """Play the one-round tiny game: seat 0 raises, seat 1 passes, so seat 0 wins ([1, 0])."""
    with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
        seat0, seat1 = Seat(ws0), Seat(ws1)
        seat0.hello(token0)
        seat1.hello(token1)
        decide(seat0, 1)
        decide(seat1, 0)
        over = seat0.until("over")
    assert over["returns"] == [1.0, 0.0]
    return over


def wait_until(check: Any, seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def rows(database: str, query: sa.Executable) -> list[dict[str, Any]]:
    """The rows of ``query``, read straight from the database."""

    async def read() -> list[dict[str, Any]]:
        engine = create_async_engine(async_url(database))
        try:
            async with engine.connect() as connection:
                return [dict(row._mapping) for row in await connection.execute(query)]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def board(client: Any, names: Any) -> list[dict[str, Any]]:
    """The tiny-showdown board of two, only the players in ``names`` (the PostgreSQL database is
    shared by the session's tests)."""
    answer = client.get("/api/leaderboard", params={"game": "tiny-showdown", "players": 2})
    assert answer.status_code == 200, answer.text
    return [r for r in answer.json()["ratings"] if r["name"] in set(names)]


class Names:
    """Unique account names for one test: ``names.ann`` is ``Ann`` and a random suffix."""

    def __init__(self) -> None:
        self.suffix = secrets.token_hex(3)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        return name.capitalize() + self.suffix


def rated_at(database: str, table_id: str) -> dict[str, Any]:
    from shadowtable.server import schema

    found = rows(
        database, sa.select(schema.tables.c.rated, schema.tables.c.rated_at).where(schema.tables.c.id == table_id)
    )
    return found[0]
