"""A seat's side of the protocol for tests: say hello, read messages, act."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import WebSocketTestSession


class Seat:
    """A WebSocket of one seat (or a spectator) with the messages it has received."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.over: dict[str, Any] | None = None
        self.sent = 0

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.received.append(message)
        if message["t"] == "view":
            self.view = message
            self.events.extend(message["events"])
        elif message["t"] == "over":
            self.over = message
        return message

    def until(self, kind: str, limit: int = 10_000) -> dict[str, Any]:
        """Read until a message of ``kind`` arrives; returns it."""
        for _ in range(limit):
            message = self.read()
            if message["t"] == kind:
                return message
        raise AssertionError(f"no {kind!r} message in {limit} messages")

    def hello(self, token: str | None = None, v: int | None = None) -> dict[str, Any]:
        """Say hello; returns the welcome (then the first view has been read too)."""
        message: dict[str, Any] = {"t": "hello"}
        if token is not None:
            message["token"] = token
        if v is not None:
            message["v"] = v
        self.send(message)
        welcome = self.read()
        if welcome["t"] == "welcome":
            self.until("view")
        return welcome

    def act(self, action: int, *, turn: int | None = None, id: str | None = None) -> str:
        """Send an ``act`` for ``action`` at the current view's turn; returns its id."""
        assert self.view is not None
        self.sent += 1
        act_id = id or f"a{self.sent}"
        self.send({"t": "act", "id": act_id, "turn": self.view["turn"] if turn is None else turn, "action": action})
        return act_id

    def wait_to_decide(self, limit: int = 10_000) -> bool:
        """Read until this seat has legal actions (``True``) or the game is over (``False``)."""
        for _ in range(limit):
            if self.over is not None:
                return False
            if self.view is not None and self.view["legal"]:
                return True
            self.read()
        raise AssertionError("the seat never got to decide")


def create(client: Any, **body: Any) -> dict[str, Any]:
    """POST /api/tables; returns the answer (asserting 201)."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def play_out(seat: Seat, choose: Any = None) -> dict[str, Any]:
    """Play ``seat`` until the game ends (the first legal action, or ``choose(view)``); returns ``over``."""
    while seat.wait_to_decide():
        assert seat.view is not None
        action = choose(seat.view) if choose else seat.view["legal"][0][0]
        seat.act(action)
        ack = seat.read()
        while ack["t"] not in ("ack", "reject"):
            ack = seat.read()
        assert ack["t"] == "ack", ack
        seat.view = {**seat.view, "legal": None}  # that choice is made: wait for the next view
    assert seat.over is not None
    return seat.over


def two_humans(client: Any) -> tuple[str, str, str]:
    """A tiny-showdown table in play with two human seats: its id and the tokens of seats 0 and 1."""
    answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
    table_id = answer["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()  # each socket says whose it is in its hello
    return table_id, answer["token"], joined.json()["token"]


def stored(database: str, table_id: str) -> dict[str, list[tuple[Any, ...]]]:
    """What the database holds for ``table_id``: its row, seats, actions and chat (read directly)."""
    import asyncio

    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from shadowtable.server import schema
    from shadowtable.server.store import async_url

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        engine = create_async_engine(async_url(database))
        try:
            async with engine.connect() as connection:
                out = {}
                for table, order in (
                    (schema.tables, schema.tables.c.id),
                    (schema.seats, schema.seats.c.seat),
                    (schema.actions, schema.actions.c.idx),
                    (schema.chat, schema.chat.c.seq),
                ):
                    key = table.c.id if table is schema.tables else table.c.table_id
                    rows = await connection.execute(sa.select(table).where(key == table_id).order_by(order))
                    out[table.name] = [tuple(row) for row in rows]
                return out
        finally:
            await engine.dispose()

    return asyncio.run(read())


BROWSER = {"Origin": "http://testserver"}
"""What a browser sends with every state-changing request from the server's own pages."""
