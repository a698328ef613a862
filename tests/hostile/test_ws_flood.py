"""Floods on the WebSocket path of a live server, each beside a canary table: 1,000 ``sync``
frames on a long finished Shadowlord! table (with and without the page's HTML), 1,000 sockets from
one client, and text frames that are not UTF-8.  Each asserts its limit and the canary's ack p99."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from hostile.harness import ATTACKER_IP, Canary, Server, attacker

ATTACKER = {"X-Forwarded-For": ATTACKER_IP}
FLOOD_FRAMES = 1000
FLOODS = 8
ATTACK_S = 3.0
"""How long each attack goes on (the canary needs a few seconds for its 20 acks)."""
SOCKETS = 1000
BATCH = 5
"""Sockets opened at once."""
SOCKETS_S = 8.0
"""The time over which the sockets are opened."""
SOCKETS_PER_CLIENT = 32
"""The server's default."""
BURST = 20
"""Frames a socket may send at once by default (``20 per 2 seconds``); three times that closes it."""
SYNCS = 10
"""``sync`` frames one client address may send by default (``10 per 10 seconds``)."""


def finished_shadowlord(server: Server) -> str:
    """A Shadowlord! table bots played to its end (hundreds of steps)."""
    with httpx.Client(base_url=server.url, headers={"X-Forwarded-For": "10.7.7.7"}, timeout=30) as http:
        answer = http.post(
            "/api/tables",
            json={"game": "shadowlord", "players": 4, "seats": ["bot:heuristic"] * 4, "sit": False, "listed": False},
        )
        assert answer.status_code == 201, answer.text
        table_id: str = answer.json()["table"]["id"]
        deadline = time.monotonic() + 180  # a guard: the bots finish a game in seconds
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.2)
    return table_id


async def sync_flood(ws_url: str, table_id: str, html: bool) -> dict[str, Any]:
    """One socket: hello, then :data:`FLOOD_FRAMES` sync frames as fast as they go; what came back."""
    seen: dict[str, Any] = {"view": 0, "reject": 0, "sent": 0, "code": None}
    async with websockets.connect(f"{ws_url}/ws/{table_id}", additional_headers=ATTACKER, max_size=2**26) as ws:
        await ws.send(json.dumps({"t": "hello", "html": html}))

        async def read() -> None:
            try:
                async for text in ws:
                    kind = "view" if text.startswith('{"after":') else json.loads(text)["t"]  # views are large
                    seen[kind] = seen.get(kind, 0) + 1
            except ConnectionClosed:
                pass

        reader = asyncio.create_task(read())
        try:
            for _ in range(FLOOD_FRAMES):
                await ws.send('{"t":"sync","v":0}')
                seen["sent"] += 1
        except ConnectionClosed:
            pass
        await asyncio.wait_for(reader, 30)
        seen["code"] = ws.close_code
    return seen


async def sync_floods(ws_url: str, table_id: str, html: bool) -> list[dict[str, Any]]:
    """:data:`FLOODS` sync floods spread over :data:`ATTACK_S` seconds, each on a new socket."""
    floods = []
    for _ in range(FLOODS):
        started = time.monotonic()
        floods.append(await sync_flood(ws_url, table_id, html))
        await asyncio.sleep(max(0.0, ATTACK_S / FLOODS - (time.monotonic() - started)))
    return floods


@pytest.mark.parametrize("html", [False, True], ids=["json", "html"])
def test_a_sync_flood_is_refused_then_closed_and_other_tables_go_on(
    html: bool, live_server: Callable[..., Server]
) -> None:
    server = live_server()
    table_id = finished_shadowlord(server)

    async def main() -> tuple[Canary, list[dict[str, Any]]]:
        async with Canary(server) as canary:
            floods = await attacker(__name__, "sync_floods", server.ws_url, table_id, html)
        return canary, floods

    canary, floods = asyncio.run(main())
    assert floods
    for seen in floods:
        assert seen["code"] == 4429, seen  # closed once it passed three times the rate
        assert 1 <= seen["view"] <= 1 + SYNCS, seen  # the hello's view and the address's syncs (coalesced)
        assert 2 * BURST <= seen["reject"] < 3 * BURST, seen  # the rest refused, unprocessed
    assert sum(seen["view"] for seen in floods) <= len(floods) + SYNCS  # the syncs are the address's, not each socket's
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()


