"""Undo over the wire: a seat takes back its last decision with an ``undo`` frame; the undo is stored
as a row of its own before it is acknowledged, survives a restart, is told to everyone by name,
and is refused with a reason (changing nothing) when the table or the rules do not allow it."""

from __future__ import annotations

from typing import Any

from server.wire import Seat, create, stored
from shadowtable.core.undo import UNDO_SEAT
from shadowtable.server import schema

GAME = {"game": "shadowlord", "players": 2, "seats": ["human", "human"]}


def _table(client: Any, *, undo: bool) -> tuple[str, str, str]:
    answer = create(client, **GAME, undo=undo)
    table_id = answer["table"]["id"]
    assert answer["table"]["undo"] is undo
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Brook"})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return table_id, answer["token"], joined.json()["token"]


def _decide(seat: Seat) -> dict[str, Any]:
    """Make the seat's first legal choice; returns the first view after it is acknowledged."""
    assert seat.view is not None and seat.view["legal"]
    seat.act(seat.view["legal"][0][0])
    answer = seat.until("ack")
    assert answer["t"] == "ack"
    return seat.until("view")


def _until_undoable(seat: Seat, other: Seat) -> dict[str, Any]:
    """Play (either seat deciding) until a decision of ``seat`` may be taken back; returns the view
    ``seat`` had before that decision."""
    for _ in range(200):
        player = seat if seat.view and seat.view["legal"] else other
        if not (player.view and player.view["legal"]):
            seat.until("view")
            other.until("view")
            continue
        before = dict(player.view)
        after = _decide(player)
        if player is seat and after["undo"] > 0:
            return before
        (other if player is seat else seat).until("view")
    raise AssertionError("no decision could be taken back")


def test_an_undo_is_stored_told_by_name_and_survives_a_restart(serve: Any, database: str) -> None:
    with serve() as client:
        table_id, token0, token1 = _table(client, undo=True)
        assert stored(database, table_id)["tables"][0][-1] is True  # the undo column
        with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
            ada, brook = Seat(ws0), Seat(ws1)
            ada.hello(token0)
            brook.hello(token1)
            assert ada.view is not None and ada.view["undo"] == 0
            before = _until_undoable(ada, brook)
            rows = len(stored(database, table_id)["actions"])
            ada.send({"t": "undo", "id": "u1"})
            assert ada.until("ack")["id"] == "u1"
            actions = stored(database, table_id)["actions"]
            assert len(actions) == rows + 1
            assert (actions[-1][2], actions[-1][3]) == (UNDO_SEAT, 1)  # seat column, action column
            view = ada.until("view")
            assert view["obs"] == before["obs"] and view["legal"] == before["legal"]
            assert view["events"][-1]["kind"] == "undo"
            notice = brook.until("notice")
            assert notice["text"] == "Player 1 took back a move"
            back = brook.until("view")
            assert back["undo"] == 0 and back["events"][-1]["kind"] == "undo"
            # nothing more to take back: refused with a reason, and nothing is stored
            if view["undo"] == 0:
                ada.send({"t": "undo", "id": "u2"})
                refused = ada.until("reject")
                assert refused["id"] == "u2" and "take back" in refused["why"]
                assert len(stored(database, table_id)["actions"]) == rows + 1
            # the other seat cannot take back the first seat's decisions
            brook.send({"t": "undo", "id": "b1"})
            assert "take back" in brook.until("reject")["why"]
            assert len(stored(database, table_id)["actions"]) == rows + 1
    with serve() as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        again = Seat(ws)
        again.hello(token0)
        assert again.view is not None
        assert again.view["obs"] == view["obs"] and again.view["legal"] == view["legal"]
        assert any(event["kind"] == "undo" for event in again.view["events"])


def test_a_table_without_undo_refuses_it_and_a_bad_frame_is_refused(serve: Any, database: str) -> None:
    with serve() as client:
        table_id, token0, token1 = _table(client, undo=False)
        with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
            ada, brook = Seat(ws0), Seat(ws1)
            ada.hello(token0)
            brook.hello(token1)
            player = ada if ada.view and ada.view["legal"] else brook
            _decide(player)
            rows = len(stored(database, table_id)["actions"])
            player.send({"t": "undo", "id": "u1"})
            refused = player.until("reject")
            assert refused["id"] == "u1" and "does not allow undo" in refused["why"]
            player.send({"t": "undo", "id": "u2", "count": 0})
            assert "count" in player.until("reject")["why"]
            assert len(stored(database, table_id)["actions"]) == rows
        assert stored(database, table_id)["tables"][0][-1] is False


def test_a_table_that_allows_undo_is_never_rated(serve: Any, database: str) -> None:
    with serve() as client:
        friendly = create(client, **GAME, undo=True)["table"]["id"]
        plain = create(client, **GAME)["table"]["id"]
    rated = [column.name for column in schema.tables.columns].index("rated")
    assert stored(database, friendly)["tables"][0][rated] is False
    assert stored(database, plain)["tables"][0][rated] is True
