"""Three server processes on PostgreSQL and Redis: seats of one table on different processes play
whole games of both titles; the owning process killed with SIGKILL mid-game; Redis stopped and
started; idempotent acts and secrecy across processes."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.cluster import Cluster, Redis, SeatClient, get, post, wait_for
from shadowtable.core.record import GameRecord, replay_states
from shadowtable.server.views import encode

pytest.importorskip("redis")
pytest.importorskip("websockets")


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def cluster(tmp_path: Path, postgres_database: str, redis: Redis) -> Iterator[Cluster]:
    running = Cluster(tmp_path, postgres_database, redis)
    yield running
    running.stop()
    for log in sorted(tmp_path.glob("server-*.log")):  # pytest shows this only for a failed test
        print(f"== {log.name} (its last 4,000 characters)\n{log.read_text(errors='replace')[-4000:]}")


def _table(
    cluster: Cluster, game: str, players: int, seats: list[str], clock: dict[str, Any] | None = None, **options: Any
) -> tuple[str, list[str]]:
    """A table created through process 0 (its owner); the tokens of its human seats."""
    body = {"game": game, "players": players, "seats": seats, "options": options, "sit": True, "clock": clock}
    answer = post(cluster.servers[0].url, "/api/tables", body)
    table = answer["table"]["id"]
    tokens = [answer["token"]]
    for _ in range(seats.count("human") - 1):
        tokens.append(post(cluster.servers[1].url, f"/api/tables/{table}/join", {})["token"])
    return table, tokens


def _play(clients: list[SeatClient], table: str, limit_s: float = 120) -> None:
    async def run() -> None:
        await asyncio.gather(*(client.play(table, limit_s) for client in clients))

    asyncio.run(run())


def _record(cluster: Cluster, table: str, server: int = -1) -> GameRecord:
    return GameRecord.from_json(get(cluster.servers[server].url, f"/api/tables/{table}/record"))


def _check_secrecy(client: SeatClient, record: GameRecord) -> int:
    """Each view the client got is its seat's observation of a state the game passed through."""
    observed = {encode(game.observe(state, client.seat)) for game, state in replay_states(record)}
    views = [m for m in client.frames if m["t"] == "view"]
    for view in views:
        assert encode(view["obs"]) in observed, f"seat {client.seat}: v{view['v']} is no true state's view"
        if view["legal"] is not None:
            assert view["pending"]["seat"] == client.seat
    return len(views)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("shadow-planet", 3, {}), ("shadowlord", 2, {"turn_cap": 12})],
)
def test_seats_on_different_processes_play_a_whole_game(
    cluster: Cluster, game: str, players: int, options: dict[str, Any]
) -> None:
    table, tokens = _table(cluster, game, players, ["human"] * players, **options)
    clients = [
        SeatClient(seat, token, [cluster.servers[seat % 3].ws], random.Random(seat))
        for seat, token in enumerate(tokens)
    ]
    _play(clients, table)
    record = _record(cluster, table)
    assert all(client.over is not None and client.over["returns"] == record.returns for client in clients)
    assert sum(_check_secrecy(client, record) for client in clients) > 50
    assert {i for client in clients for i in client.acked} == _client_ids(cluster, table)