async def open_socket(ws_url: str, table_id: str, outcome: dict[str, int], held: list[Any]) -> None:
    """One attacker socket: greeted (kept open in ``held``) or closed, by its close code."""
    ws = await websockets.connect(f"{ws_url}/ws/{table_id}", additional_headers=ATTACKER)
    try:
        await ws.send('{"t":"hello"}')
        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
    except ConnectionClosed:
        outcome[str(ws.close_code)] = outcome.get(str(ws.close_code), 0) + 1
        return
    assert reply["t"] == "welcome", reply
    outcome["greeted"] = outcome.get("greeted", 0) + 1
    held.append(ws)


async def open_sockets(ws_url: str, table_id: str) -> dict[str, int]:
    """:data:`SOCKETS` sockets, :data:`BATCH` at a time over :data:`SOCKETS_S` seconds, the greeted
    ones held for :data:`ATTACK_S` seconds at least; how many were greeted and how many closed, by
    close code."""
    started = time.monotonic()
    outcome: dict[str, int] = {}
    held: list[Any] = []
    batches = SOCKETS // BATCH
    for batch in range(batches):
        await asyncio.gather(*(open_socket(ws_url, table_id, outcome, held) for _ in range(BATCH)))
        await asyncio.sleep(max(0.0, started + SOCKETS_S * (batch + 1) / batches - time.monotonic()))
    while time.monotonic() - started < ATTACK_S:
        await asyncio.sleep(0.1)
    await asyncio.gather(*(ws.close() for ws in held))
    return outcome


def test_a_thousand_sockets_from_one_client_are_held_to_its_limit(live_server: Callable[..., Server]) -> None:
    server = live_server()
    with httpx.Client(base_url=server.url, headers=ATTACKER) as http:
        answer = http.post("/api/tables", json={"game": "shadow-planet", "players": 3, "sit": False})
        assert answer.status_code == 201, answer.text
        table_id = answer.json()["table"]["id"]

    async def main() -> tuple[Canary, dict[str, int]]:
        async with Canary(server) as canary:
            outcome = await attacker(__name__, "open_sockets", server.ws_url, table_id)
        return canary, outcome

    canary, outcome = asyncio.run(main())
    assert outcome == {"greeted": SOCKETS_PER_CLIENT, "4429": SOCKETS - SOCKETS_PER_CLIENT}, outcome
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()


def _masked(opcode: int, payload: bytes) -> bytes:
    """A client's WebSocket frame, written by hand (a library would not send invalid UTF-8)."""
    mask = os.urandom(4)
    length = len(payload)
    head = bytes([0x80 | opcode, 0x80 | length]) if length < 126 else bytes([0x80 | opcode, 0xFE])
    if length >= 126:
        head += struct.pack("!H", length)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_text_frames_that_are_not_utf8_are_one_log_line_each(live_server: Callable[..., Server]) -> None:
    server = live_server()
    with httpx.Client(base_url=server.url) as http:
        answer = http.post("/api/tables", json={"game": "shadow-planet", "players": 3, "sit": False})
        table_id = answer.json()["table"]["id"]
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            key = base64.b64encode(os.urandom(16)).decode()
            raw.sendall(
                f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += raw.recv(4096)
            assert answer.startswith(b"HTTP/1.1 101"), answer
            raw.sendall(_masked(1, b'\xff\xfe{"t":"ping"}'))
            closing = raw.recv(4096)
            assert closing[:1] == b"\x88" and struct.unpack("!H", closing[2:4])[0] == 1007, closing
    time.sleep(0.5)
    log = server.log_text()
    lines = [line for line in log.splitlines() if "UTF-8" in line]
    assert len(lines) == 3, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
