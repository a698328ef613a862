"""The table service's parts: the table master decides without sockets or SQL, and every SQL
statement of the server is built in the repository."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shadowtable.core.registry import make
from shadowtable.server import master
from shadowtable.server.errors import Conflict, ServiceError
from shadowtable.server.live import LiveTable
from shadowtable.server.protocol import Act
from shadowtable.server.table import LiveGame, Seat, StoredTable, Table

SERVER = Path(__file__).resolve().parents[2] / "src" / "shadowtable" / "server"


def _table(status: str = "open", seats: list[Seat] | None = None, host: int | None = 0) -> Table:
    game = make("shadow-planet", players=3)
    free = [Seat("human", None, None, None), Seat("human", None, None, None)]
    chairs = seats if seats is not None else [Seat("human", None, "Ann", "k0"), *free]
    stored = StoredTable("t1", status, None, True, 0.0, chairs, host_seat=host)
    return Table(stored, LiveGame(game, LiveTable.new(game)))


def _started() -> Table:
    humans = [Seat("human", None, name, f"k{i}") for i, name in enumerate(["Ann", "Bo", "Cy"])]
    table = _table("playing", humans)
    table.live.commit(master.opening(table))
    return table


def test_the_first_free_seat_is_taken_and_a_taken_one_refused() -> None:
    table = _table()
    assert master.free_seat(table, None, None, move=False) == 1
    with pytest.raises(Conflict, match="seat 0 is not free"):
        master.free_seat(table, 0, None, move=False)
    with pytest.raises(ServiceError, match="between 0 and 2"):
        master.free_seat(table, 5, None, move=False)


def test_a_second_seat_needs_a_move_and_the_host_rights_move_with_it() -> None:
    table = _table()
    with pytest.raises(Conflict, match="ask to move"):
        master.free_seat(table, 1, 0, move=False)
    assert master.free_seat(table, 1, 0, move=True) == 1
    assert master.host_after_join(table, 1, 0, as_host=False) == 1
    master.sit(table, 1, "k-new", "Ann", 0, 1)
    assert (table.seats[0].key_hash, table.seats[1].key_hash, table.host_seat) == (None, "k-new", 1)


def test_leaving_in_play_keeps_the_seat_for_its_player_and_a_bot_plays_it() -> None:
    table = _started()
    leave = master.leaving(table, 1)
    assert leave.playing and leave.zombie and leave.left_hash == "k1"
    notices = master.vacate(table, leave)
    assert table.seats[1].vacated and notices == ["Bo left: a bot plays for them"]
    with pytest.raises(Conflict, match="played by a bot since its player left"):
        master.free_seat(table, 1, None, move=False)


def test_leaving_before_the_start_gives_the_host_seat_up() -> None:
    table = _table()
    leave = master.leaving(table, 0)
    assert not leave.playing and leave.host is None and leave.left_hash is None


def test_an_act_out_of_turn_or_before_the_start_is_refused_with_a_reason() -> None:
    assert master.refusal(_table(), 0, Act("a", 0, 0, None)) == "the game is not in play"
    table = _started()
    seat = table.game.current_player(table.live.state)
    other = (seat + 1) % 3
    assert master.refusal(table, other, Act("a", 0, 0, None)) == "it is not your turn"
    assert master.refusal(table, seat, Act("a", 0, 0, None)) is None


def test_an_acknowledged_act_id_is_acked_again_or_refused_for_another_decision() -> None:
    table = _started()
    seat = table.game.current_player(table.live.state)
    action = table.game.legal_actions(table.live.state)[0]
    act = Act("x1", 0, action, None)
    move = master.decide(table, seat, act)
    assert master.repeated(table, seat, act) is None
    master.acknowledge(table, move, act)
    assert master.repeated(table, seat, act) == {"t": "ack", "id": "x1"}
    other = master.repeated(table, seat, Act("x1", 0, action + 1, None))
    assert other is not None and other["t"] == "reject" and "used already" in other["why"]


def test_a_rematch_needs_a_finished_game_and_keeps_humans_and_bots() -> None:
    table = _table(
        "playing",
        [Seat("human", None, "Ann", "k0"), Seat("bot", "random", None, None), Seat("human", None, None, None)],
    )
    with pytest.raises(Conflict, match="once the game is over"):
        master.rematch_table(table, "heuristic")
    table.stored.status = "over"
    new = master.rematch_table(table, "heuristic")
    assert new.seats == ["human", "bot:random", "human"] and (new.game, new.players) == ("shadow-planet", 3)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_table_master_touches_neither_sockets_nor_the_database() -> None:
    imported = _imports(SERVER / "master.py")
    forbidden = {"sqlalchemy", "shadowtable.server.connections", "shadowtable.server.store", "asyncio"}
    assert not any(name == bad or name.startswith(bad + ".") for name in imported for bad in forbidden), imported
    assert not any(name.startswith("shadowtable.server.repository") for name in imported)


def test_every_sql_statement_of_the_server_is_built_in_the_repository() -> None:
    builders = {"select", "insert", "update", "delete", "text"}
    outside = []
    for path in sorted(SERVER.rglob("*.py")):
        relative = path.relative_to(SERVER).as_posix()
        if relative.startswith(("repository/", "migrations/")) or relative in {"store.py", "schema.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in builders
                and isinstance(node.value, ast.Name)
                and node.value.id == "sa"
            ):
                outside.append(f"{relative}:{node.lineno} sa.{node.attr}")
    assert outside == []