def test_killing_the_owner_mid_game_loses_no_acknowledged_action(cluster: Cluster) -> None:
    clock = {"initial_s": 600, "bonus_s": 1, "on_timeout": "bot"}
    table, tokens = _table(cluster, "shadow-planet", 3, ["human", "human", "bot:random"], clock=clock)
    owner = asyncio.run(_wait_for_owner(cluster, table))
    victim = next(i for i, server in enumerate(cluster.servers) if f"-{server.process.pid}-" in owner)
    others = [server.ws for i, server in enumerate(cluster.servers) if i != victim]
    # both people play through the two other processes; the owner runs the bot and the clocks
    clients = [SeatClient(seat, token, others[seat:] + others[:seat], random.Random(seat), pause_s=0.01)
               for seat, token in enumerate(tokens)]  # fmt: skip

    async def run() -> float:
        games = asyncio.gather(*(client.play(table, 120) for client in clients))
        await asyncio.sleep(1.5)
        cluster.servers[victim].kill()
        killed_at = time.monotonic()
        seen_before.extend(len(client.frames) for client in clients)
        while await _owner(cluster, table) == owner:
            assert time.monotonic() - killed_at < 30, "nobody took the table over"
            await asyncio.sleep(0.05)
        taken_over_s = time.monotonic() - killed_at
        await games
        return taken_over_s

    seen_before: list[int] = []
    taken_over_s = asyncio.run(run())
    assert taken_over_s < cluster.lease_s + 3, f"taken over after {taken_over_s:.1f} s"
    record = _record(cluster, table, server=(victim + 1) % len(cluster.servers))
    assert record.returns is not None
    assert all(client.reconnects == 0 for client in clients), "no seat was connected to the killed process"
    # the new owner runs the clocks: a seat it serves sees its own clock running again
    after = [m for c, n in zip(clients, seen_before, strict=True) for m in c.frames[n:] if m["t"] == "view"]
    assert any((m["clock"] or {}).get("running") for m in after), "no clock ran after the takeover"
    acked = {i for client in clients for i in client.acked}
    stored = _client_ids(cluster, table)
    assert acked <= stored, f"acknowledged but not stored: {sorted(acked - stored)[:5]}"


async def _wait_for_owner(cluster: Cluster, table: str) -> str:
    for _ in range(100):
        owner = await _owner(cluster, table)
        if owner is not None:
            return owner
        await asyncio.sleep(0.05)
    raise AssertionError("no process took the table")


async def _owner(cluster: Cluster, table: str) -> str | None:
    import asyncpg

    connection = await asyncpg.connect(cluster.database)
    try:
        row = await connection.fetchrow("SELECT owner FROM leases WHERE table_id = $1", table)
    finally:
        await connection.close()
    return None if row is None else str(row["owner"])


def _client_ids(cluster: Cluster, table: str) -> set[str]:
    import asyncpg

    async def read() -> set[str]:
        connection = await asyncpg.connect(cluster.database)
        try:
            rows = await connection.fetch("SELECT client_id FROM actions WHERE table_id = $1", table)
        finally:
            await connection.close()
        return {r["client_id"] for r in rows if r["client_id"] is not None}

    return asyncio.run(read())


def test_play_goes_on_while_redis_is_down_and_after_it_is_back(cluster: Cluster, redis: Redis) -> None:
    table, tokens = _table(cluster, "shadowlord", 2, ["human", "human"], turn_cap=8)
    clients = [SeatClient(seat, token, [cluster.servers[seat * 2].ws], random.Random(seat), pause_s=0.005)
               for seat, token in enumerate(tokens)]  # fmt: skip

    async def run() -> None:
        games = asyncio.gather(*(client.play(table, 180) for client in clients))
        await asyncio.sleep(1.0)
        redis.stop()
        await asyncio.sleep(3.0)
        redis.start()
        await games

    asyncio.run(run())
    record = _record(cluster, table)
    assert all(client.over is not None for client in clients)
    assert sum(_check_secrecy(client, record) for client in clients) > 20


def test_an_act_resent_to_another_process_is_stored_once(cluster: Cluster) -> None:
    import websockets.sync.client as ws

    table, tokens = _table(cluster, "shadowlord", 2, ["human", "human"])
    sockets = [ws.connect(f"{cluster.servers[1].ws}/ws/{table}") for _ in tokens]
    for socket, token in zip(sockets, tokens, strict=True):
        socket.send(json.dumps({"t": "hello", "token": token}))
    views = [_until(socket, lambda m: m["t"] == "view") for socket in sockets]
    deciding = next(i for i, view in enumerate(views) if view["legal"])  # chance chose who starts
    first, view, token = sockets[deciding], views[deciding], tokens[deciding]
    sockets[1 - deciding].close()
    act = {"t": "act", "id": "same-id", "turn": view["turn"], "action": view["legal"][0][0]}
    first.send(json.dumps(act))
    assert _until(first, lambda m: m["t"] in ("ack", "reject"))["t"] == "ack"
    first.close()
    second = ws.connect(f"{cluster.servers[2].ws}/ws/{table}")
    second.send(json.dumps({"t": "hello", "token": token}))
    second.send(json.dumps(act))
    assert _until(second, lambda m: m["t"] in ("ack", "reject")) == {"t": "ack", "id": "same-id"}
    second.close()
    assert _client_ids(cluster, table) == {"same-id"}


