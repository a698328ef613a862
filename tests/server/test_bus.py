"""The Redis bus between server processes comes back after losing Redis: its connection killed
(``CLIENT KILL``) or Redis restarted.  It says so once each way, re-reads its tables once back,
and delivers between processes again.  Each test runs a redis-server of its own."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.cluster import Cluster, Redis, get, post

redis = pytest.importorskip("redis")
redis_asyncio = pytest.importorskip("redis.asyncio")
pytest.importorskip("websockets")

from shadowtable.server.cluster import Bus  # noqa: E402


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path)
    yield server
    server.stop()


class Probe:
    """A bus and what reached it: messages and re-reads after an outage."""

    def __init__(self, url: str, name: str) -> None:
        self.bus = Bus(url, f"test-{name}-{random.randrange(1 << 30)}", retry_min_s=0.1, retry_max_s=0.5)
        self.got: list[dict[str, Any]] = []
        self.resyncs = 0

    async def start(self) -> None:
        async def handler(table_id: str, body: dict[str, Any]) -> None:
            self.got.append({"table": table_id, **body})

        async def resync() -> None:
            self.resyncs += 1

        await self.bus.start(handler, on_reconnect=resync)


async def _until(check: Any, limit_s: float, what: str) -> None:
    deadline = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < deadline, f"{what} within {limit_s} s"
        await asyncio.sleep(0.02)


async def _delivered(sender: Probe, receiver: Probe, table: str, limit_s: float = 10) -> None:
    """``sender`` publishes on ``table`` until ``receiver`` has the message."""
    deadline = time.monotonic() + limit_s
    while not any(m["table"] == table for m in receiver.got):
        assert time.monotonic() < deadline, f"nothing from {sender.bus.process_id} reached the other bus"
        await sender.bus.publish(table, {"kind": "changed"})
        await asyncio.sleep(0.05)


def _lines(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(1 for r in caplog.records if r.name == "shadowtable.server" and r.getMessage().startswith(text))


def test_a_killed_bus_connection_reconnects_resyncs_and_delivers_again(
    private_redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="shadowtable.server")
    admin = redis.Redis.from_url(private_redis.url)

    async def run() -> tuple[Probe, Probe]:
        a, b = Probe(private_redis.url, "a"), Probe(private_redis.url, "b")
        await a.start()
        await b.start()
        await _until(lambda: a.bus.healthy and b.bus.healthy, 10, "both buses did not connect")
        await _delivered(b, a, "t-before")
        # only a's connections, found by the name it gives them (others may share a Redis)
        mine = [c for c in admin.client_list() if c["name"] == a.bus.client_name]
        assert mine, "the bus's connections carry its name"
        for client in mine:
            admin.client_kill_filter(_id=client["id"])
        await _until(lambda: a.resyncs == 1 and a.bus.healthy, 10, "the bus did not come back")
        await _delivered(b, a, "t-after")
        await _delivered(a, b, "t-back")
        await a.bus.stop()
        await b.bus.stop()
        return a, b

    a, b = asyncio.run(run())
    assert (a.resyncs, b.resyncs) == (1, 0)
    assert _lines(caplog, "bus down") == 1
    assert _lines(caplog, "bus reconnected") == 1
    assert all(m["from"] == b.bus.process_id for m in a.got)


def test_the_bus_comes_back_when_redis_restarts(private_redis: Redis, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="shadowtable.server")

    async def run() -> tuple[Probe, Probe]:
        a, b = Probe(private_redis.url, "a"), Probe(private_redis.url, "b")
        await a.start()
        await b.start()
        await _until(lambda: a.bus.healthy and b.bus.healthy, 10, "both buses did not connect")
        await _delivered(b, a, "t-before")
        private_redis.stop()
        await _until(lambda: not a.bus.healthy and not b.bus.healthy, 10, "the loss was not noticed")
        await b.bus.publish("t-lost", {"kind": "changed"})  # dropped: the other polls meanwhile
        await asyncio.sleep(1.0)  # several retries while Redis is away
        await asyncio.to_thread(private_redis.start)
        await _until(lambda: a.bus.healthy and b.bus.healthy, 10, "the buses did not come back")
        await _delivered(b, a, "t-after")
        await _delivered(a, b, "t-back")
        await a.bus.stop()
        await b.bus.stop()
        return a, b

    a, b = asyncio.run(run())
    assert (a.resyncs, b.resyncs) == (1, 1)
    assert _lines(caplog, "bus down") == 2  # once per bus, however many retries
    assert _lines(caplog, "bus reconnected") == 2
    assert not any(m["table"] == "t-lost" for m in a.got)


def test_a_process_rereads_its_tables_when_its_bus_comes_back(tmp_path: Path, postgres_database: str) -> None:
    """Two processes on one database but different Redis servers never hear each other, so an
    act stored through one is not announced to the other; once the other's bus connection is
    killed and comes back, it re-reads the table and its seat sees the act (its lease round, which
    would also catch up, is minutes away)."""
    redises: list[Redis] = []
    clusters: list[Cluster] = []
    try:
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            redises.append(Redis(tmp_path / name))
            clusters.append(Cluster(tmp_path / name, postgres_database, redises[-1], count=1, lease_s=300))
        a, b = (c.servers[0] for c in clusters)
        body = {"game": "shadowlord", "players": 2, "seats": ["human", "human"], "sit": True}
        made = post(a.url, "/api/tables", {**body, "options": {"turn_cap": 8}})
        table = made["table"]["id"]
        tokens = [made["token"], post(b.url, f"/api/tables/{table}/join", {})["token"]]
        asyncio.run(_act_elsewhere_then_kill_the_bus(table, tokens, [a.ws, b.ws], redises))
        assert get(a.url, f"/api/tables/{table}")["status"] == "playing"
    finally:
        for cluster in clusters:
            cluster.stop()
        for server in redises:
            server.stop()


async def _act_elsewhere_then_kill_the_bus(
    table: str, tokens: list[str], urls: list[str], redises: list[Redis]
) -> None:
    import websockets

    async def view(socket: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message["t"] == "view":
                return message

    async with websockets.connect(f"{urls[0]}/ws/{table}") as s0, websockets.connect(f"{urls[1]}/ws/{table}") as s1:
        sockets = [s0, s1]
        for socket, token in zip(sockets, tokens, strict=True):
            await socket.send(json.dumps({"t": "hello", "token": token}))
        views = [await view(socket) for socket in sockets]
        actor = next(i for i, v in enumerate(views) if v["legal"])  # chance chose who starts
        watcher = 1 - actor
        act = {"t": "act", "id": "across", "turn": views[actor]["turn"], "action": views[actor]["legal"][0][0]}
        await sockets[actor].send(json.dumps(act))
        while json.loads(await asyncio.wait_for(sockets[actor].recv(), 10))["t"] != "ack":
            pass
        with pytest.raises(TimeoutError):  # the watcher's process was not told
            await asyncio.wait_for(view(sockets[watcher]), 1.0)
        admin = redis_asyncio.Redis.from_url(redises[watcher].url)
        try:
            assert await admin.client_kill_filter(_type="pubsub") >= 1  # its own Redis: only its bus
        finally:
            await admin.aclose()
        after = await asyncio.wait_for(view(sockets[watcher]), 10)
        assert after["v"] > views[watcher]["v"]
