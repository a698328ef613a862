"""Turn-based tables: clocks in days read against an injected wall clock (moved forward, never
slept), stored deadlines that survive a restart, timeouts, vacation, the lobby form, the limit on
turn-based tables and the turn-change hook."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server.wire import Seat, create
from shadowtable.server.service import TurnChange

DAY = 86400
HOUR = 3600


class FakeClock:
    """A wall clock the test moves forward."""

    def __init__(self) -> None:
        self.t = 1_900_000_000.0

    def __call__(self) -> float:
        return self.t

    def forward(self, seconds: float) -> None:
        self.t += seconds


def turn_table(client: Any, **turn: Any) -> dict[str, Any]:
    """A tiny-showdown turn-based table, Ada at seat 0 against a bot."""
    return create(
        client,
        game="tiny-showdown",
        players=2,
        seats=["human", "bot:random"],
        options={"rounds": 2},
        name="Ada",
        mode="turn-based",
        turn={"move_s": DAY, "reserve_s": 2 * DAY, "on_timeout": "bot", **turn},
    )


def own_clock(seat: Seat) -> dict[str, Any]:
    assert seat.view is not None and seat.view["clock"] is not None
    clock: dict[str, Any] = seat.view["clock"]
    return clock


def until_info(client: Any, table_id: str, check: Any, tries: int = 400) -> dict[str, Any]:
    """Read the table's public description until ``check`` holds of it."""
    for _ in range(tries):
        info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if check(info):
            return info
        time.sleep(0.05)
    raise AssertionError(f"the table never got there: {info}")


def test_a_clock_in_days_survives_a_restart_and_runs_out_after_it(serve: Any) -> None:
    clock = FakeClock()
    fast = {"now": clock, "turn_check_s": 0.05}
    with serve(**fast) as client:
        answer = turn_table(client)
        table_id = answer["table"]["id"]
        assert answer["table"]["mode"] == "turn-based" and answer["table"]["turn"]["move_s"] == DAY
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.wait_to_decide()
            while not own_clock(seat)["running"]:  # the decision's deadline is being stored
                seat.read()
            assert own_clock(seat)["ms_left"] == 3 * DAY * 1000  # a day for the move, two in reserve
            clock.forward(DAY + 12 * HOUR)  # half a day past the move's own time: the reserve pays it
            seat.act(seat.view["legal"][0][0])  # type: ignore[index]
            seat.until("ack")
            seat.view = {**seat.view, "legal": None}  # type: ignore[dict-item]
            assert seat.wait_to_decide()
            left = own_clock(seat)
            while not left["running"]:  # the next decision's deadline is being stored
                seat.read()
                left = own_clock(seat)
            assert left["ms_left"] == (DAY + DAY + 12 * HOUR) * 1000  # a day, and 1.5 days of reserve
    clock.forward(DAY)  # the server is down for a day: nobody is connected
    with serve(**fast) as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        watcher = Seat(ws)
        watcher.hello()
        assert watcher.view is not None
        ada = next(c for c in watcher.view["clocks"] if c["seat"] == 0)
        assert ada["running"] is True and ada["ms_left"] == (DAY + 12 * HOUR) * 1000  # the stored deadline held
    clock.forward(2 * DAY)  # past the deadline while the server is down
    with serve(**fast) as client:
        info = until_info(client, table_id, lambda i: i["seats"][0]["bot_playing"] or i["status"] == "over")
        assert info["seats"][0]["bot_playing"] is True  # the passed deadline fired once the server was up