def _until(socket: Any, wanted: Any, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if wanted(message):
            return message
    raise AssertionError("the message never came")


def _status(url: str, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    """POST ``body``; the status and the JSON answer, refusals included."""
    import urllib.error

    try:
        return 200, post(url, path, body, token)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_seat_left_on_one_process_is_not_free_on_another_and_its_invite_works_once(cluster: Cluster) -> None:
    table, (host, leaver) = _table(cluster, "shadowlord", 2, ["human", "human"])
    a, b, c = (server.url for server in cluster.servers)
    post(a, f"/api/tables/{table}/leave", {}, leaver)
    wait_for(lambda: get(b, f"/api/tables/{table}")["seats"][1]["vacated"], 10, "the leave never reached process 1")
    status, answer = _status(b, f"/api/tables/{table}/join", {"seat": 1})
    assert status == 409 and "since its player left" in answer["error"]
    code = post(c, f"/api/tables/{table}/invite", {"seat": 1}, host)["code"]
    status, answer = _status(a, f"/api/tables/{table}/join", {"invite": code, "name": "Cy"})
    assert status == 200 and answer["seat"] == 1
    assert _status(b, f"/api/tables/{table}/join", {"invite": code})[0] == 409
    assert _status(c, f"/api/tables/{table}/return", {}, leaver)[0] == 403
    assert get(c, f"/api/tables/{table}")["seats"][1]["name"] == "Cy"


def test_a_fast_forward_said_on_another_process_reaches_the_process_running_the_bots(cluster: Cluster) -> None:
    """Seat 0 sits on process 1; process 0 created the table and runs its bots. A fast-forward
    said on process 1 reaches process 0 over the bus: its watchers get the notice, and its views
    say the bots fast-forward (set on process 0 only by what it heard)."""
    body = {
        "game": "shadow-planet", "players": 3, "seats": ["human", "bot:heuristic", "bot:heuristic"],
        "options": {}, "sit": True, "pace": "relaxed",
    }  # fmt: skip
    answer = post(cluster.servers[0].url, "/api/tables", body)
    table, token = answer["table"]["id"], answer["token"]

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        import websockets

        seen: list[dict[str, Any]] = []
        told: list[dict[str, Any]] = []
        async with (
            websockets.connect(f"{cluster.servers[0].ws}/ws/{table}") as watcher,
            websockets.connect(f"{cluster.servers[1].ws}/ws/{table}") as seat,
        ):
            await watcher.send(json.dumps({"t": "hello", "v": 0}))
            await seat.send(json.dumps({"t": "hello", "token": token, "v": 0}))

            async def watch() -> None:
                while True:
                    message = json.loads(await watcher.recv())
                    seen.append(message)
                    if message["t"] == "view" and message.get("fast_forward"):
                        return

            watching = asyncio.ensure_future(watch())
            rng, deadline = random.Random(5), time.monotonic() + 60
            while not watching.done() and time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(seat.recv(), 1.0))
                except TimeoutError:
                    continue
                told.append(message)
                if message["t"] == "view" and message["legal"]:
                    action = rng.choice(message["legal"])[0]
                    act = {"t": "act", "id": f"a{len(told)}", "turn": message["turn"], "action": action}
                    await seat.send(json.dumps(act))
                elif message["t"] == "ack":
                    await seat.send(json.dumps({"t": "fast"}))
            await asyncio.wait_for(watching, 5)
        return seen, told

    seen, told = asyncio.run(run())
    assert any(m["t"] == "notice" and m.get("fast") for m in told), "the seat's own process told it"
    notices = [m for m in seen if m["t"] == "notice" and m.get("fast")]
    assert notices and "fast-forwards" in notices[0]["text"], "process 0 heard the fast-forward"
    assert any(m["t"] == "view" and m["fast_forward"] for m in seen)
