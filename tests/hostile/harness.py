"""The hostile-client suite's tools: a real ``shadowtable serve`` in a subprocess, and a canary
table that keeps playing beside an attack and measures how long its moves wait for their ``ack``.

Every attack runs on 127.0.0.1.  The attacker and the canary count as different clients by their
``X-Forwarded-For`` address, which uvicorn believes from 127.0.0.1 (``FORWARDED_ALLOW_IPS``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import websockets

from server.cluster import free_port
from serving import source_path, wait_healthy

SECRET = "hostile-suite-secret-" + "k" * 32
CANARY_IP = "10.9.9.9"
ATTACKER_IP = "10.6.6.6"
CANARY_P99_MS = 100.0
"""The issue's bound: a canary table's ack p99 while another client attacks the server."""
QUIET_S = 1.0
"""How long the canary plays before the attack starts, measuring the machine's own pace."""
QUIET_FACTOR = 3.0
"""On a machine slow enough that the quiet canary's p99 is over a third of the bound, the bound is
this many times that p99: the attack may not make the canary wait three times longer than the
machine alone does (a shared CI machine's pace is not the server's doing)."""


class Server:
    """``shadowtable serve`` on 127.0.0.1:<free port>, stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, folder: Path, args: tuple[str, ...], database: str, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.folder = folder
        self.log_path = folder / f"server-{self.port}.log"
        environment = {
            **os.environ,
            "SHADOWTABLE_DATA_DIR": str(folder),
            "SHADOWTABLE_SECRET": SECRET,
            "SHADOWTABLE_BOT_DELAY": "0",
            "SHADOWTABLE_LOG_LEVEL": "warning",
            "PYTHONPATH": source_path(),
            **env,
        }
        command = [str(Path(sys.executable).with_name("shadowtable")), "serve", "--port", str(self.port)]
        if database:
            command += ["--database", database]
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [*command, *args], env=environment, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.pid = self.proc.pid
        wait_healthy(self.url, self.proc, self.log_text)

    def log_text(self) -> str:
        self._log.flush()
        return self.log_path.read_text("utf-8", errors="replace")

    def rss_mb(self) -> float:
        """The server process's resident memory in MB (Linux)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self._log.close()


