"""Several ``shadowtable serve`` processes on one PostgreSQL database and a Redis of their own,
and asyncio seat clients that reconnect to another process when theirs goes away."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SERVE = str(Path(sys.executable).with_name("shadowtable"))
SRC = str(Path(__file__).resolve().parents[2] / "src")  # the servers run this checkout's code


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Any, limit_s: float, what: str) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{what} within {limit_s} s")


class Redis:
    """A redis-server of the test's own (so stopping it disturbs nothing else)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            "redis-server",
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
        ]
        try:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            pytest.skip("redis-server is not installed")

        def answers() -> bool:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        wait_for(answers, 10, "redis-server did not answer")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


class Cluster:
    """``count`` server processes sharing ``database`` and ``redis``."""

    def __init__(self, folder: Path, database: str, redis: Redis, count: int = 3, lease_s: float = 2.0) -> None:
        self.folder, self.database, self.redis, self.lease_s = folder, database, redis, lease_s
        self.servers = [self._start(i) for i in range(count)]
        for server in self.servers:
            wait_for(lambda s=server: _healthy(s.url), 30, f"server on {server.port} did not start")

    def _start(self, index: int) -> Server:
        port = free_port()
        env = {
            **os.environ,
            "SHADOWTABLE_DATA_DIR": str(self.folder),
            "SHADOWTABLE_SECRET": "cluster-test-secret-of-at-least-32-bytes",
            "SHADOWTABLE_SOCKETS_PER_CLIENT": "100000",  # every seat here comes from one address
            "SHADOWTABLE_LOG_LEVEL": "warning",
            "PYTHONPATH": os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])),
            # one test client makes many tables and seats: the per-client limits are tested elsewhere
            "SHADOWTABLE_RATE_TABLES": "0/minute",
            "SHADOWTABLE_RATE_JOINS": "0/minute",
            "SHADOWTABLE_MAX_OPEN_TABLES": "0",
            "SHADOWTABLE_MAX_FREE_SEATS": "0",
        }
        command = [
            SERVE, "serve", "--port", str(port), "--database", self.database, "--redis", self.redis.url,
            "--lease", str(self.lease_s), "--bot-delay", "0", "--bot-workers", "0", "--grace", "30",
        ]  # fmt: skip
        log = (self.folder / f"server-{index}.log").open("ab")
        return Server(port, subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT))

    def stop(self) -> None:
        for server in self.servers:
            if server.process.poll() is None:
                server.process.terminate()
        for server in self.servers:
            try:
                server.process.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def _healthy(url: str) -> bool:
    with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
        return bool(answer.status == 200)


def post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def get(url: str, path: str) -> Any:
    with urllib.request.urlopen(url + path, timeout=10) as answer:
        return json.loads(answer.read())


@dataclass
class SeatClient:
    """One seat over the protocol: plays random legal actions, and after its socket drops (its
    process died) says hello to the next process with its version and resends its unacknowledged act."""

    seat: int
    token: str
    urls: list[str]
    rng: random.Random
    frames: list[dict[str, Any]] = field(default_factory=list)
    acked: list[str] = field(default_factory=list)
    over: dict[str, Any] | None = None
    reconnects: int = 0
    pause_s: float = 0.0

    def _overdue(self, limit_s: float) -> AssertionError:
        """The failure of a game not over within ``limit_s``, with what this seat last heard (the last
        frame's kind, version and turn, its reconnects and acks)."""
        heard = " (no frame received)"
        if self.frames:
            last = self.frames[-1]
            heard = (
                f" (last frame {last.get('t')!r} v={last.get('v')} turn={last.get('turn')}"
                f" legal={bool(last.get('legal'))} of {len(self.frames)}; {self.reconnects} reconnects,"
                f" {len(self.acked)} acks)"
            )
        return AssertionError(f"seat {self.seat}: the game did not end within {limit_s} s{heard}")

    async def play(self, table: str, limit_s: float) -> None:
        import websockets

        pending: dict[str, Any] | None = None
        v = 0
        at = 0
        deadline = time.monotonic() + limit_s
        while self.over is None:
            if time.monotonic() > deadline:
                raise self._overdue(limit_s)
            url = self.urls[at % len(self.urls)]
            try:
                async with websockets.connect(f"{url}/ws/{table}", open_timeout=5) as socket_:
                    await socket_.send(json.dumps({"t": "hello", "token": self.token, "v": v}))
                    if pending is not None:
                        await socket_.send(json.dumps(pending))  # same id: stored at most once
                    sent_turn = None if pending is None else pending["turn"]
                    while self.over is None:
                        if time.monotonic() > deadline:
                            raise self._overdue(limit_s)
                        message = json.loads(await asyncio.wait_for(socket_.recv(), timeout=limit_s))
                        self.frames.append(message)
                        kind = message["t"]
                        if kind == "view":
                            v = message["v"]
                            if message["legal"] and message["turn"] != sent_turn:
                                if self.pause_s:
                                    await asyncio.sleep(self.pause_s)
                                action = self.rng.choice(message["legal"])[0]
                                pending = {
                                    "t": "act", "id": secrets.token_hex(6), "turn": message["turn"], "action": action,
                                }  # fmt: skip
                                sent_turn = message["turn"]
                                await socket_.send(json.dumps(pending))
                        elif kind == "ack":
                            self.acked.append(message["id"])
                            if pending is not None and pending["id"] == message["id"]:
                                pending = None
                        elif kind == "reject":
                            if pending is not None and pending["id"] == message["id"]:
                                pending, sent_turn = None, None
                        elif kind == "over":
                            self.over = message
                        elif kind == "refused":
                            raise AssertionError(f"seat {self.seat} refused: {message['why']}")
            except (TimeoutError, OSError, websockets.ConnectionClosed):
                self.reconnects += 1
                at += 1
                await asyncio.sleep(0.2)
