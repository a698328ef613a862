"""Tables and seats over REST and the WebSocket protocol, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

from server.wire import Seat, create, play_out
from shadowtable.core.record import GameRecord, replay


def test_a_whole_game_with_a_bot_is_stored_acknowledged_and_downloadable(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], name="Ann")
        table = answer["table"]
        assert answer["seat"] == 0 and table["status"] == "playing"
        assert client.get(f"/api/tables/{table['id']}/record").status_code == 409  # secrets until the end
        with client.websocket_connect(f"/ws/{table['id']}") as ws:
            seat = Seat(ws)
            welcome = seat.hello(answer["token"])
            assert welcome["seat"] == 0 and welcome["table"]["seats"][0]["name"] == "Ann"
            over = play_out(seat)
        record = GameRecord.from_json(over["record"])
        assert record.seed is None and over["returns"] == record.returns
        downloaded = client.get(f"/api/tables/{table['id']}/record")
        assert downloaded.status_code == 200
        assert GameRecord.from_json(downloaded.json()).actions == record.actions
        assert client.get(f"/api/tables/{table['id']}").json()["status"] == "over"
        final = replay(record)
        assert final is not None


def test_a_repeated_id_is_acknowledged_again_and_applied_once(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.wait_to_decide()
            assert seat.view is not None
            action, turn = seat.view["legal"][0][0], seat.view["turn"]
            seat.act(action, id="same")
            assert seat.until("ack")["id"] == "same"
            seat.act(action, turn=turn, id="same")
            assert seat.until("ack")["id"] == "same"
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            again = Seat(ws)
            again.hello(answer["token"])
            mine = [e for e in again.events if e["kind"] == "action" and e["text"].startswith("seat 0:")]
            assert len(mine) == 1


def test_a_stale_turn_is_rejected_with_a_fresh_view(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        token0 = answer["token"]
        token1 = client.post(f"/api/tables/{answer['table']['id']}/join", json={"name": "Bo"}).json()["token"]
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws0:
            seat0 = Seat(ws0)
            seat0.hello(token0)
            assert seat0.wait_to_decide() and seat0.view is not None
            turn = seat0.view["turn"]
            with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws1:
                seat1 = Seat(ws1)
                seat1.hello(token1)
                assert seat1.view is not None and seat1.view["legal"] is None
                seat1.act(0, turn=0, id="early")
                reject = seat1.until("reject")
                assert reject == {"t": "reject", "id": "early", "why": "it is not your turn"}
                assert seat1.read()["t"] == "view"
            seat0.act(seat0.view["legal"][0][0], id="first")
            assert seat0.until("ack")["id"] == "first"
            seat0.act(0, turn=turn, id="stale")
            reject = seat0.until("reject")
            assert reject["id"] == "stale" and "stale" in reject["why"]
            assert seat0.read()["t"] == "view"


def test_versions_count_per_seat_and_survive_a_restart(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], options={"rounds": 2})
        table_id = answer["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            seat.wait_to_decide()
            assert seat.view is not None
            seat.act(seat.view["legal"][0][0])
            seat.until("ack")
            seat.view = {**seat.view, "legal": None}
            assert seat.wait_to_decide()  # the bot has moved: nothing more happens until this seat acts
            before = seat.view
            events = list(seat.events)
    with serve() as client:  # a new server process on the same database: the table replays
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.view is not None and before is not None
            assert seat.view["v"] == before["v"] and seat.view["obs"] == before["obs"]
            assert seat.events == events  # from v 0: the whole log again
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"], v=before["v"])
            assert seat.events == []  # nothing new since that version


def test_spectators_see_the_public_view_and_cannot_act_or_chat(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])
        client.cookies.clear()  # the seat's HttpOnly cookie would make this socket the seat's
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            watcher = Seat(ws)
            welcome = watcher.hello()
            assert welcome["seat"] is None
            assert watcher.view is not None and watcher.view["legal"] is None and watcher.view["turn"] is None
            watcher.send({"t": "act", "id": "x", "turn": 0, "action": 0})
            assert watcher.until("reject")["why"] == "spectators cannot act"
            watcher.send({"t": "chat", "text": "hi"})
            assert watcher.until("reject")["why"] == "spectators cannot chat"


def test_chat_is_stored_and_shown_to_later_arrivals(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"], name="Ann")
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            seat.send({"t": "chat", "text": "  good luck  "})
            message = seat.until("chat")
            assert message["text"] == "good luck" and message["name"] == "Ann"
    with serve() as client, client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
        ws.send_text(json.dumps({"t": "hello"}))
        welcome = json.loads(ws.receive_text())
        assert [m["text"] for m in welcome["chat"]] == ["good luck"]


def test_lobby_join_start_and_rematch(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=3, name="Ann")
        table_id = answer["table"]["id"]
        listed = client.get("/api/tables", params={"status": "open"}).json()
        assert table_id in [t["id"] for t in listed]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "seat": 2})
        assert joined.status_code == 200 and joined.json()["seat"] == 2
        assert "httponly" in joined.headers["set-cookie"].lower()
        taken = client.post(f"/api/tables/{table_id}/join", json={"seat": 2})
        assert taken.status_code == 409 and taken.json() == {"error": "seat 2 is not free"}
        headers = {"Authorization": f"Bearer {answer['token']}"}
        started = client.post(f"/api/tables/{table_id}/start", headers=headers)
        assert started.status_code == 200
        info = started.json()
        assert info["status"] == "playing" and info["seats"][1]["kind"] == "bot"
        assert table_id not in [t["id"] for t in client.get("/api/tables").json()]
        assert client.post(f"/api/tables/{table_id}/rematch", headers=headers).status_code == 409


def test_leaving_revokes_the_token_and_a_bot_takes_over(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"])
        table_id = answer["table"]["id"]
        other = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            watcher = Seat(ws)
            watcher.hello(other)
            left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {answer['token']}"})
            assert left.status_code == 200 and left.json()["seats"][0]["bot_playing"] is True
            notice = watcher.until("notice")
            assert "a bot plays for them" in notice["text"]
            over = play_out(watcher)
            assert over["t"] == "over"
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            assert seat.hello(answer["token"]) == {
                "t": "refused",
                "why": "the seat token was revoked: the seat was given up or passed to another player",
            }


def test_an_away_seat_is_played_by_a_bot_and_taken_back_on_return(serve: Any) -> None:
    with serve(grace_s=0.05) as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"], options={"rounds": 2})
        table_id = answer["table"]["id"]
        token1 = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws0:
            seat0 = Seat(ws0)
            seat0.hello(answer["token"])
            with client.websocket_connect(f"/ws/{table_id}") as ws1:
                Seat(ws1).hello(token1)
            notice = seat0.until("notice")
            assert notice["text"] == "Player 2 is away: a bot plays for them"
            with client.websocket_connect(f"/ws/{table_id}") as ws1:
                back = Seat(ws1)
                welcome = back.hello(token1)
                assert welcome["seat"] == 1
            assert seat0.until("notice")["text"] == "Player 2 is back"


def test_bad_requests_get_a_clear_error(serve: Any) -> None:
    with serve() as client:
        cases = [
            ({"game": "nope", "players": 2}, 400, "unknown game"),
            ({"game": "tiny-showdown", "players": 9}, 400, "players"),
            ({"game": "tiny-showdown", "players": 2, "seats": ["human"]}, 400, "expected 2 entries"),
            ({"game": "tiny-showdown", "players": 2, "seats": ["human", "bot:nope"]}, 400, "unknown bot"),
            ({"game": "tiny-showdown", "players": 2, "options": {"colour": 1}}, 400, "colour"),
        ]
        for body, status, words in cases:
            response = client.post("/api/tables", json=body)
            assert response.status_code == status, (body, response.text)
            assert words in response.json()["error"]
        assert client.get("/api/tables/nope").status_code == 404
        assert client.get("/api/tables/../etc").status_code == 404
        assert client.get("/healthz").json()["ok"] is True


def test_a_finished_table_offers_one_rematch_to_everyone(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])
        table_id = answer["table"]["id"]
        headers = {"Authorization": f"Bearer {answer['token']}"}
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            play_out(seat)
            rematch = client.post(f"/api/tables/{table_id}/rematch", headers=headers)
            assert rematch.status_code == 200
            new = rematch.json()
            assert new["status"] == "open" and [s["kind"] for s in new["seats"]] == ["human", "bot"]
            notice = seat.until("notice")
            assert notice == {"t": "notice", "text": "a rematch is open", "rematch": new["id"]}
        again = client.post(f"/api/tables/{table_id}/rematch", headers=headers)
        assert again.json()["id"] == new["id"]
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new["id"]
        assert client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": "Bearer x"}).status_code == 403


def test_a_seat_that_left_before_the_game_started_is_played_by_a_bot_once_it_starts(serve: Any) -> None:
    """Seat 0 sits, connects and leaves while the table waits for seat 1; seat 1 joins and the game
    starts: after the grace period a bot plays seat 0 (before, nobody ever did, and the game waited
    for a player who was gone)."""
    with serve(grace_s=0.05) as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"], options={"rounds": 2})
        table_id = answer["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws0:
            Seat(ws0).hello(answer["token"])
        token1 = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws1:
            seat1 = Seat(ws1)
            seat1.hello(token1)
            notice = seat1.until("notice")
            assert notice["text"] == "Player 1 is away: a bot plays for them"
            over = play_out(seat1)
            assert over["t"] == "over"
