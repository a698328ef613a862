"""``scripts/cluster.sh`` as a supervisor: the process that owns a table in play is killed with
SIGKILL; nginx and the other processes go on serving, the table's seats reconnect through nginx
and play on elsewhere, nothing acknowledged is lost, and the script restarts the dead process.
Then nginx is killed and restarted, and the first process, killed again, is given up
(``--max-restarts 1``) while the rest serves.

Three processes on a fresh PostgreSQL database and a Redis of the test's own, behind nginx
(``server/cluster_script.py``; skipped like ``test_cluster_routing.py`` when nginx or PostgreSQL is
missing).  About 12 s on 2 cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from server.cluster import Redis, SeatClient
from server.cluster_script import ScriptCluster, script_cluster

pytest.importorskip("websockets")
pytest.importorskip("redis")

LEASE_S = 2.0


class HealthProbe:
    """``/healthz`` through nginx every 0.1 s in a thread: how many answers were not 200."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ok = 0
        self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    good = answer.status == 200
            except OSError:
                good = False
            self.ok += good
            self.failed += not good
            self._stop.wait(0.1)

    def __enter__(self) -> HealthProbe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(5)


async def _owner(database: str, table: str) -> str | None:
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(database)
    try:
        row = await connection.fetchrow("SELECT owner FROM leases WHERE table_id = $1", table)
    finally:
        await connection.close()
    return None if row is None else str(row["owner"])


async def _stored_ids(database: str, table: str) -> set[str]:
    import asyncpg

    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch("SELECT client_id FROM actions WHERE table_id = $1", table)
    finally:
        await connection.close()
    return {r["client_id"] for r in rows if r["client_id"] is not None}


def _port_of(pid: int) -> int:
    """The ``--port`` a server process was started with."""
    words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return int(words[words.index(b"--port") + 1])