def postgres_url() -> str:
    return os.environ.get("SHADOWTABLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def admin_sql(sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(postgres_url(), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def new_postgres_database() -> str:
    """A fresh PostgreSQL database's URL (the caller drops it with :func:`drop_postgres_database`)."""
    name = f"shadowtable_hostile_{secrets.token_hex(4)}"
    asyncio.run(admin_sql(f"CREATE DATABASE {name}"))
    return postgres_url().rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with contextlib.suppress(Exception):
        asyncio.run(admin_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def p99(samples: list[float]) -> float:
    """The 99th percentile of ``samples`` (the largest one when there are fewer than 100)."""
    if not samples:
        return float("inf")
    if len(samples) < 100:
        return max(samples)
    return statistics.quantiles(samples, n=100, method="inclusive")[98]


class Canary:
    """A Shadow Planet table played beside an attack: one human seat that this client plays with
    random legal actions, heuristic bots in the others, and a new table, from another address in
    ``client_ip``'s network, when a game ends.

    ``ack_ms`` holds each move's wait for its ``ack`` and ``pong_ms`` each ``ping``'s wait for its
    ``pong`` (one every 20 ms, answered or not, so a stall shows in proportion to its length); a
    message still unanswered when the canary stops counts with its wait so far.  :meth:`p99_ms` is
    over both, from the end of the first :data:`QUIET_S` seconds of play (before any attack
    starts), whose p99 is :attr:`quiet_p99_ms`; :meth:`bound_ms` is the bound the p99 is held to."""

    def __init__(self, server: Server, client_ip: str = CANARY_IP, game: str = "shadow-planet", players: int = 4):
        self.server = server
        self.client_ip = client_ip
        self.headers = {"X-Forwarded-For": client_ip}
        self.game, self.players = game, players
        self.ack_ms: list[float] = []
        self.pong_ms: list[float] = []
        self._pings: list[float] = []
        self.games = 0
        self.errors: list[str] = []
        self._task: asyncio.Task[None] | None = None
        self._waiting_since: float | None = None
        self.quiet_p99_ms = 0.0

    @property
    def acks(self) -> int:
        return len(self.ack_ms)

    def p99_ms(self) -> float:
        return p99(self.ack_ms + self.pong_ms)

    def bound_ms(self) -> float:
        """:data:`CANARY_P99_MS`, or :data:`QUIET_FACTOR` times the quiet p99 where that is more."""
        return max(CANARY_P99_MS, QUIET_FACTOR * self.quiet_p99_ms)

    def summary(self) -> str:
        return (
            f"canary: {self.acks} acks in {self.games} games and {len(self.pong_ms)} pongs, p99 "
            f"{self.p99_ms():.1f} ms, max {max(self.ack_ms + self.pong_ms, default=0):.1f} ms (bound "
            f"{self.bound_ms():.0f} ms; quiet p99 {self.quiet_p99_ms:.1f} ms), errors {self.errors[:3]}"
        )

    async def __aenter__(self) -> Canary:
        self._task = asyncio.create_task(self._run())
        # started: the first move acknowledged (or the canary failed)
        deadline = time.monotonic() + 60
        while not self.ack_ms and not self._task.done() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self._task.done():
            self._task.result()
        if not self.ack_ms:
            raise AssertionError(f"the canary never got an ack: {self.errors}")
        await asyncio.sleep(QUIET_S)  # the machine's own pace, before any attack
        if self._task.done():
            self._task.result()
        self.quiet_p99_ms = p99(self.ack_ms + self.pong_ms)
        self.ack_ms, self.pong_ms = [], []  # what follows is measured against the bound
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        assert self._task is not None
        if self._task.done() and self._task.exception() is not None:
            raise AssertionError(f"the canary failed: {self._task.exception()!r}")
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        now = time.perf_counter()
        if self._waiting_since is not None:
            self.ack_ms.append((now - self._waiting_since) * 1000)
        self.pong_ms.extend((now - sent) * 1000 for sent in self._pings)
        print(self.summary())  # shown with -s or when the test fails

    async def _run(self) -> None:
        async with httpx.AsyncClient(base_url=self.server.url, headers=self.headers, timeout=30) as http:
            while True:
                await self._play_one(http)
                self.games += 1

    def _address(self) -> str:
        """The address of the canary's next game: each game comes from another player (the
        canary stands for the other clients of the server, so no per-client limit holds it)."""
        network, _, last = self.client_ip.rpartition(".")
        return f"{network}.{(int(last) + self.games) % 250 + 1}"

    async def _play_one(self, http: httpx.AsyncClient) -> None:
        seats = ["human"] + ["bot:heuristic"] * (self.players - 1)
        self.headers = {"X-Forwarded-For": self._address()}
        http.headers.update(self.headers)
        http.cookies.clear()  # an API client: it holds its seat by the token (a cookie needs an Origin)
        answer = await http.post(
            "/api/tables",
            json={"game": self.game, "players": self.players, "seats": seats, "listed": False, "name": "Canary"},
        )
        if answer.status_code != 201:
            self.errors.append(f"create {answer.status_code}: {answer.text[:200]}")
            raise AssertionError(f"the canary could not create its table: {answer.status_code} {answer.text[:300]}")
        created = answer.json()
        table_id, token = created["table"]["id"], created["token"]
        async with websockets.connect(
            f"{self.server.ws_url}/ws/{table_id}", additional_headers=self.headers, max_size=2**24
        ) as socket:
            await socket.send(json.dumps({"t": "hello", "token": token}))
            pinger = asyncio.create_task(self._ping(socket))
            try:
                await self._play_on(socket)
            finally:
                pinger.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pinger

    async def _ping(self, socket: Any) -> None:
        """A ping every 20 ms whether or not the last one was answered: a stall of the server
        delays every ping sent during it, so its length shows in the percentiles (no coordinated
        omission)."""
        while True:
            await asyncio.sleep(0.02)
            self._pings.append(time.perf_counter())
            await socket.send('{"t":"ping"}')

    async def _play_on(self, socket: Any) -> None:
        sent = 0
        while True:
            message = json.loads(await socket.recv())
            kind = message["t"]
            if kind == "over":
                return
            if kind == "pong" and self._pings:
                self.pong_ms.append((time.perf_counter() - self._pings.pop(0)) * 1000)
            if kind == "refused":
                raise AssertionError(f"the canary's seat was refused: {message}")
            if kind == "ack" and self._waiting_since is not None:
                self.ack_ms.append((time.perf_counter() - self._waiting_since) * 1000)
                self._waiting_since = None
            elif kind == "reject":
                self.errors.append(str(message)[:200])
                self._waiting_since = None
                await socket.send(json.dumps({"t": "sync", "v": 0}))
            elif kind == "view" and message.get("legal") and self._waiting_since is None:
                sent += 1
                action = secrets.choice(message["legal"])[0]
                self._waiting_since = time.perf_counter()
                await socket.send(json.dumps({"t": "act", "id": f"c{sent}", "turn": message["turn"], "action": action}))


async def attacker(module: str, function: str, *args: Any) -> Any:
    """Run ``function(*args)`` of ``module`` (a coroutine function whose answer is JSON) in a
    process of its own at a lower priority, as an attacker on another machine would: its own work
    (the client side of a flood) does not take the CPU from the server or the canary's client on a
    small test machine.  Its answer."""
    code = (
        "import asyncio, json, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        f"from {module} import {function}\n"
        f"print(json.dumps(asyncio.run({function}(*json.loads(sys.argv[1])))))\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        json.dumps(args),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": source_path()},
        preexec_fn=lambda: os.nice(10),
    )
    out, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, out[-2000:]
    return json.loads(out)
