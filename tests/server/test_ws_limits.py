"""The WebSocket path costs bounded work: views built once per table version and reused, frame
and chat rates, sockets per client, bounded outboxes, the documented close codes, act ids that
cannot be reused for another decision, and bad frames logged in one line."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.conftest import config_for
from server.wire import BROWSER, Seat, create, two_humans
from shadowtable.core.registry import make
from shadowtable.core.wording import SeatNames
from shadowtable.server import app as app_module
from shadowtable.server import logs
from shadowtable.server import sending as sending_module
from shadowtable.server.app import create_app
from shadowtable.server.connections import Connection
from shadowtable.server.live import Channel, LiveTable, replayed
from shadowtable.server.outbox import Outbox
from shadowtable.server.views import encode, seat_view

PING = '{"t":"ping"}'
SYNC = '{"t":"sync","v":0}'


@pytest.fixture
def serve_sqlite(sqlite_database: str) -> Callable[..., TestClient]:
    def start(**overrides: Any) -> TestClient:
        return TestClient(create_app(config_for(sqlite_database, **overrides)), headers=BROWSER)

    return start


def finished_table(client: TestClient) -> str:
    """A Shadow Planet table that bots played to its end: a long log."""
    answer = create(client, game="shadow-planet", players=3, seats=["bot:random"] * 3, sit=False)
    table_id: str = answer["table"]["id"]
    deadline = time.monotonic() + 60  # a guard: bots in a thread finish a game in about a second
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.05)
    return table_id


def read_until(ws: Any, kind: str) -> dict[str, Any]:
    """Read until a message of ``kind`` (only where one is sure to come)."""
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["t"] == kind:
            return message


def replies(ws: Any, frame: str) -> list[dict[str, Any]]:
    """Send ``frame`` then a ping; the messages before the pong, presence news left out."""
    ws.send_text(frame)
    ws.send_text(PING)
    out = []
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["t"] == "pong":
            return out
        if message["t"] != "presence":
            out.append(message)


def only(messages: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The one message of ``kind`` among ``messages``."""
    found = [m for m in messages if m["t"] == kind]
    assert len(found) == 1, messages
    return found[0]


def closed_with(ws: Any) -> int:
    """The code the server closed ``ws`` with (0: it answers a ping, so it is open)."""
    ws.send_text(PING)
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()  # any answer (a pong, a reject before hello) tells an open socket
        return 0
    return closed.value.code


# -- views built once ----------------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often views were built: the page renderer and the state's view parts, counted."""
    counts = {"render": 0, "parts": 0}
    render, parts = app_module.view_fragments, sending_module.view_parts

    def counting_render(*args: Any) -> dict[str, str]:
        counts["render"] += 1
        return render(*args)

    def counting_parts(*args: Any) -> dict[str, Any]:
        counts["parts"] += 1
        return parts(*args)

    monkeypatch.setattr(app_module, "view_fragments", counting_render)
    monkeypatch.setattr(sending_module, "view_parts", counting_parts)
    return counts


@pytest.mark.parametrize("html", [False, True])
def test_a_sync_flood_on_a_finished_table_builds_its_view_once(
    html: bool, serve_sqlite: Callable[..., TestClient], counted: dict[str, int]
) -> None:
    with serve_sqlite() as client:
        table_id = finished_table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_text(json.dumps({"t": "hello", "html": html}))
            first = read_until(ws, "view")
            read_until(ws, "over")
            counted["render"] = counted["parts"] = 0
            texts = set()
            for _ in range(300):
                ws.send_text('{"t":"sync","v":0}')
            for _ in range(300):
                text = ws.receive_text()
                while json.loads(text)["t"] != "view":  # the hello's presence news
                    text = ws.receive_text()
                texts.add(text)
        assert len(texts) == 1  # the same answer each time
        answer = json.loads(texts.pop())
        assert answer["t"] == "view" and answer["events"] == first["events"] and answer["after"] == 0
        assert ("html" in answer) == html
        assert counted == {"render": 0, "parts": 0}, counted  # built for the hello, reused since


