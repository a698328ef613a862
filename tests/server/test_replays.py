"""Finished tables' replays and records: built once, kept, and the same as replaying the game."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.conftest import config_for
from shadowtable.core.game import TERMINAL
from shadowtable.core.registry import game_class, make
from shadowtable.server import replays
from shadowtable.server.app import create_app
from shadowtable.server.live import LiveTable, plan, replayed
from shadowtable.server.replays import build_index, replay_message
from shadowtable.server.views import seat_view


def played(game_id: str, players: int, seed: int) -> tuple[Any, list[tuple[int, int]]]:
    """A whole game with random legal actions: the game and its ``(seat, action)`` rows."""
    game = make(game_id, players=players)
    rng = random.Random(seed)
    rows: list[tuple[int, int]] = []
    state = game.initial_state()
    for step in plan(game, state, None, None, rng):
        rows.append((step.seat, step.action))
        state = step.after
    while game.current_player(state) != TERMINAL:
        seat = game.current_player(state)
        for step in plan(game, state, seat, rng.choice(game.legal_actions(state)), rng):
            rows.append((step.seat, step.action))
            state = step.after
    return game, rows


def replayed_message(game: Any, rows: list[tuple[int, int]], seat: int | None, step: int) -> dict[str, Any]:
    """The message of ``seat`` after ``step`` actions, worked out by replaying from the start."""
    live = LiveTable.new(game)
    live.commit(replayed(game, rows[:step]))
    channel = live.channels[seat]
    message = seat_view(game, live.state, seat, v=channel.v, events=channel.since(0), turn=None)
    message["legal"] = message["groups"] = None
    return message


@pytest.mark.parametrize(("game_id", "players"), [("tiny-showdown", 2), ("tiny-showdown", 3)])
def test_every_step_from_checkpoints_is_the_step_replayed_from_the_start(game_id: str, players: int) -> None:
    game, rows = played(game_id, players, seed=players)
    index = build_index(game, rows, every=3)
    assert len(index.checkpoints) == len(rows) // 3 + 1
    for seat in [None, *range(players)]:
        for step in range(len(rows) + 1):
            assert replay_message(game, rows, index, seat, step) == replayed_message(game, rows, seat, step)


def test_a_finished_table_is_replayed_once_for_every_page_and_record(
    sqlite_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten replay pages and five records cost one replay of the game, not one each (with a
    checkpoint at every step, a page replays nothing more)."""
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 1)
    app = create_app(config_for(sqlite_database))
    with TestClient(app) as client:
        made = client.post(
            "/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["bot:random"] * 2, "sit": False}
        )
        table_id = made.json()["table"]["id"]
        for _ in range(500):
            if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
                break
            time.sleep(0.01)
        steps = len(client.get(f"/api/tables/{table_id}/record").json()["actions"])
        applied = 0
        cls = game_class("tiny-showdown")
        original = cls.apply_recorded

        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal applied
            applied += 1
            return original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "apply_recorded", counted)
        for seat in ("", "0", "1", "", "0"):
            for step in ("end", str(steps - 1)):
                assert client.get(f"/replay/{table_id}", params={"seat": seat, "step": step}).status_code == 200
            assert client.get(f"/api/tables/{table_id}/record").status_code == 200
        assert applied == steps, f"{applied} steps applied for {steps}-step game's ten pages"
