"""Bad WebSocket frames at a live table: each gets a clear ``reject``, the socket stays usable and
nothing about the table changes (a fixed list on both databases, then Hypothesis on SQLite)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from server.conftest import config_for
from server.wire import BROWSER, stored, two_humans
from shadowtable.server.app import create_app
from shadowtable.server.protocol import MAX_CHAT, MAX_ID, MAX_INT, MAX_NOTATION

MAX_FRAME = 4096
TRACE = re.compile(r"Traceback|File \"|line \d+, in |\bat 0x[0-9a-f]+", re.IGNORECASE)
PING = '{"t":"ping"}'
WHO = ("mover", "waiting", "spectator")
"""The sockets of a live table: seat 0 (to decide now), seat 1 (waiting) and a spectator."""


def frame(message: Any) -> str:
    return json.dumps(message)


def exchange(ws: WebSocketTestSession, bad: str | bytes) -> list[dict[str, Any]]:
    """Send ``bad`` then a ping; the messages received before the pong (a closed socket fails)."""
    if isinstance(bad, bytes):
        ws.send_bytes(bad)
    else:
        ws.send_text(bad)
    ws.send_text(PING)
    out = []
    while True:
        text = ws.receive_text()
        text.encode("utf-8")  # a real server sends UTF-8: a lone surrogate would break the socket
        message: dict[str, Any] = json.loads(text)
        if message["t"] == "pong":
            return out
        out.append(message)


def assert_rejected(replies: list[dict[str, Any]], what: object) -> None:
    """Exactly one ``reject`` with a plain reason, and nothing that tells of a change."""
    rejects = [m for m in replies if m["t"] == "reject"]
    assert len(rejects) == 1, (what, replies)
    why = rejects[0]["why"]
    assert isinstance(why, str) and why.strip(), (what, rejects)
    assert not TRACE.search(why), (what, why)
    assert {m["t"] for m in replies} <= {"reject", "view"}, (what, replies)


@contextmanager
def sockets(client: TestClient, table_id: str, token0: str, token1: str) -> Iterator[dict[str, WebSocketTestSession]]:
    """The greeted sockets of :data:`WHO`, first views read."""
    with ExitStack() as stack:
        out = {}
        for who, token in zip(WHO, (token0, token1, None), strict=True):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))
            ws.send_text(frame({"t": "hello", "token": token} if token else {"t": "hello"}))
            assert json.loads(ws.receive_text())["t"] == "welcome"
            assert json.loads(ws.receive_text())["t"] == "view"
            out[who] = ws
        for ws in out.values():  # presence news of the later arrivals: read up to a pong
            exchange_ping(ws)
        yield out


def exchange_ping(ws: WebSocketTestSession) -> None:
    ws.send_text(PING)
    while json.loads(ws.receive_text())["t"] != "pong":
        pass


def views(ws_by_who: dict[str, WebSocketTestSession]) -> dict[str, dict[str, Any]]:
    """Each socket's whole view (``sync`` from version 0)."""
    out = {}
    for who, ws in ws_by_who.items():
        ws.send_text(frame({"t": "sync", "v": 0}))
        message = json.loads(ws.receive_text())
        assert message["t"] == "view", message
        out[who] = message
    return out