def test_an_absent_player_running_out_hands_the_seat_to_a_bot_and_everyone_is_told(serve: Any) -> None:
    clock = FakeClock()
    turns: list[TurnChange] = []
    with serve(now=clock, turn_check_s=0.05) as client:

        async def hook(change: TurnChange) -> None:
            turns.append(change)

        client.app.state.service.on_turn.append(hook)
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "human"],
            name="Ada",
            mode="turn-based",
            turn={"move_s": HOUR, "reserve_s": 0, "on_timeout": "bot"},
        )
        table_id = answer["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            bo = Seat(ws)
            bo.hello(joined.json()["token"])
            assert bo.view is not None
            while bo.view["legal"]:  # Bo plays until Ada, who is not connected, decides
                bo.act(bo.view["legal"][0][0])
                bo.until("ack")
                bo.view = {**bo.view, "legal": None}
                bo.until("view")
            while not (ada := next(c for c in bo.view["clocks"] if c["seat"] == 0))["running"]:
                bo.until("view")  # Ada's deadline is being stored
            assert ada["ms_left"] == HOUR * 1000
            clock.forward(HOUR + 1)
            assert bo.until("notice")["text"] == "Ada ran out of time; a bot plays for Ada"
        info = until_info(client, table_id, lambda i: i["seats"][0]["bot_playing"])
        assert info["seats"][0]["bot_playing"] is True
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            back = Seat(ws)
            welcome = back.hello(answer["token"])  # Ada takes her seat back by coming back
            told = [m.get("text") for m in back.received if m["t"] == "notice"]
            if welcome["table"]["status"] == "playing":
                if "Ada is back" not in told:  # the notice may follow the welcome and the view
                    told.append(back.until("notice").get("text"))
                assert "Ada is back" in told, [(m["t"], m.get("text"), m.get("seat")) for m in back.received]
                assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["bot_playing"] is False
            else:  # the random bot folded for Ada, which ends tiny-showdown: there is no seat to take back
                assert welcome["table"]["status"] == "over" and "Ada is back" not in told
    # the PostgreSQL database is shared by the session: tables other tests left are resumed too
    turns = [t for t in turns if t.table_id == table_id]
    assert turns and all(t.mode == "turn-based" for t in turns)
    assert turns[0].seats and all(len(t.seats) <= 1 for t in turns)
    assert all(a.seats != b.seats for a, b in zip(turns, turns[1:], strict=False))  # only changes are told


def test_vacation_moves_the_deadline_within_what_the_table_allows(serve: Any) -> None:
    clock = FakeClock()
    with serve(now=clock, turn_check_s=0.05) as client:
        answer = turn_table(client, vacation_days=3)
        table_id, token = answer["table"]["id"], answer["token"]
        auth = {"Authorization": f"Bearer {token}"}
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(token)
            assert seat.wait_to_decide()
            while not own_clock(seat)["running"]:
                seat.read()
            assert client.post(f"/api/tables/{table_id}/away", json={"days": 2}, headers=auth).status_code == 200
            assert seat.until("notice")["text"] == "Ada is on vacation: their clock waits for 2 days"
            clock.forward(4 * DAY)  # past the first deadline (3 days), not past the moved one (5)
            time.sleep(0.3)
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["seats"][0]["bot_playing"] is False
            refused = client.post(f"/api/tables/{table_id}/away", json={"days": 2}, headers=auth)
            assert refused.status_code == 409 and "1 left" in refused.json()["error"]
            clock.forward(DAY + 1)
            assert seat.until("notice")["text"] == "Ada ran out of time; a bot plays for Ada"


def test_vacation_is_refused_where_the_table_allows_none(serve: Any) -> None:
    with serve() as client:
        answer = turn_table(client)
        auth = {"Authorization": f"Bearer {answer['token']}"}
        url = f"/api/tables/{answer['table']['id']}/away"
        refused = client.post(url, json={"days": 1}, headers=auth)
        assert refused.status_code == 409 and refused.json()["error"] == "this table allows no vacation"
        assert client.post(url, json={"days": -1}, headers=auth).status_code == 422


def test_the_lobby_form_creates_a_turn_based_table(serve: Any) -> None:
    with serve() as client:
        form = {"game": "tiny-showdown", "players": "2", "seat_1": "bot:random", "name": "Ada", "mode": "turn-based"}
        form.update(move="43200", reserve="86400", turn_on_timeout="skip", vacation="7", clock="300")
        response = client.post("/tables", data=form, follow_redirects=False)
        assert response.status_code == 303, response.text
        table_id = response.headers["location"].rsplit("/", 1)[1]
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["mode"] == "turn-based" and info["clock"] is None  # the real-time clock is not taken
        assert info["turn"] == {"move_s": 43200, "reserve_s": 86400, "on_timeout": "skip", "vacation_days": 7}
        lobby = client.get("/")
        assert "Turn-based" in lobby.text and "12 hours" in lobby.text


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"mode": "weekly"}, 422, "mode"),
        ({"mode": "turn-based", "turn": {"move_s": -3600}}, 422, "move_s"),
        ({"mode": "turn-based", "turn": {"move_s": 60}}, 422, "move_s"),
        ({"mode": "turn-based", "turn": {"on_timeout": "wait"}}, 422, "on_timeout"),
        ({"mode": "turn-based", "clock": {"initial_s": 60}}, 400, "not a real-time clock"),
        ({"turn": {"move_s": 3600}}, 400, "only a turn-based table"),
    ],
)
def test_bad_turn_settings_are_refused(serve: Any, body: dict[str, Any], status: int, words: str) -> None:
    with serve() as client:
        before = client.get("/api/tables").json()
        response = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, **body})
        assert response.status_code == status, response.text
        assert words in response.text
        assert client.get("/api/tables").json() == before  # nothing was created


