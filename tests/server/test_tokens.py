"""Seat tokens and origins: forged, expired and revoked tokens are refused on the socket and over
REST, a foreign page cannot open a socket, and no token ever reaches the logs."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from starlette.websockets import WebSocketDisconnect

from server.conftest import config_for
from server.wire import BROWSER, Seat, create, two_humans
from shadowtable.server.app import create_app
from shadowtable.server.logs import JsonFormatter
from shadowtable.server.tokens import SeatTokens, TokenError

SECRET = "test-secret"  # conftest's config_for
SALT = "shadowtable-seat"


@pytest.fixture
def serve_sqlite(sqlite_database: str) -> Callable[..., TestClient]:
    """``serve`` on SQLite only."""

    def start(**overrides: Any) -> TestClient:
        return TestClient(create_app(config_for(sqlite_database, **overrides)), headers=BROWSER)

    return start


def signed(payload: Any, *, secret: str = SECRET, age_s: int = 0) -> str:
    """``payload`` signed as a seat token would be, ``age_s`` seconds ago."""

    class Past(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - age_s

    return str(URLSafeTimedSerializer(secret, salt=SALT, signer=Past).dumps(payload))


def payload(token: str) -> list[Any]:
    """What a genuine token holds: ``[table, seat, key]``."""
    data: list[Any] = URLSafeTimedSerializer(SECRET, salt=SALT).loads(token)
    return data


def refused(client: TestClient, table_id: str, token: str) -> str:
    """Say hello with ``token``: asserts ``refused`` then a closed socket; returns the reason."""
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"t": "hello", "token": token}))
        answer = json.loads(ws.receive_text())
        assert answer["t"] == "refused", answer
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()
    why: str = answer["why"]
    assert why.strip() and "Traceback" not in why
    return why


def welcomed(client: TestClient, table_id: str, token: str) -> int | None:
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = Seat(ws).hello(token)
    assert welcome["t"] == "welcome", welcome
    seat: int | None = welcome["seat"]
    return seat


def forbidden(client: TestClient, table_id: str, token: str | None) -> None:
    """leave, start and rematch with ``token`` (``None``: none at all) are each a 403 with an error."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}".encode()}
    for action in ("leave", "start", "rematch"):
        response = client.post(f"/api/tables/{table_id}/{action}", headers=headers)
        assert response.status_code == 403, (action, token, response.text)
        body = response.json()
        assert list(body) == ["error"] and isinstance(body["error"], str) and body["error"], body


def test_forged_expired_and_revoked_tokens_are_refused(serve: Callable[..., TestClient]) -> None:
    with serve(token_max_age_s=600) as client:
        answer = create(client, game="tiny-showdown", players=3, name="Ann")
        table_id, token0 = answer["table"]["id"], answer["token"]
        token1 = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        other = create(client, game="tiny-showdown", players=2)
        client.cookies.clear()  # only the tokens given below speak
        _, seat0, key0 = payload(token0)
        cases = {
            "random": (secrets.token_urlsafe(40), "not valid"),
            "not a token at all": ("\u00e9t\u00e9", "malformed"),
            "another secret": (signed([table_id, seat0, key0], secret="another-secret"), "not valid"),
            "another table": (other["token"], "not for this table"),
            "no such seat": (signed([table_id, 9, key0]), "not for this table"),
            "another seat's key": (signed([table_id, 1, key0]), "revoked"),
            "a bad payload": (signed([table_id, True, key0]), "not valid"),
            "expired": (signed([table_id, seat0, key0], age_s=3600), "expired"),
        }
        assert welcomed(client, table_id, signed([table_id, seat0, key0], age_s=60)) == seat0  # only age counts
        for name, (token, words) in cases.items():
            assert words in refused(client, table_id, token), name
            forbidden(client, table_id, token)
        forbidden(client, table_id, None)

        left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token1}"})
        assert left.status_code == 200 and left.json()["seats"][1]["taken"] is False
        assert "revoked" in refused(client, table_id, token1)
        forbidden(client, table_id, token1)
        again = client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()["token"]
        client.cookies.clear()
        assert "revoked" in refused(client, table_id, token1)  # a new key for the seat: the old token stays dead
        assert welcomed(client, table_id, again) == 1
        assert welcomed(client, table_id, token0) == 0


def test_leaving_closes_the_seats_open_socket(serve: Callable[..., TestClient]) -> None:
    with serve() as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Seat(ws).hello(token0)
            left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token0}"})
            assert left.status_code == 200
            assert Seat(ws).until("refused")["why"] == "you left this seat"
            with pytest.raises(WebSocketDisconnect):
                while True:
                    ws.receive_text()


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        (None, True),
        ("http://testserver", True),
        ("https://testserver", True),
        ("https://play.example", True),
        ("https://evil.example", False),
        ("https://play.example.evil", False),
        ("http://testserver:8080", False),
        ("ftp://testserver", False),
        ("null", False),
        ("", False),
    ],
)
def test_a_socket_opens_only_from_an_allowed_origin(
    origin: str | None, accepted: bool, serve_sqlite: Callable[..., TestClient]
) -> None:
    headers = {} if origin is None else {"origin": origin}
    with serve_sqlite(allowed_origins=["https://play.example"]) as client:
        table_id, token0, _ = two_humans(client)
        if accepted:
            with client.websocket_connect(f"/ws/{table_id}", headers=headers) as ws:
                assert Seat(ws).hello(token0)["seat"] == 0
            return
        with (
            pytest.raises(WebSocketDisconnect) as refusal,
            client.websocket_connect(f"/ws/{table_id}", headers=headers) as ws,
        ):
            ws.send_text(json.dumps({"t": "hello", "token": token0}))
            ws.receive_text()
        assert refusal.value.code == 4403  # accepted, then closed: a page can tell it from a lost connection


def test_tokens_never_reach_the_logs(serve_sqlite: Callable[..., TestClient], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="shadowtable")
    caplog.set_level(logging.DEBUG, logger="uvicorn")
    with serve_sqlite() as client:
        answer = create(client, game="tiny-showdown", players=2, name="Ann")
        table_id = answer["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Seat(ws).hello(joined)
        forged = signed([table_id, 0, "a-made-up-key"])
        refused(client, table_id, forged)
        for token in (answer["token"], joined):
            left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token}"})
            assert left.status_code == 200
    secrets_ = [answer["token"], joined, forged, *(payload(t)[2] for t in (answer["token"], joined, forged))]
    events = {getattr(record, "event", None) for record in caplog.records}
    assert {"create", "join"} <= events, events  # the capture works
    formatter = JsonFormatter()
    for record in caplog.records:
        shown = formatter.format(record) + repr(vars(record))
        for secret in secrets_:
            assert secret not in shown, record


def test_reading_a_token_refuses_anything_but_ascii_text() -> None:
    tokens = SeatTokens(SECRET, 60)
    genuine = tokens.issue("t", 0, "k")
    assert tokens.read(genuine).key == "k"
    for bad in (None, 5, "", "x" * 513, "\ud800", genuine + "\u00e9", ["t", 0, "k"]):
        with pytest.raises(TokenError):
            tokens.read(bad)
