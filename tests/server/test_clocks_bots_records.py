"""Clocks, bots in worker processes, and records that the command line replays."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from server.wire import BROWSER, Seat, create, play_out
from shadowtable.cli import main
from shadowtable.core.record import GameRecord


def test_running_out_of_time_lets_a_bot_take_the_seat(serve: Any) -> None:
    with serve() as client:
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "bot:random"],
            clock={"initial_s": 1, "bonus_s": 0, "on_timeout": "bot"},
        )
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.view is not None and seat.view["clock"]["initial_s"] == 1
            notice = seat.until("notice")
            assert notice["text"] == "Player 1 ran out of time: a bot plays for them"
            seat.until("over")
        info = client.get(f"/api/tables/{answer['table']['id']}").json()
        assert info["status"] == "over" and info["seats"][0]["bot_playing"] is True


def test_skip_makes_one_move_and_gives_the_seat_its_bonus(serve: Any) -> None:
    with serve() as client:
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "bot:random"],
            options={"rounds": 2},
            clock={"initial_s": 1, "bonus_s": 7, "on_timeout": "skip"},
        )
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.until("notice")["text"] == "Player 1 ran out of time: a bot makes this move for them"
            seat.view = None
            assert seat.wait_to_decide()  # the seat decides again, itself
            assert seat.view is not None
            clock = seat.view["clock"]
            assert clock["running"] is True and 5000 < clock["ms_left"] <= 7000
            info = client.get(f"/api/tables/{answer['table']['id']}").json()
            assert info["seats"][0]["bot_playing"] is False


def test_clocks_are_stored_and_survive_a_restart(serve: Any) -> None:
    clock = {"initial_s": 100, "bonus_s": 5, "on_timeout": "bot"}
    with serve() as client:
        answer = create(
            client, game="tiny-showdown", players=2, seats=["human", "bot:random"], options={"rounds": 2}, clock=clock
        )
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.wait_to_decide() and seat.view is not None
            time.sleep(0.3)
            seat.act(seat.view["legal"][0][0])
            seat.until("ack")
            seat.view = {**seat.view, "legal": None}
            assert seat.wait_to_decide() and seat.view is not None
            spent = seat.view["clock"]["ms_left"]
            assert 100_000 < spent <= 104_700  # 100 s, less the time taken, plus the 5 s bonus
    with serve() as client, client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
        seat = Seat(ws)
        seat.hello(answer["token"])
        assert seat.view is not None
        assert spent - 2000 < seat.view["clock"]["ms_left"] <= spent  # not reset to 100 s


@pytest.mark.parametrize("game, players", [("tiny-showdown", 3), ("shadow-planet", 3)])
def test_bots_play_a_whole_table_in_worker_processes(sqlite_database: str, game: str, players: int) -> None:
    from fastapi.testclient import TestClient

    from server.conftest import config_for
    from shadowtable.server.app import create_app

    config = config_for(sqlite_database, bot_workers=1, bot_budget_s=30.0)
    with TestClient(create_app(config), headers=BROWSER) as client:
        answer = create(client, game=game, players=players, seats=["bot:random"] * players)
        assert answer["seat"] is None and answer["token"] is None
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            watcher = Seat(ws)
            watcher.hello()
            over = watcher.until("over", limit=100_000)
        assert GameRecord.from_json(over["record"]).players == players


def test_a_downloaded_record_replays_on_the_command_line(
    serve: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve() as client:
        # a short game: random play rarely ends one on a table's 1000 turns
        options = {"turn_cap": 20}
        answer = create(client, game="shadowlord", players=2, seats=["human", "bot:random"], options=options)
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            play_out(seat)
        response = client.get(f"/api/tables/{answer['table']['id']}/record")
        assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_text(response.text, encoding="utf-8")
    assert main(["replay", str(path), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "1 record replayed identically" in out and "shadowlord" in out
    from shadowtable.tui.replay_view import ReplayApp

    shown: list[int] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: shown.append(len(self.actions)))
    assert main(["view", str(path), "--seat", "1"]) == 0
    assert shown and shown[0] == len(GameRecord.loads(response.text).actions)


def test_acting_takes_the_seat_back_from_the_bot(serve: Any) -> None:
    with serve(bot_delay_s=1.0) as client:
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "bot:random"],
            clock={"initial_s": 1, "bonus_s": 10, "on_timeout": "bot"},
        )
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            assert seat.until("notice")["text"] == "Player 1 ran out of time: a bot plays for them"
            assert seat.view is not None and seat.view["legal"]  # the bot waits a second: the seat still decides
            seat.act(seat.view["legal"][0][0], id="mine")
            assert seat.until("ack")["id"] == "mine"
            assert seat.until("notice")["text"] == "Player 1 is back"
        info = client.get(f"/api/tables/{answer['table']['id']}").json()
        assert info["seats"][0]["bot_playing"] is False
