"""The end tells the truth: one result per seat from the game, in the ``over`` message and the last
views; a Shadowlord! seat knocked out mid-game is told at once and why; every seat's clock is
shown to all; a seated player may fast-forward stretches where only bots play."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.conftest import config_for
from server.wire import BROWSER, Seat, create, play_out, two_humans
from shadowtable.core.registry import make
from shadowtable.core.table import replayed
from shadowtable.server.app import create_app
from shadowtable.server.live import LiveTable
from shadowtable.server.sending import view
from shadowtable.server.table import LiveGame, StoredTable, Table
from shadowtable.server.table import Seat as StoredSeat
from shadowtable.testing import random_move


def consistent(results: list[dict[str, Any]], returns: list[float]) -> bool:
    """Results agree with returns: every winner's return is above every loser's, and a draw (or
    nobody winning) leaves every return equal."""
    won = [returns[r["seat"]] for r in results if r["result"] == "won"]
    lost = [returns[r["seat"]] for r in results if r["result"] == "lost"]
    if won:
        return min(won) > max(lost, default=min(won) - 1)
    return len(set(returns)) == 1


@pytest.mark.parametrize(
    ("title", "players", "options"),
    [
        ("shadow-planet", 3, {}),
        # random play rarely ends a game of Shadowlord!: the simulations' turn limit, not the table's 1000
        ("shadowlord", 2, {"turn_cap": 150}),
        ("tiny-showdown", 2, {}),
    ],
)
def test_over_says_each_seats_result_as_the_game_words_it(
    sqlite_database: str, title: str, players: int, options: dict[str, int]
) -> None:
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        seats = ["human", *["bot:random"] * (players - 1)]
        answer = create(client, game=title, players=players, seats=seats, options=options)
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            over = play_out(seat)
    results, returns = over["results"], over["returns"]
    assert [r["seat"] for r in results] == list(range(players))
    assert {r["result"] for r in results} <= {"won", "lost", "drew"}
    assert all(r["why"] and r["name"] for r in results)
    assert [r["name"] for r in results] == over["record"]["seats"]
    assert consistent(results, returns)
    last = seat.view
    assert last is not None and last["results"] == results and last["yours"] == results[0]


def test_results_are_checked_against_returns() -> None:
    won_lost = [{"seat": 0, "result": "won"}, {"seat": 1, "result": "lost"}]
    assert consistent(won_lost, [1.0, 0.0])
    assert not consistent(won_lost, [0.0, 0.0])  # "drew (0)" for a loser is what this catches
    assert not consistent([{"seat": 0, "result": "lost"}, {"seat": 1, "result": "lost"}], [1.0, 0.0])


# -- a Shadowlord! seat knocked out mid-game ------------------------------------------------------------
def knocked_out_game(seed: int = 0) -> tuple[Any, list[tuple[int, int]], int, int]:
    """A seeded three-player Shadowlord! game played by the rules (random choices and draws) to the
    first step that knocks a seat out while the game goes on: the game, its rows, that step's
    index and the seat."""
    game = make("shadowlord", players=3)
    rng, state, rows = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        seat, action = random_move(game, state, rng)
        before_out = list(state.seat_out)
        state = game.apply(state, action)
        rows.append((seat, action))
        out = [k for k in range(3) if state.seat_out[k] and not before_out[k]]
        if out and not game.is_terminal(state):
            return game, rows, len(rows) - 1, out[0]
    raise AssertionError("no seat was knocked out mid-game")


def server_table(game: Any, rows: list[tuple[int, int]]) -> Table:
    seats = [StoredSeat("human", None, f"P{k}", None) for k in range(game.players)]
    table = Table(StoredTable("t", "playing", None, True, 0.0, seats), LiveGame(game, LiveTable.new(game)))
    table.live.tell()
    table.live.commit(replayed(game, rows))
    return table


def test_a_knocked_out_seat_is_told_at_once_and_why_and_no_one_else_is() -> None:
    game, rows, at, out = knocked_out_game()
    before = server_table(game, rows[:at])
    assert all(view(before, seat, 0)["out"] is None for seat in (*range(3), None))
    table = server_table(game, rows[: at + 1])
    since = table.live.channels[out].v - 1  # the view of the step that knocked it out
    told = view(table, out, since)
    assert told["out"] and "You are out of the game" in told["out"] and "left the game" in told["out"]
    assert "in turn" in told["out"]
    assert view(table, out, table.live.channels[out].v)["out"].startswith("You are out of the game")
    assert all(view(table, seat, 0)["out"] is None for seat in (*range(3), None) if seat != out)
    assert told["legal"] is None and told["results"] is None and told["yours"] is None


def test_the_notice_leaks_nothing_the_seat_cannot_tell_apart() -> None:
    """The notice reads only what every seat knows: the same for every state the knocked-out seat's
    observation allows (states drawn by the game's own determinization)."""
    game, rows, at, out = knocked_out_game()
    table = server_table(game, rows[: at + 1])
    state, told = table.live.state, table.live.channels[out].since(0)
    notice = game.words.out_of_game(state, out, told)
    rng = random.Random(1)
    twins = [game.determinize(game.observe(state, out), rng) for _ in range(5)]
    assert notice and all(game.words.out_of_game(twin, out, told) == notice for twin in twins)


def test_the_end_of_a_knocked_out_seat_says_when_and_why() -> None:
    game, rows, at, out = knocked_out_game()
    table = server_table(game, rows[: at + 1])
    rng = random.Random(2)
    while not game.is_terminal(table.live.state):
        state = table.live.state
        table.live.commit(replayed(game, [random_move(game, state, rng)], state))
    table.stored.status = "over"
    mine = view(table, out, 0)["yours"]
    assert mine["result"] == "lost" and mine["why"].startswith("eliminated (in turn")
    assert "before the end" not in mine["why"], "its elimination may be what ended the game"
    assert "surrendered to" not in mine["why"]
    assert consistent(view(table, None, 0)["results"], game.returns(table.live.state))


# -- clocks and fast-forward ------------------------------------------------------------------------------
def test_every_seats_clock_is_shown_to_all(sqlite_database: str) -> None:
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "bot:random"],
            clock={"initial_s": 100, "bonus_s": 0, "on_timeout": "bot"},
        )
        client.cookies.clear()
        table_id = answer["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws, client.websocket_connect(f"/ws/{table_id}") as watch:
            seat, watcher = Seat(ws), Seat(watch)
            seat.hello(answer["token"])
            assert seat.wait_to_decide() and seat.view is not None
            watcher.hello()
            assert watcher.view is not None
            for clocks in (seat.view["clocks"], watcher.view["clocks"]):
                assert [c["seat"] for c in clocks] == [0, 1]
                assert clocks[0]["running"] is True and 90_000 < clocks[0]["ms_left"] <= 100_000
                assert clocks[1] == {"seat": 1, "ms_left": None, "running": False}  # a bot has no clock


def test_fast_forward_is_refused_while_a_person_decides_and_to_spectators(sqlite_database: str) -> None:
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        table_id, token, _other = two_humans(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws, client.websocket_connect(f"/ws/{table_id}") as watch:
            seat, watcher = Seat(ws), Seat(watch)
            seat.hello(token)
            watcher.hello()
            seat.send({"t": "fast"})
            assert "a person must decide" in seat.until("reject")["why"]
            watcher.send({"t": "fast"})
            assert "only a seated player" in watcher.until("reject")["why"]
            assert seat.view is not None and seat.view["fast_forward"] is False


def test_fast_forward_skips_the_pace_until_a_person_decides(sqlite_database: str) -> None:
    """Seat 1 (a bot) moves first at a 30 s pace: the fast-forward cuts the wait, and the flag is
    cleared once the person at seat 0 must decide."""
    with TestClient(create_app(config_for(sqlite_database, bot_delay_s=30.0)), headers=BROWSER) as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["bot:random", "human"])
        token = answer["token"]
        with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
            seat = Seat(ws)
            seat.hello(token)
            start = time.monotonic()
            seat.send({"t": "fast"})
            notice = seat.until("notice")
            assert notice.get("fast") is True and "fast-forwards" in notice["text"]
            assert seat.wait_to_decide() and seat.view is not None
            assert time.monotonic() - start < 20.0
            assert seat.view["fast_forward"] is False
