"""A chat flood on a live server beside a canary table: one seated client sends 2,000 chat lines
as fast as its sockets take them, reconnecting whenever one is closed.  The chat rate holds (at
most 5 lines stored per seat in 10 s), each flooding socket is closed with 4429, and the canary's
ack p99 stays under 100 ms."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

from hostile.harness import ATTACKER_IP, Canary, Server, attacker

ATTACKER = {"X-Forwarded-For": ATTACKER_IP}
LINES = 2000
ATTACK_S = 3.0
CHAT_RATE = 5
"""The server's default: 5 lines per seat in 10 seconds."""


async def chat_flood(ws_url: str, table_id: str, token: str) -> dict[str, Any]:
    """Send :data:`LINES` chat lines from the seat of ``token``, on a new socket whenever one is
    closed, for :data:`ATTACK_S` seconds at least; what came back."""
    seen: dict[str, Any] = {"sent": 0, "chat": 0, "reject": 0, "sockets": 0, "codes": []}
    started = time.monotonic()
    while seen["sent"] < LINES or time.monotonic() - started < ATTACK_S:
        async with websockets.connect(f"{ws_url}/ws/{table_id}", additional_headers=ATTACKER) as ws:
            seen["sockets"] += 1
            await ws.send(json.dumps({"t": "hello", "token": token}))

            async def read(ws: Any = ws) -> None:
                try:
                    async for text in ws:
                        kind = json.loads(text)["t"]
                        seen[kind] = seen.get(kind, 0) + 1
                except ConnectionClosed:
                    pass

            reader = asyncio.create_task(read())
            try:
                while seen["sent"] < LINES:
                    await ws.send(json.dumps({"t": "chat", "text": f"spam {seen['sent']}"}))
                    seen["sent"] += 1
            except ConnectionClosed:
                pass
            if seen["sent"] >= LINES:
                await asyncio.sleep(max(0.0, ATTACK_S - (time.monotonic() - started)))
                await ws.close()
            await asyncio.wait_for(reader, 30)
            seen["codes"].append(ws.close_code)
    return seen


def stored_chat(server: Server, table_id: str) -> list[dict[str, Any]]:
    """The chat lines a spectator is given on arrival (the last 50 stored)."""

    async def read() -> list[dict[str, Any]]:
        async with websockets.connect(f"{server.ws_url}/ws/{table_id}") as ws:
            await ws.send('{"t":"hello"}')
            welcome = json.loads(await ws.recv())
            assert welcome["t"] == "welcome", welcome
            chat: list[dict[str, Any]] = welcome["chat"]
            return chat

    return asyncio.run(read())


def test_a_chat_flood_is_held_to_the_chat_rate_and_other_tables_go_on(live_server: Callable[..., Server]) -> None:
    server = live_server()
    with httpx.Client(base_url=server.url, headers=ATTACKER) as http:
        answer = http.post("/api/tables", json={"game": "shadow-planet", "players": 3, "name": "Spammer"})
        assert answer.status_code == 201, answer.text
        table_id, token = answer.json()["table"]["id"], answer.json()["token"]

    async def main() -> tuple[Canary, dict[str, Any]]:
        async with Canary(server) as canary:
            seen = await attacker(__name__, "chat_flood", server.ws_url, table_id, token)
        return canary, seen

    canary, seen = asyncio.run(main())
    assert seen["sent"] == LINES, seen
    assert seen["chat"] <= CHAT_RATE, seen  # lines sent back to the table: only those within the rate
    assert seen["reject"] >= 20, seen  # the rest refused
    assert 4429 in seen["codes"], seen  # a socket that kept flooding was closed
    lines = stored_chat(server, table_id)
    assert 1 <= len(lines) <= CHAT_RATE, lines
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()