# -- a fixed list, on SQLite and PostgreSQL ----------------------------------------------------------
GOOD_ACT = {"t": "act", "id": "x1", "turn": 0, "action": 0}
FIXED: list[tuple[str, str, str | bytes]] = [
    ("mover", "not JSON", "{not json"),
    ("mover", "empty text", ""),
    ("mover", "JSON null", "null"),
    ("mover", "a JSON list", frame([GOOD_ACT])),
    ("mover", "a JSON string", frame("ping")),
    ("mover", "a number", "12"),
    ("mover", "no type", frame({"id": "x", "turn": 0, "action": 0})),
    ("mover", "unknown type", frame({"t": "move", "id": "x"})),
    ("mover", "type not a string", frame({"t": 1})),
    ("mover", "bool id", frame({**GOOD_ACT, "id": True})),
    ("mover", "float id", frame({**GOOD_ACT, "id": 1.5})),
    ("mover", "empty id", frame({**GOOD_ACT, "id": ""})),
    ("mover", "long id", frame({**GOOD_ACT, "id": "i" * (MAX_ID + 1)})),
    ("mover", "no id", frame({"t": "act", "turn": 0, "action": 0})),
    ("mover", "bool turn", frame({**GOOD_ACT, "turn": False})),
    ("mover", "string turn", frame({**GOOD_ACT, "turn": "0"})),
    ("mover", "float turn", frame({**GOOD_ACT, "turn": 0.0})),
    ("mover", "negative turn", frame({**GOOD_ACT, "turn": -1})),
    ("mover", "huge turn", frame({**GOOD_ACT, "turn": MAX_INT + 1})),
    ("mover", "enormous turn", '{"t":"act","id":"x","turn":' + "9" * 5000 + ',"action":0}'),
    ("mover", "no turn", frame({"t": "act", "id": "x", "action": 0})),
    ("mover", "bool action", frame({**GOOD_ACT, "action": True})),
    ("mover", "float action", frame({**GOOD_ACT, "action": 0.0})),
    ("mover", "negative action", frame({**GOOD_ACT, "action": -1})),
    ("mover", "huge action", frame({**GOOD_ACT, "action": 2**64})),
    ("mover", "illegal action", frame({**GOOD_ACT, "action": 7})),
    ("mover", "largest action", frame({**GOOD_ACT, "action": MAX_INT})),
    ("mover", "action and notation", frame({**GOOD_ACT, "notation": "pass"})),
    ("mover", "neither action nor notation", frame({"t": "act", "id": "x", "turn": 0})),
    ("mover", "number notation", frame({"t": "act", "id": "x", "turn": 0, "notation": 1})),
    ("mover", "empty notation", frame({"t": "act", "id": "x", "turn": 0, "notation": ""})),
    ("mover", "long notation", frame({"t": "act", "id": "x", "turn": 0, "notation": "n" * (MAX_NOTATION + 1)})),
    ("mover", "unknown notation", frame({"t": "act", "id": "x", "turn": 0, "notation": "fold"})),
    ("mover", "a lone surrogate in the id", frame({**GOOD_ACT, "id": "\ud800", "turn": "x"})),
    ("mover", "a lone surrogate in the notation", frame({"t": "act", "id": "x", "turn": 0, "notation": "\udfff"})),
    ("mover", "a future turn", frame({**GOOD_ACT, "turn": 1})),
    ("mover", "a second hello", frame({"t": "hello"})),
    ("mover", "a second hello with a token", frame({"t": "hello", "token": "anything"})),
    ("mover", "a hello with a number token", frame({"t": "hello", "token": 5})),
    ("mover", "a hello with a lone surrogate token", frame({"t": "hello", "token": "\ud800"})),
    ("mover", "a hello with a bad version", frame({"t": "hello", "v": -1})),
    ("mover", "sync without a version", frame({"t": "sync", "v": "1"})),
    ("mover", "sync with a bool", frame({"t": "sync", "v": True})),
    ("mover", "sync negative", frame({"t": "sync", "v": -3})),
    ("mover", "chat not text", frame({"t": "chat", "text": ["hi"]})),
    ("mover", "chat blank", frame({"t": "chat", "text": "   "})),
    ("mover", "chat too long", frame({"t": "chat", "text": "c" * (MAX_CHAT + 1)})),
    ("mover", "chat with a lone surrogate", frame({"t": "chat", "text": "hi \ud83d"})),
    ("mover", "oversize ping", PING + " " * MAX_FRAME),
    ("mover", "oversize in multibyte text", frame({"t": "chat", "text": "é" * (MAX_FRAME // 2)})),
    ("mover", "binary ping", PING.encode()),
    ("mover", "binary junk", bytes(range(256))),
    ("waiting", "an act out of turn", frame(GOOD_ACT)),
    ("waiting", "a notation out of turn", frame({"t": "act", "id": "x", "turn": 0, "notation": "raise"})),
    ("spectator", "a spectator's act", frame(GOOD_ACT)),
    ("spectator", "a spectator's chat", frame({"t": "chat", "text": "hello"})),
    ("spectator", "a spectator's second hello", frame({"t": "hello"})),
]


def test_a_fixed_list_of_bad_frames_is_rejected_and_changes_nothing(database: str) -> None:
    with TestClient(create_app(config_for(database, max_frame=MAX_FRAME)), headers=BROWSER) as client:
        table_id, token0, token1 = two_humans(client)
        with sockets(client, table_id, token0, token1) as ws:
            before, seen = stored(database, table_id), views(ws)
            for who, what, bad in FIXED:
                assert_rejected(exchange(ws[who], bad), what)
            assert stored(database, table_id) == before
            assert views(ws) == seen
            ws["mover"].send_text(frame(GOOD_ACT))  # the table still plays
            assert json.loads(ws["mover"].receive_text()) == {"t": "ack", "id": "x1"}
        assert len(stored(database, table_id)["actions"]) == len(before["actions"]) + 1


def test_frames_before_hello_are_rejected_and_hello_still_works(sqlite_database: str) -> None:
    with TestClient(create_app(config_for(sqlite_database, max_frame=MAX_FRAME)), headers=BROWSER) as client:
        table_id, token0, _ = two_humans(client)
        before = stored(sqlite_database, table_id)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            for bad in (frame(GOOD_ACT), frame({"t": "chat", "text": "hi"}), frame({"t": "sync", "v": 0}), "[", PING):
                ws.send_text(bad)
                reply = json.loads(ws.receive_text())
                assert reply["t"] == "reject" and reply["why"], (bad, reply)
            ws.send_text(frame({"t": "hello", "token": token0}))
            assert json.loads(ws.receive_text())["t"] == "welcome"
            exchange_ping(ws)
        assert stored(sqlite_database, table_id) == before


# -- Hypothesis, on SQLite -------------------------------------------------------------------------
CHARACTERS = st.characters() | st.characters(categories=["Cs"])
"""Any character, often a lone surrogate (JSON carries one as an escape; UTF-8 cannot)."""


def texts(min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[str]:
    mixed = st.lists(CHARACTERS, min_size=min_size, max_size=max_size).map("".join)
    return st.text(min_size=min_size, max_size=max_size) | mixed


SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | texts()
JSON = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts(4), inner, max_size=3), max_leaves=6
)
NOT_COUNT = st.one_of(
    st.booleans(),
    st.integers(max_value=-1),
    st.integers(min_value=MAX_INT + 1),
    st.floats(),
    texts(),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(texts(3), st.integers(), max_size=2),
)
IDS = texts(1, MAX_ID) | st.integers(0, 10**12)
BAD_IDS = st.one_of(
    st.none(), st.booleans(), st.floats(), st.just(""), st.text(min_size=MAX_ID + 1, max_size=MAX_ID + 9), JSON
).filter(lambda v: not (isinstance(v, str) and 0 < len(v) <= MAX_ID) and not _is_id_int(v))
COUNTS = st.integers(0, MAX_INT)


def _is_id_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < len(str(value)) <= MAX_ID


def _lone_surrogate(text: str) -> bool:
    """Whether ``text`` still holds a lone surrogate once sent as JSON (a high and a low one pair up)."""
    try:
        json.loads(json.dumps(text)).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@st.composite
def acts(draw: st.DrawFn, *, turns: st.SearchStrategy[int] = COUNTS) -> dict[str, Any]:
    """A well-formed act (whether it is legal depends on who sends it)."""
    act: dict[str, Any] = {"t": "act", "id": draw(IDS), "turn": draw(turns)}
    if draw(st.booleans()):
        act["action"] = draw(COUNTS)
    else:
        act["notation"] = draw(texts(1, MAX_NOTATION))
    return act


@st.composite
def broken_acts(draw: st.DrawFn) -> dict[str, Any]:
    """An act with at least one field missing or of a wrong type or range."""
    act = draw(acts())
    broken = draw(st.sets(st.sampled_from(["id", "turn", "action", "notation", "both"]), min_size=1))
    for field in broken:
        if field == "id":
            act["id"] = draw(BAD_IDS)
        elif field == "turn":
            act["turn"] = draw(NOT_COUNT | st.none())
        elif field == "action":
            act.pop("notation", None)
            act["action"] = draw(NOT_COUNT)
        elif field == "notation":
            act.pop("action", None)
            act["notation"] = draw(
                st.one_of(st.just(""), st.text(min_size=MAX_NOTATION + 1, max_size=MAX_NOTATION + 5), NOT_COUNT)
            )
        else:
            act["action"], act["notation"] = draw(COUNTS), draw(texts())
    return act


def everyones() -> st.SearchStrategy[str | bytes]:
    """Frames that are bad whoever sends them."""
    bad_chat = st.one_of(
        st.none(),
        JSON.filter(lambda v: not isinstance(v, str)),
        st.text(" \t\n", max_size=5),
        st.text(min_size=MAX_CHAT + 1, max_size=MAX_CHAT + 20),
        texts(1, 8).filter(_lone_surrogate),
    )
    return st.one_of(
        st.text(max_size=40).filter(lambda s: not _parses(s)),
        JSON.filter(lambda v: not isinstance(v, dict)).map(frame),
        st.dictionaries(texts(4), JSON, max_size=3)
        .flatmap(
            lambda d: JSON.filter(lambda t: t not in ("hello", "act", "sync", "chat", "ping")).map(
                lambda t: {**d, "t": t}
            )
        )
        .map(frame),
        broken_acts().map(frame),
        st.fixed_dictionaries({"t": st.just("sync"), "v": NOT_COUNT}).map(frame),
        st.fixed_dictionaries({"t": st.just("chat"), "text": bad_chat}).map(frame),
        st.fixed_dictionaries({"t": st.just("hello")}, optional={"token": JSON, "v": JSON}).map(frame),
        st.integers(0, 64).map(lambda n: PING + " " * (MAX_FRAME - len(PING) + 1 + n)),
        st.binary(max_size=64) | st.just(PING.encode()),
    )


BAD = st.one_of(
    st.tuples(st.sampled_from(WHO), everyones()),
    st.tuples(st.sampled_from(["waiting", "spectator"]), acts().map(frame)),
    st.tuples(st.just("mover"), acts(turns=st.integers(1, MAX_INT)).map(frame)),
    st.tuples(st.just("spectator"), texts(1, MAX_CHAT).map(lambda t: frame({"t": "chat", "text": t}))),
)


def test_generated_bad_frames_are_rejected_and_change_nothing(sqlite_database: str) -> None:
    with TestClient(create_app(config_for(sqlite_database, max_frame=MAX_FRAME)), headers=BROWSER) as client:
        table_id, token0, token1 = two_humans(client)
        with sockets(client, table_id, token0, token1) as ws:
            before, seen = stored(sqlite_database, table_id), views(ws)

            @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
            @given(BAD)
            def bad_frame_is_rejected(sent: tuple[str, str | bytes]) -> None:
                who, bad = sent
                assert_rejected(exchange(ws[who], bad), sent)

            bad_frame_is_rejected()
            assert stored(sqlite_database, table_id) == before
            assert views(ws) == seen
