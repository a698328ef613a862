"""``scripts/cluster.sh``: several server processes behind nginx, every table's requests on one process.

Runs the real script (3 ``shadowtable serve`` processes on a fresh PostgreSQL database, Redis
when it answers, Debian's nginx in front: ``server/cluster_script.py``) and talks to it over TCP
like a browser would: REST with httpx, the seats' WebSockets with ``websockets`` (with an
``Origin``, so the ``Host`` nginx passes on is checked too).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")
pytest.importorskip("fastapi")

from websockets.asyncio.client import connect  # noqa: E402

from server.cluster_script import ScriptCluster as Cluster  # noqa: E402
from server.cluster_script import script_cluster  # noqa: E402

# About 10 s on 2 cores (a cluster start, a game, 20 tables): not marked slow.

PROCESSES = 3
REDIS = os.environ.get("SHADOWTABLE_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_answers() -> bool:
    try:
        import redis
    except ImportError:
        return False
    try:
        return bool(redis.Redis.from_url(REDIS, socket_timeout=2).ping())
    except Exception:  # noqa: BLE001 - any failure: run without it
        return False


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("cluster")
    with script_cluster(folder, PROCESSES, REDIS if _redis_answers() else None, []) as running:
        yield running


def test_health_through_nginx(cluster: Cluster) -> None:
    seen = set()
    for _ in range(2 * PROCESSES):
        answer = httpx.get(cluster.url + "/healthz", timeout=10)
        assert answer.status_code == 200, answer.text
        assert answer.json()["database"] is True
        seen.add(answer.headers["x-upstream"])
    assert seen == set(cluster.backends)  # no table named: round robin over every process


async def _play_seat(cluster: Cluster, table: str, token: str, seat: int) -> tuple[dict[str, Any], int, str | None]:
    """One seat's whole game over a WebSocket through nginx: (over, acks, the X-Upstream of the upgrade)."""
    ws_url = cluster.url.replace("http", "ws", 1) + f"/ws/{table}"
    acks = 0
    acted: int | None = None
    async with connect(ws_url, additional_headers={"Origin": cluster.url}, open_timeout=10) as ws:
        upstream = ws.response.headers.get("X-Upstream") if ws.response is not None else None
        await ws.send(json.dumps({"t": "hello", "token": token}))
        async for raw in ws:
            message = json.loads(raw)
            kind = message["t"]
            if kind == "welcome":
                assert message["seat"] == seat
            elif kind == "view" and message["legal"] and message["turn"] != acted:
                acted = message["turn"]
                act = {"t": "act", "id": f"s{seat}-{acted}", "turn": acted, "action": message["legal"][0][0]}
                await ws.send(json.dumps(act))
            elif kind == "ack":
                acks += 1
            elif kind in ("reject", "refused"):
                raise AssertionError(message)
            elif kind == "over":
                return message, acks, upstream
    raise AssertionError("the socket closed before the game was over")


def test_a_whole_game_through_nginx_on_one_process(cluster: Cluster) -> None:
    upstreams: list[str] = []
    with httpx.Client(base_url=cluster.url, timeout=30) as client:
        made = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["human", "human"]})
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        client.cookies.clear()
        joined = client.post(f"/api/tables/{table}/join", json={})
        assert joined.status_code == 200, joined.text
        upstreams.append(joined.headers["x-upstream"])
        client.cookies.clear()
        link = client.get(f"/t/{table}/seat/1")  # the join link page (the table page needs a packaged game)
        assert link.status_code == 200, link.text
        upstreams.append(link.headers["x-upstream"])

        async def both() -> list[tuple[dict[str, Any], int, str | None]]:
            seats = [(made.json()["token"], 0), (joined.json()["token"], 1)]
            return await asyncio.wait_for(
                asyncio.gather(*(_play_seat(cluster, table, token, seat) for token, seat in seats)), 60
            )

        results = asyncio.run(both())
        for over, acks, upstream in results:
            assert acks > 0
            assert len(over["returns"]) == 2
            if upstream is not None:
                upstreams.append(upstream)
        assert results[0][0]["returns"] == results[1][0]["returns"]
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
        upstreams.append(record.headers["x-upstream"])
        info = client.get(f"/api/tables/{table}")
        assert info.json()["status"] == "over"
        upstreams.append(info.headers["x-upstream"])
    # nginx logs a request once answered (a WebSocket once closed): wait for all six.
    for _ in range(100):
        logged = [e for e in cluster.access_log() if e["table"] == table]
        if len(logged) >= 6:
            break
        time.sleep(0.1)
    sockets = [e for e in logged if e["request"].startswith(f"GET /ws/{table} ")]
    assert len(sockets) == 2 and all(e["status"] == "101" for e in sockets), logged
    assert len(logged) >= 6
    assert len({e["upstream"] for e in logged} | set(upstreams)) == 1, (logged, upstreams)


def test_tables_spread_over_the_processes(cluster: Cluster) -> None:
    owner: dict[str, str] = {}
    with httpx.Client(base_url=cluster.url, timeout=30) as client:
        for _ in range(20):
            made = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "listed": False})
            assert made.status_code == 201, made.text
            table = made.json()["table"]["id"]
            client.cookies.clear()
            for path in (f"/api/tables/{table}", f"/t/{table}/seat/1", f"/api/tables/{table}/join"):
                answer = client.post(path, json={}) if path.endswith("/join") else client.get(path)
                assert answer.status_code == 200, answer.text
                assert owner.setdefault(table, answer.headers["x-upstream"]) == answer.headers["x-upstream"]
    counts = {backend: list(owner.values()).count(backend) for backend in cluster.backends}
    assert sum(1 for n in counts.values() if n) > 1, counts