@pytest.mark.parametrize(("field", "value"), [("mode", "weekly"), ("move", "-3600"), ("vacation", "99")])
def test_bad_lobby_form_fields_are_refused(serve: Any, field: str, value: str) -> None:
    with serve() as client:
        name = f"Zed {field}"
        form = {"game": "tiny-showdown", "players": "2", "seat_1": "bot:random", "mode": "turn-based", field: value}
        response = client.post("/tables", data={**form, "name": name}, follow_redirects=False)
        assert response.status_code == 400, response.text
        tables = client.get("/api/tables", params={"status": "playing"}).json()
        assert all(seat["name"] != name for table in tables for seat in table["seats"])  # nothing was created


def test_a_browser_sits_at_a_bounded_number_of_turn_based_tables(serve: Any) -> None:
    with serve(max_turn_tables=2, max_open_tables=0, max_free_seats=0) as client:
        mine = {turn_table(client)["table"]["id"] for _ in range(2)}
        playing = client.get("/api/tables", params={"status": "playing"}).json()
        refused = client.post(
            "/api/tables",
            json={"game": "tiny-showdown", "players": 2, "mode": "turn-based", "seats": ["human", "bot:random"]},
        )
        assert refused.status_code == 409
        assert refused.json()["error"] == (
            "you sit at 2 turn-based tables already (the most allowed): finish or leave one first"
        )
        assert client.get("/api/tables", params={"status": "playing"}).json() == playing  # nothing new
        assert mine <= {t["id"] for t in playing}
        open_table = create(client, game="tiny-showdown", players=2, mode="turn-based", sit=False)
        joined = client.post(f"/api/tables/{open_table['table']['id']}/join", json={})
        assert joined.status_code == 409 and "2 turn-based tables" in joined.json()["error"]
        create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])  # real-time: no limit


def test_the_service_refuses_past_the_limit_with_a_typed_error(serve: Any) -> None:
    from shadowtable.server.errors import Conflict, TooManyTurnTables

    assert issubclass(TooManyTurnTables, Conflict)
    with serve(max_turn_tables=1) as client:
        first = turn_table(client)
        service = client.app.state.service
        with pytest.raises(TooManyTurnTables):
            client.portal.call(service.check_turn_tables, None, [first["table"]["id"]])
        client.portal.call(service.check_turn_tables, None, [])  # another browser: nothing held


def test_the_table_page_offers_vacation_where_the_table_allows_it(serve: Any) -> None:
    clock = FakeClock()
    with serve(now=clock, turn_check_s=0.05) as client:
        answer = turn_table(client, vacation_days=7)
        table_id = answer["table"]["id"]
        page = client.get(f"/t/{table_id}")
        assert f'action="/t/{table_id}/away"' in page.text
        assert client.post(f"/t/{table_id}/away", data={"days": "x"}, follow_redirects=False).status_code == 400
        went = client.post(f"/t/{table_id}/away", data={"days": "3"}, follow_redirects=False)
        assert went.status_code == 303, went.text
        refused = client.post(f"/t/{table_id}/away", data={"days": "5"}, follow_redirects=False)
        assert refused.status_code == 409 and "4 left" in refused.text
        plain = turn_table(client)["table"]["id"]
        assert "/away" not in client.get(f"/t/{plain}").text