def test_views_for_any_version_followed_are_the_messages_of_the_state(serve_sqlite: Callable[..., TestClient]) -> None:
    """The encoded views put together from reused parts hold exactly what the view message of the
    table's state holds, in canonical JSON (sorted keys, the same bytes as encoding it whole)."""
    with serve_sqlite() as client:
        table_id = finished_table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_text(json.dumps({"t": "hello"}))
            read_until(ws, "view")
            record = read_until(ws, "over")["record"]
            game = make(record["game"], players=record["players"], **record["options"])
            live = LiveTable.new(game)
            live.commit(replayed(game, [(0, a) for a in record["actions"]]))
            channel = live.channels[None]
            for since in (0, 1, channel.v // 2, channel.v - 1, channel.v, channel.v + 5):
                ws.send_text(json.dumps({"t": "sync", "v": since}))
                text = ws.receive_text()
                while json.loads(text)["t"] != "view":  # the hello's presence news
                    text = ws.receive_text()
                message = json.loads(text)
                assert encode(message) == text
                after = since if since <= channel.v else 0
                expected = seat_view(
                    game,
                    live.state,
                    None,
                    v=channel.v,
                    after=after,
                    events=channel.since(after),
                    turn=None,
                    presence=message["presence"],
                )
                # the server's additions: every seat's result (the game is over), no clocks
                results = [r.named(SeatNames.of(record["seats"])) for r in live.results()]
                expected.update(results=results, yours=None, out=None, clocks=None, fast_forward=False, undo=0)
                assert message == expected, since


def test_a_channel_gives_the_events_after_any_version_in_one_join() -> None:
    channel = Channel()
    versions: list[list[dict[str, Any]]] = [[{"text": "a"}], [], [{"text": "b", "kind": "x"}, {"text": "é"}], []]
    for events in versions:
        channel.add(events)
    for since in range(len(versions) + 1):
        expected = [event for events in versions[since:] for event in events]
        assert channel.since(since) == expected
        assert channel.since_text(since) == encode(expected)
        assert channel.through(since) == [event for events in versions[:since] for event in events]
    assert channel.since(99) == channel.since(0)


# -- rates -----------------------------------------------------------------------------------------
def test_frames_over_the_rate_are_refused_unprocessed_then_the_socket_is_closed_4429(
    serve_sqlite: Callable[..., TestClient],
) -> None:
    with serve_sqlite(ws_frame_rate="5 per 30 seconds", ws_flood_factor=3) as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_text(json.dumps({"t": "hello"}))  # frame 1
            read_until(ws, "view")
            for _ in range(4):  # frames 2-5: within the rate
                assert only(replies(ws, SYNC), "view")
            for _ in range(10):  # frames 6-15: over it, refused and not answered
                answer = replies(ws, SYNC)
                reject = only(answer, "reject")
                assert len(answer) == 1 and reject["id"] is None, answer
                assert 1 <= reject["retry_after"] <= 30 and "try again in" in reject["why"], reject
            ws.send_text(SYNC)  # frame 16: three times the rate
            assert closed_with(ws) == 4429
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # counted per connection
            assert Seat(ws).hello(token0)["seat"] == 0


def test_the_deciding_seats_acts_are_not_counted(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite(ws_frame_rate="1 per 30 seconds") as client:
        table_id, token0, token1 = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
            seats = [Seat(ws0), Seat(ws1)]
            for seat, token in zip(seats, (token0, token1), strict=True):
                seat.hello(token)  # the one frame each may send
            acked = 0
            for _ in range(2):  # two rounds: each seat passes when it decides
                for seat in seats:
                    seat.wait_to_decide()
                    act_id = seat.act(0)
                    assert seat.until("ack")["id"] == act_id
                    assert seat.view is not None
                    seat.view = {**seat.view, "legal": None}
                    acked += 1
            assert acked == 4
            chat = replies(ws0, json.dumps({"t": "chat", "text": "gg"}))  # not an act: over the rate
            assert only(chat, "reject")["retry_after"] >= 1


def test_pings_have_their_own_rate(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite(ws_frame_rate="1 per 30 seconds", ws_ping_rate="3 per 30 seconds") as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Seat(ws).hello(token0)
            for _ in range(3):
                ws.send_text(PING)
                assert read_until(ws, "pong") == {"t": "pong"}
            ws.send_text(PING)
            reject = json.loads(ws.receive_text())
            assert reject["t"] == "reject" and "pings" in reject["why"] and reject["retry_after"] >= 1, reject


def test_syncs_are_counted_per_client_address_over_all_its_sockets(serve_sqlite: Callable[..., TestClient]) -> None:
    """A ``sync`` answers with a whole view: one address gets a few per window, however many
    sockets it opens; over that a sync is refused while the socket's other frames go on."""
    with serve_sqlite(ws_sync_rate="3 per 60 seconds") as client:
        table_id = finished_table(client)
        url = f"/ws/{table_id}"
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            for ws in (first, second):
                ws.send_text(json.dumps({"t": "hello"}))
                read_until(ws, "view")
            assert [only(replies(ws, SYNC), "view")["after"] for ws in (first, second, first)] == [0, 0, 0]
            for ws in (second, first):
                answer = replies(ws, SYNC)
                reject = only(answer, "reject")
                assert not [m for m in answer if m["t"] == "view"], answer
                assert "syncs" in reject["why"] and 1 <= reject["retry_after"] <= 60, reject
            assert replies(first, PING) == []  # the socket itself goes on


def test_chat_lines_over_the_seats_rate_are_refused_and_not_stored(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite(chat_rate="2 per 60 seconds") as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Seat(ws).hello(token0)
            for text in ("one", "two"):
                ws.send_text(json.dumps({"t": "chat", "text": text}))
                assert read_until(ws, "chat")["text"] == text
            reject = only(replies(ws, json.dumps({"t": "chat", "text": "three"})), "reject")
            assert "chat" in reject["why"] and 1 <= reject["retry_after"] <= 60, reject
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # the limit is the seat's, not the socket's
            assert [line["text"] for line in Seat(ws).hello(token0)["chat"]] == ["one", "two"]
            assert only(replies(ws, json.dumps({"t": "chat", "text": "four"})), "reject")["retry_after"] >= 1


# -- sockets per client ------------------------------------------------------------------------------
def test_a_client_holds_at_most_its_sockets_the_next_is_accepted_then_closed_4429(
    serve_sqlite: Callable[..., TestClient],
) -> None:
    with serve_sqlite(sockets_per_client=2) as client:
        table_id, token0, token1 = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
            Seat(ws0).hello(token0)
            Seat(ws1).hello(token1)
            with client.websocket_connect(f"/ws/{table_id}") as third:
                assert closed_with(third) == 4429
        with client.websocket_connect(f"/ws/{table_id}") as again:  # given back when they closed
            assert Seat(again).hello()["seat"] is None


# -- close codes --------------------------------------------------------------------------------------
def test_an_unknown_table_is_accepted_then_closed_4404(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite() as client, client.websocket_connect("/ws/no-such-table") as ws:
        assert closed_with(ws) == 4404


def test_a_refused_token_closes_4403(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite() as client:
        table_id, token0, _ = two_humans(client)
        left = client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token0}"})
        assert left.status_code == 200
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_text(json.dumps({"t": "hello", "token": token0}))
            assert json.loads(ws.receive_text())["t"] == "refused"
            assert closed_with(ws) == 4403


def test_a_seat_given_up_elsewhere_closes_its_socket_4403(serve_sqlite: Callable[..., TestClient]) -> None:
    with serve_sqlite() as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Seat(ws).hello(token0)
            client.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token0}"})
            assert read_until(ws, "refused")["why"]
            assert closed_with(ws) == 4403


# -- act ids -------------------------------------------------------------------------------------------
def test_an_act_id_resent_with_another_action_is_refused_the_same_one_acked_again(sqlite_database: str) -> None:
    config = config_for(sqlite_database)
    with TestClient(create_app(config), headers=BROWSER) as client:
        table_id, token0, _ = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(token0)
            seat.wait_to_decide()
            assert seat.view is not None
            turn = seat.view["turn"]
            seat.act(1, id="only-once")
            assert seat.until("ack")["id"] == "only-once"
            again = {"t": "act", "id": "only-once", "turn": turn, "action": 1}
            assert only(replies(ws, json.dumps(again)), "ack")["id"] == "only-once"  # resent as it was
            other = replies(ws, json.dumps({**again, "action": 0}))  # the same id, another action
            reject = only(other, "reject")
            assert reject["id"] == "only-once" and "used already" in reject["why"], reject
            assert not [m for m in other if m["t"] == "ack"]
            later = replies(ws, json.dumps({**again, "turn": turn + 1}))  # the same id, another turn
            assert "used already" in only(later, "reject")["why"]
    with TestClient(create_app(config), headers=BROWSER) as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        Seat(ws).hello(token0)  # after a restart: the ids come from the store
        assert "used already" in only(replies(ws, json.dumps({**again, "action": 0})), "reject")["why"]
        assert only(replies(ws, json.dumps(again)), "ack")["id"] == "only-once"


# -- outbox ------------------------------------------------------------------------------------------
def test_an_answer_to_sync_replaces_the_one_still_queued_right_before_it() -> None:
    async def main() -> list[str | None]:
        outbox = Outbox(max_messages=100, max_bytes=10_000)
        outbox.put("view-1", replaceable=True)
        outbox.put("view-2", replaceable=True)  # replaces view-1
        outbox.put("chat")
        outbox.put("view-3", replaceable=True)  # after another message: kept
        outbox.put("view-4", replaceable=True)  # replaces view-3
        outbox.end()
        return [await outbox.get() for _ in range(outbox.qsize())]

    assert asyncio.run(main()) == ["view-2", "chat", "view-4", None]


def test_a_client_that_does_not_read_is_cut_off_with_4429() -> None:
    async def main() -> tuple[Connection, list[str]]:
        cut: list[str] = []
        connection = Connection(max_messages=1000, max_bytes=100)
        connection.on_cut_off = lambda: cut.append("cut")
        for _ in range(10):
            connection.push_text("x" * 30)
        return connection, cut

    connection, cut = asyncio.run(main())
    assert connection.cut_off and cut == ["cut"]
    assert connection.close_code == 4429
    assert connection.outbox.qsize() == 4  # three frames, then the end


# -- bad frames in the log --------------------------------------------------------------------------
@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The server's log configuration, writing to a buffer (restored afterwards)."""
    names = ("shadowtable", "uvicorn", "uvicorn.error", "uvicorn.access")
    saved = {name: (logging.getLogger(name).handlers[:], logging.getLogger(name).propagate) for name in names}
    logs.configure("info")
    stream = io.StringIO()
    for name in names:
        for handler in logging.getLogger(name).handlers:
            assert isinstance(handler, logging.StreamHandler)
            handler.setStream(stream)
    yield stream
    for name, (handlers, propagate) in saved.items():
        logging.getLogger(name).handlers, logging.getLogger(name).propagate = handlers, propagate


def test_a_text_frame_that_is_not_utf8_is_one_log_line(json_log: io.StringIO) -> None:
    try:
        b"\xff\xfe{".decode()
    except UnicodeDecodeError:
        logging.getLogger("uvicorn.error").exception("Invalid UTF-8 sequence received from client.")
    lines = json_log.getvalue().splitlines()
    assert len(lines) == 1, lines
    entry = json.loads(lines[0])
    assert entry["level"] == "warning" and "error" not in entry and "Traceback" not in lines[0]
    assert "can't decode" in entry["reason"]


def test_a_server_fault_keeps_its_traceback(json_log: io.StringIO) -> None:
    try:
        raise KeyError("a bug")
    except KeyError:
        logging.getLogger("uvicorn.error").exception("Exception in ASGI application")
    assert "Traceback" in json.loads(json_log.getvalue().splitlines()[0])["error"]