def _post(url: str, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """POST ``body``: the answer and the port of the process that gave it (nginx's X-Upstream)."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read()), int(answer.headers["X-Upstream"].rsplit(":", 1)[1])


async def _table_owned_where_its_seats_play(cluster: ScriptCluster) -> tuple[str, list[str]]:
    """A two-seat table whose lease is held by the process nginx sends its seats to.  (A table
    created by that very process is leased by whichever process's lease round finds it first, so
    a few tables may be needed.)"""
    body = {"game": "shadowlord", "players": 2, "seats": ["human", "human"], "sit": True, "options": {"turn_cap": 40}}
    for _ in range(12):
        made, _ = _post(cluster.url + "/api/tables", body)
        table = made["table"]["id"]
        joined, port = _post(cluster.url + f"/api/tables/{table}/join", {})
        deadline = time.monotonic() + 10
        while (owner := await _owner(cluster.database, table)) is None:
            assert time.monotonic() < deadline, "nobody took the table's lease"
            await asyncio.sleep(0.05)
        if _port_of(_pid_of(owner)) == port:
            return table, [made["token"], joined["token"]]
    raise AssertionError("no table was leased by the process its seats reach")


def _pid_of(owner: str) -> int:
    return int(owner.rsplit("-", 2)[1])  # a process id is host-pid-random


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


async def _play_and_kill_the_owner(cluster: ScriptCluster, table: str, clients: list[SeatClient]) -> dict[str, int]:
    """Play until some acts are acknowledged, SIGKILL the table's owner, play on until more are
    acknowledged and another process owns the table."""
    games = asyncio.gather(*(client.play(table, 60) for client in clients))
    try:
        deadline = time.monotonic() + 20
        while sum(len(c.acked) for c in clients) < 6 or await _owner(cluster.database, table) is None:
            assert not games.done(), "the game ended before the kill"
            assert time.monotonic() < deadline, "no acknowledged acts through nginx"
            await asyncio.sleep(0.05)
        owner = await _owner(cluster.database, table)
        assert owner is not None
        pid = _pid_of(owner)
        port = _port_of(pid)
        os.kill(pid, 9)
        acked_before = sum(len(c.acked) for c in clients)
        deadline = time.monotonic() + 30
        while sum(len(c.acked) for c in clients) < acked_before + 10 or await _owner(cluster.database, table) == owner:
            assert not games.done() or all(c.over for c in clients), "the seats gave up"
            assert time.monotonic() < deadline, "the table did not go on after the kill"
            await asyncio.sleep(0.05)
        return {"pid": pid, "port": port, "acked_before": acked_before}
    finally:
        games.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await games


def test_a_killed_process_is_restarted_while_the_others_and_nginx_serve(tmp_path: Path) -> None:
    redis_dir = tmp_path / "redis"
    redis_dir.mkdir()
    redis = Redis(redis_dir)
    try:
        serve = ["--lease", str(LEASE_S), "--grace", "30"]
        with script_cluster(tmp_path, 3, redis.url, serve, ("--max-restarts", "1")) as cluster:
            name = _check_the_crash(cluster)
            _check_nginx_restart(cluster)
            _check_giving_up(cluster, name)
    finally:
        redis.stop()


def _check_the_crash(cluster: ScriptCluster) -> str:
    """Kill the owner of a table in play: the rest serves, the table goes on, it is restarted."""
    started = cluster.pids()
    assert set(started) == {*(f"server-{b.rsplit(':', 1)[1]}" for b in cluster.backends), "nginx"}
    table, tokens = asyncio.run(_table_owned_where_its_seats_play(cluster))
    ws = cluster.url.replace("http", "ws", 1)
    clients = [SeatClient(seat, token, [ws], random.Random(seat), pause_s=0.05) for seat, token in enumerate(tokens)]

    with HealthProbe(cluster.url) as health:
        killed = asyncio.run(_play_and_kill_the_owner(cluster, table, clients))
        name = f"server-{killed['port']}"
        assert started[name] == killed["pid"]
        # the script says so and starts it again on its port
        deadline = time.monotonic() + 30
        while not (cluster.pids()[name] != killed["pid"] and _answers(f"http://127.0.0.1:{killed['port']}")):
            assert time.monotonic() < deadline, "the killed process was not restarted:\n" + cluster.said()
            time.sleep(0.2)
    said = cluster.said()
    assert re.search(rf"cluster: {name} exited \(killed by signal 9\); restarting it in 1 s", said), said
    assert "stopping" not in said
    # nginx and the other processes served throughout: same pids, no restart, every health check answered
    assert {n: p for n, p in cluster.pids().items() if n != name} == {n: p for n, p in started.items() if n != name}
    assert len(re.findall(r"cluster: \S+ exited", said)) == 1, said
    for other in started:
        if other not in (name, "nginx"):
            assert _answers("http://127.0.0.1:" + other.removeprefix("server-")), f"{other} stopped answering"
    assert health.ok >= 10 and health.failed <= 2, (health.ok, health.failed)
    # the table went on elsewhere: its seats reconnected through nginx and made moves again
    sockets = [e["upstream"] for e in cluster.access_log() if e["request"].startswith(f"GET /ws/{table} ")]
    assert any(client.reconnects for client in clients), ("no seat was on the killed process", killed, sockets)
    assert sum(len(c.acked) for c in clients) > killed["acked_before"], "no move acknowledged after the kill"
    acked = {i for client in clients for i in client.acked}
    stored = asyncio.run(_stored_ids(cluster.database, table))
    assert acked <= stored, f"acknowledged but not stored: {sorted(acked - stored)[:5]}"
    return name


def _check_nginx_restart(cluster: ScriptCluster) -> None:
    """nginx killed with SIGKILL: its workers, still holding the port, go with it, and it starts again."""
    before = cluster.pids()["nginx"]
    os.kill(before, 9)
    deadline = time.monotonic() + 15
    while cluster.pids()["nginx"] == before or not _answers(cluster.url):
        assert time.monotonic() < deadline, "nginx was not restarted:\n" + cluster.said()
        time.sleep(0.1)
    assert "nginx exited (killed by signal 9); restarting it in 1 s" in cluster.said()
    assert "bind()" not in (cluster.run_dir / "nginx-error.log").read_text("utf-8")


def _check_giving_up(cluster: ScriptCluster, name: str) -> None:
    """With ``--max-restarts 1``, a second exit within a minute gives the process up; the rest serves."""
    os.kill(cluster.pids()[name], 9)
    deadline = time.monotonic() + 10
    while f"{name} exited (killed by signal 9) 2 times within 60 s: not restarting it" not in cluster.said():
        assert time.monotonic() < deadline, "the script did not give the process up:\n" + cluster.said()
        time.sleep(0.1)
    time.sleep(1.5)  # past the restart delay it would have had
    said = cluster.said()
    assert "2 of 3 server processes go on serving" in said and "stopping" not in said, said
    assert cluster.script.poll() is None
    assert _answers(cluster.url) and not _answers("http://127.0.0.1:" + name.removeprefix("server-"))
