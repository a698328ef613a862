"""A seat vacated in play goes to a bot and is not free: only its player (the token they left with)
takes it back, or someone the host invites with a single-use code; and a token holding a seat
takes a second one only by asking to move.  Over REST and the WebSocket, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from server.conftest import _admin, _postgres_url
from server.test_tokens import signed
from server.wire import Seat, create, two_humans


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def leave(client: Any, table_id: str, token: str) -> dict[str, Any]:
    left = client.post(f"/api/tables/{table_id}/leave", headers=bearer(token))
    assert left.status_code == 200, left.text
    client.cookies.clear()  # the next requests are a stranger's unless a token is sent
    info: dict[str, Any] = left.json()
    return info


def test_a_seat_left_in_play_is_played_by_a_bot_and_nobody_else_can_sit_there(serve: Any) -> None:
    with serve() as client:
        table_id, _token0, token1 = two_humans(client)
        info = leave(client, table_id, token1)
        assert info["status"] == "playing"
        assert info["seats"][1] | {"name": None} == {
            "seat": 1,
            "kind": "human",
            "bot": None,
            "name": None,
            "taken": True,
            "bot_playing": True,
            "vacated": True,
            "reserved_until": None,
        }
        wanted = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Mallory"})
        assert wanted.status_code == 409
        assert wanted.json() == {
            "error": "seat 1 is played by a bot since its player left: only that player, or someone the table's"
            " host invites, can take it"
        }
        anywhere = client.post(f"/api/tables/{table_id}/join", json={})
        assert anywhere.status_code == 409 and anywhere.json() == {"error": "every seat is taken"}
        assert "shadowtable_seat" not in anywhere.headers.get("set-cookie", "")
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["vacated"] is True


def test_the_leaver_takes_the_seat_back_with_their_token_and_nobody_else_can(serve: Any) -> None:
    with serve() as client:
        table_id, token0, token1 = two_humans(client)
        leave(client, table_id, token1)
        # no token, the other seat's token, a token signed elsewhere: refused, nothing changes
        assert client.post(f"/api/tables/{table_id}/return").status_code == 403
        assert client.post(f"/api/tables/{table_id}/return", headers=bearer(token0)).status_code == 409
        forged = signed([table_id, 1, "guessed"], secret="not-the-server-secret")
        assert client.post(f"/api/tables/{table_id}/return", headers=bearer(forged)).status_code == 403
        assert client.post(
            f"/api/tables/{table_id}/return", headers=bearer(signed([table_id, 1, "guessed"]))
        ).json() == {"error": "the seat token was revoked: the seat was given up or passed to another player"}
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["vacated"] is True
        back = client.post(f"/api/tables/{table_id}/return", headers=bearer(token1))
        assert back.status_code == 200, back.text
        assert back.json()["seat"] == 1 and back.json()["token"] == token1
        assert back.json()["table"]["seats"][1]["vacated"] is False
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            assert seat.hello(token1)["seat"] == 1
            assert seat.view is not None and seat.view["obs"]["seat"] == 1
            notices = [m["text"] for m in seat.received if m["t"] == "notice"]
            assert "Player 2 is back" in notices
        assert client.post(f"/api/tables/{table_id}/return", headers=bearer(token1)).status_code == 409


def test_on_the_socket_a_stranger_gets_no_view_of_a_vacated_seat_and_the_leaver_takes_it_back(serve: Any) -> None:
    with serve() as client:
        table_id, _token0, token1 = two_humans(client)
        leave(client, table_id, token1)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            stranger = Seat(ws)
            welcome = stranger.hello(signed([table_id, 1, "guessed"]))
            assert welcome == {
                "t": "refused",
                "why": "the seat token was revoked: the seat was given up or passed to another player",
            }
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            stranger = Seat(ws)
            stranger.send({"t": "hello", "take_back": True})  # asking without a token is watching
            assert stranger.read()["seat"] is None
            assert stranger.until("view")["obs"]["seat"] is None
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            leaver = Seat(ws)
            refused = leaver.hello(token1)
            assert refused["t"] == "refused" and refused["why"].startswith("you left this seat and a bot plays it")
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            leaver = Seat(ws)
            leaver.send({"t": "hello", "token": token1, "take_back": True})
            assert leaver.read()["seat"] == 1
            assert leaver.until("view")["obs"]["seat"] == 1
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1] | {"name": None} == {
            "seat": 1,
            "kind": "human",
            "bot": None,
            "name": None,
            "taken": True,
            "bot_playing": False,
            "vacated": False,
            "reserved_until": None,
        }


def test_the_host_invites_someone_to_a_vacated_seat_with_a_link_that_works_once(serve: Any) -> None:
    with serve() as client:
        table_id, token0, token1 = two_humans(client)
        assert client.get(f"/api/tables/{table_id}").json()["host_seat"] == 0
        # only for a vacated seat, only by the host
        assert (
            client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0)).status_code == 409
        )
        leave(client, table_id, token1)
        assert client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}).status_code == 403
        made = client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0))
        assert made.status_code == 200, made.text
        code = made.json()["code"]
        assert made.json()["url"] == f"/t/{table_id}/invite/{code}"
        guessed = client.post(f"/api/tables/{table_id}/join", json={"invite": "x" * len(code)})
        assert guessed.status_code == 409 and "invite link is not valid" in guessed.json()["error"]
        # the host cannot use it for a second seat
        own = client.post(f"/api/tables/{table_id}/join", json={"invite": code}, headers=bearer(token0))
        assert own.status_code == 409 and "already sit at seat 0" in own.json()["error"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"invite": code, "name": "Cy"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1 and joined.json()["table"]["seats"][1]["name"] == "Cy"
        client.cookies.clear()
        again = client.post(f"/api/tables/{table_id}/join", json={"invite": code, "name": "Dee"})
        assert again.status_code == 409
        assert again.json() == {
            "error": "this invite link is not valid: it was used, replaced by a newer one or expired"
        }
        # the leaver's right to take it back ended with the invite's use
        assert client.post(f"/api/tables/{table_id}/return", headers=bearer(token1)).status_code == 403
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            invited = Seat(ws)
            assert invited.hello(joined.json()["token"])["seat"] == 1
            assert invited.view is not None and invited.view["obs"]["seat"] == 1


def test_a_newer_invite_replaces_the_older_and_the_leaver_may_still_come_back_first(serve: Any) -> None:
    with serve() as client:
        table_id, token0, token1 = two_humans(client)
        leave(client, table_id, token1)
        first = client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0)).json()["code"]
        second = client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0)).json()["code"]
        assert first != second
        assert client.post(f"/api/tables/{table_id}/join", json={"invite": first}).status_code == 409
        assert client.post(f"/api/tables/{table_id}/return", headers=bearer(token1)).status_code == 200
        client.cookies.clear()
        assert client.post(f"/api/tables/{table_id}/join", json={"invite": second}).status_code == 409


def test_a_token_holding_a_seat_takes_another_only_by_moving_before_the_start(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=3, name="Ann")
        table_id, token = answer["table"]["id"], answer["token"]
        second = client.post(f"/api/tables/{table_id}/join", json={"seat": 2}, headers=bearer(token))
        assert second.status_code == 409
        assert second.json() == {
            "error": "you already sit at seat 0 of this table: ask to move (move: true) to give it up for seat 2"
        }
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["taken"] for s in seats] == [True, False, False]
        moved = client.post(f"/api/tables/{table_id}/join", json={"seat": 2, "move": True}, headers=bearer(token))
        assert moved.status_code == 200, moved.text
        info = moved.json()["table"]
        assert [s["taken"] for s in info["seats"]] == [False, False, True]
        assert info["seats"][2]["name"] == "Ann" and info["host_seat"] == 2
        client.cookies.clear()
        assert client.post(f"/api/tables/{table_id}/start", headers=bearer(token)).status_code == 403
        started = client.post(f"/api/tables/{table_id}/start", headers=bearer(moved.json()["token"]))
        assert started.status_code == 200 and started.json()["status"] == "playing"


def test_the_leaver_of_a_waiting_table_frees_the_seat_and_its_host_rights(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=3, name="Ann")
        table_id = answer["table"]["id"]
        info = leave(client, table_id, answer["token"])
        assert info["seats"][0]["taken"] is False and info["host_seat"] is None
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0})
        assert joined.status_code == 200 and joined.json()["table"]["host_seat"] is None


def _migrate(url: str, revision: str, rows: list[str]) -> list[dict[str, Any]]:
    """Migrate the database at ``url`` to ``revision``, run ``rows`` (SQL), return the seats."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import create_async_engine

    from shadowtable.server import store
    from shadowtable.server.store import async_url

    def upgrade(connection: sa.Connection) -> list[dict[str, Any]]:
        config = Config()
        config.set_main_option("script_location", str(Path(store.__file__).with_name("migrations")))
        config.attributes["connection"] = connection
        if revision.startswith("-"):
            command.downgrade(config, revision[1:])
        else:
            command.upgrade(config, revision)
        for sql in rows:
            connection.execute(sa.text(sql))
        return [dict(r._mapping) for r in connection.execute(sa.text("SELECT * FROM seats"))]

    async def run() -> list[dict[str, Any]]:
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as connection:
                return await connection.run_sync(upgrade)
        finally:
            await engine.dispose()

    return asyncio.run(run())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migration_keeps_tables_and_seats_and_goes_both_ways(kind: str, tmp_path: Path) -> None:
    if kind == "sqlite":
        url = str(tmp_path / "old.db")
    else:
        name = "shadowtable_migrate_" + tmp_path.name[-8:].replace("-", "_").lower()
        try:
            asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name}"))
            asyncio.run(_admin(f"CREATE DATABASE {name}"))
        except Exception as exc:  # noqa: BLE001 - unreachable server
            pytest.skip(f"PostgreSQL not reachable: {exc}")
        url = _postgres_url(name)
    insert = [
        "INSERT INTO tables (id, game, version, players, options, status, listed, created_at)"
        " VALUES ('t1', 'tiny-showdown', '1', 2, '{}', 'playing', true, 0)",
        "INSERT INTO seats (table_id, seat, kind, name, key_hash, zombie) VALUES ('t1', 0, 'human', 'Ann', 'k', false)",
    ]
    try:
        old = _migrate(url, "0003", insert)
        assert "left_hash" not in old[0]
        new = _migrate(url, "head", [])
        assert new[0]["name"] == "Ann" and new[0]["key_hash"] == "k"
        assert (new[0]["left_hash"], new[0]["invite_hash"], new[0]["invite_expires"]) == (None, None, None)
        back = _migrate(url, "-0003", [])
        assert back[0]["name"] == "Ann" and "invite_hash" not in back[0]
    finally:
        if kind == "postgresql":
            asyncio.run(_admin(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)"))


def test_an_expired_invite_is_refused(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from shadowtable.server import service

    monkeypatch.setattr(service, "INVITE_TTL_S", -1)
    with serve() as client:
        table_id, token0, token1 = two_humans(client)
        leave(client, table_id, token1)
        code = client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0)).json()["code"]
        late = client.post(f"/api/tables/{table_id}/join", json={"invite": code})
        assert late.status_code == 409 and "invite link is not valid" in late.json()["error"]
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["vacated"] is True


def test_invite_codes_never_reach_the_logs(serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from shadowtable.server.logs import JsonFormatter, RedactInvites

    caplog.set_level(logging.DEBUG)
    with serve() as client:
        table_id, token0, token1 = two_humans(client)
        leave(client, table_id, token1)
        code = client.post(f"/api/tables/{table_id}/invite", json={"seat": 1}, headers=bearer(token0)).json()["code"]
        client.post(f"/api/tables/{table_id}/join", json={"invite": code})
        client.post(f"/api/tables/{table_id}/join", json={"invite": code})
    formatter = JsonFormatter()
    assert caplog.records and all(code not in formatter.format(r) for r in caplog.records)
    # the access log line of the invite link (as uvicorn writes it) keeps the path, not the code
    access = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", f"/t/x/invite/{code}", "1.1", 200),
        None,
    )
    assert RedactInvites().filter(access)
    line = formatter.format(access)
    assert code not in line and "GET /t/x/invite/… HTTP" in json.loads(line)["message"]
