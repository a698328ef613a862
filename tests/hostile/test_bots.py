"""Hostile bots: a client asks for a bot with huge parameters or a file path, and seats the
strongest bots the server offers next to the canary."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import httpx

from hostile.harness import ATTACKER_IP, Canary, Server

ATTACKER = {"X-Forwarded-For": ATTACKER_IP}


def test_bot_parameters_and_paths_are_refused_without_a_file_leak(live_server: Callable[..., Server]) -> None:
    server = live_server()
    seats = [
        "bot:ismcts:iterations=100000000",
        "bot:ismcts:time=100000",
        "bot:policy:path=/etc/passwd",
        "bot:policy:path=/no/such/file.pt",
        "bot:policy:path=/etc",
        "bot:../../etc/passwd",
    ]
    with httpx.Client(base_url=server.url, headers=ATTACKER, timeout=30) as client:
        errors = []
        for seat in seats:
            answer = client.post("/api/tables", json={"game": "shadow-planet", "players": 4, "seats": [seat] * 4})
            assert answer.status_code == 400, answer.text
            errors.append(answer.json()["error"])
        assert client.get("/api/tables", params={"status": "playing"}).json() == []
    for error in errors:
        assert "unknown bot level" in error and "random, heuristic, ismcts" in error
    assert len({re.sub(r"'[^']*'", "'...'", error) for error in errors}) == 1  # one message, file or none


def test_a_table_of_the_strongest_bots_leaves_the_canary_alone(live_server: Callable[..., Server]) -> None:
    server = live_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        offered = client.get("/api/games").json()
    strongest = [level["name"] for level in offered["levels"] if level["name"] in {"ismcts", "policy"}]
    plays = {level["name"]: level["plays"] for level in offered["levels"]}

    async def main() -> Canary:
        async with (
            httpx.AsyncClient(base_url=server.url, headers=ATTACKER, timeout=30) as http,
            Canary(server) as canary,
        ):
            for level in strongest:
                for game, counts in plays[level].items():
                    if game in {"shadow-planet", "shadowlord"}:
                        body = {"game": game, "players": counts[-1], "seats": [f"bot:{level}"] * counts[-1]}
                        answer = await http.post("/api/tables", json={**body, "sit": False})
                        assert answer.status_code == 201, answer.text
            await asyncio.sleep(6)
        return canary

    canary = asyncio.run(main())
    assert canary.acks >= 20, canary.summary()
    assert canary.p99_ms() < canary.bound_ms(), canary.summary()
    if "policy" in strongest:  # PyTorch is loaded by the bot workers at start, never by the server
        assert "libtorch" not in Path(f"/proc/{server.pid}/maps").read_text()
