"""Faults under load: the server killed with SIGKILL, and PostgreSQL restarted while seats act.

The server runs as a subprocess (``shadowtable serve`` of this checkout).  Every seat is a person
simulated with a WebSocket that records each acknowledged act id; whatever is acknowledged must be
stored, every table must replay, every seat must resync exactly and every game must finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")
pytest.importorskip("fastapi")

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from server.conftest import POSTGRES, _admin, _postgres_url  # noqa: E402
from shadowtable.core.registry import make  # noqa: E402
from shadowtable.server.live import LiveTable, replayed  # noqa: E402

pytestmark = pytest.mark.serial  # kills servers under load and restarts PostgreSQL itself

SRC = Path(__file__).resolve().parents[2] / "src"
GAME, PLAYERS = "shadow-planet", 5


# -- the server subprocess ----------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``shadowtable serve`` of this checkout on ``database`` (a new port at each start)."""

    def __init__(self, database: str, folder: Path) -> None:
        self.database = database
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.port = _free_port()
        self.starts += 1
        env = {
            **os.environ,
            "SHADOWTABLE_SECRET": "fault-test-secret-of-at-least-32-bytes",
            "SHADOWTABLE_SOCKETS_PER_CLIENT": "100000",  # every seat here comes from one address
            "SHADOWTABLE_DATA_DIR": str(self.folder),
            "PYTHONPATH": str(SRC),
        }
        code = f"import sys; sys.path.insert(0, {str(SRC)!r}); from shadowtable.cli import run; run()"
        # the flags: --sqlite-sync is left at its default (NORMAL)
        command = [sys.executable, "-c", code, "serve", "--port", str(self.port), "--database", self.database]
        command += ["--bot-delay", "0", "--bot-workers", "0", "--default-bot", "random", "--grace", "600"]
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                assert self.process.poll() is None, self.log()
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(self.http + "/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise AssertionError("the server did not answer /healthz: " + self.log())

    def log(self) -> str:
        return (self.folder / f"server-{self.starts}.log").read_text("utf-8", "replace")[-3000:]

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextlib.asynccontextmanager
async def running(database: str, folder: Path) -> AsyncIterator[Server]:
    server = Server(database, folder)
    await server.start()
    try:
        yield server
    finally:
        server.stop()


# -- a person at a seat -------------------------------------------------------------------------
class Player:
    """One seat's WebSocket: acts on each view with legal actions after a think time."""

    def __init__(self, table: str, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.ws: ClientConnection | None = None
        self.acked: set[str] = set()
        self.pending: dict[str, Any] | None = None  # the act sent and not yet answered
        self.view: dict[str, Any] | None = None  # the latest view
        self.first: dict[str, Any] | None = None  # the first view of the current connection
        self.acted_turn: int | None = None
        self.rejects: list[str] = []
        self.over: dict[str, Any] | None = None
        self.count = 0
        self.prefix = "a"

    @property
    def v(self) -> int:
        return 0 if self.view is None else int(self.view["v"])

    async def open(self, base: str, v: int | None = None) -> None:
        """Connect and say hello (with ``v``); reads until the first view."""
        self.ws = await connect(f"{base}/ws/{self.table}", open_timeout=20, ping_interval=None, max_size=None)
        hello: dict[str, Any] = {"t": "hello", "token": self.token}
        if v is not None:
            hello["v"] = v
        await self.ws.send(json.dumps(hello))
        self.first = None
        while self.first is None:
            await self.handle(json.loads(await self.ws.recv()))

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "view":
            self.view = message
            self.first = self.first or message
        elif kind == "ack":
            assert self.pending is not None and message["id"] == self.pending["id"], message
            self.acked.add(message["id"])
            self.pending = None
        elif kind == "reject":
            assert self.pending is not None and message["id"] == self.pending["id"], message
            self.rejects.append(message["why"])
            self.pending = None
            self.acted_turn = None  # the view that follows is acted on again
        elif kind == "over":
            self.over = message
        elif kind == "refused":
            raise AssertionError(f"seat {self.seat} refused: {message}")

    async def send_act(self, act: dict[str, Any]) -> None:
        assert self.ws is not None
        self.pending = act
        self.acted_turn = act["turn"]
        await self.ws.send(json.dumps({"t": "act", **act}))

    async def play(self, think: float, stop: asyncio.Event | None = None) -> str:
        """Act until the game is over (``"over"``), the socket closes (``"closed"``) or ``stop``."""
        assert self.ws is not None
        try:
            while self.over is None and not (stop is not None and stop.is_set()):
                view = self.view
                if self.pending is None and view is not None and view["legal"] and view["turn"] != self.acted_turn:
                    await asyncio.sleep(random.uniform(0, think))
                    self.count += 1
                    act = {
                        "id": f"{self.prefix}{self.count}",
                        "turn": view["turn"],
                        "action": random.choice(view["legal"])[0],
                    }
                    await self.send_act(act)
                try:
                    message = await asyncio.wait_for(self.ws.recv(), 0.2)
                except TimeoutError:
                    continue
                await self.handle(json.loads(message))
        except ConnectionClosed:
            return "closed"
        return "over" if self.over is not None else "stopped"

    async def drain(self) -> None:
        """Read whatever the closed socket still delivers."""
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while True:
                await self.handle(json.loads(await asyncio.wait_for(self.ws.recv(), 5)))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def seat_everyone(server: Server, tables: int) -> list[Player]:
    """``tables`` tables of :data:`GAME` with a person in every seat."""
    players: list[Player] = []
    # it keeps the seat cookies, as a browser does, so it says where it comes from, as a browser does
    async with httpx.AsyncClient(base_url=server.http, headers={"Origin": server.http}, timeout=30) as client:
        for _ in range(tables):
            made = await client.post("/api/tables", json={"game": GAME, "players": PLAYERS, "listed": False})
            assert made.status_code == 201, made.text
            table = made.json()["table"]["id"]
            players.append(Player(table, 0, made.json()["token"]))
            for seat in range(1, PLAYERS):
                joined = await client.post(f"/api/tables/{table}/join", json={"seat": seat})
                assert joined.status_code == 200, joined.text
                players.append(Player(table, seat, joined.json()["token"]))
    await asyncio.gather(*(p.open(server.ws) for p in players))
    return players


def expected_channels(rows_by_table: dict[str, list[tuple[int, int]]]) -> dict[str, LiveTable]:
    """Each table rebuilt from its stored ``(seat, action)`` rows, as the server replays it."""
    out = {}
    for table, rows in rows_by_table.items():
        game = make(GAME, players=PLAYERS)
        live = LiveTable.new(game)
        live.commit(replayed(game, rows))
        out[table] = live
    return out


async def play_to_the_end(server: Server, players: list[Player], limit_s: float) -> None:
    """Every seat plays (reconnecting if its socket closes) until each has its ``over``."""

    async def one(player: Player) -> None:
        while await player.play(0.002) == "closed":
            await asyncio.sleep(0.2)
            with contextlib.suppress(OSError, ConnectionClosed, TimeoutError):
                await player.open(server.ws, player.v)

    await asyncio.wait_for(asyncio.gather(*(one(p) for p in players)), limit_s)


# -- (a) SIGKILL under load ---------------------------------------------------------------------
def _sqlite_rows(path: Path) -> tuple[dict[str, list[tuple[int, int]]], set[tuple[str, int, str]], dict[str, str]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        actions = db.execute("SELECT table_id, seat, action, client_id FROM actions ORDER BY table_id, idx").fetchall()
        status = dict(db.execute("SELECT id, status FROM tables").fetchall())
    rows: dict[str, list[tuple[int, int]]] = {}
    ids = set()
    for table, seat, action, client_id in actions:
        rows.setdefault(table, []).append((seat, action))
        if client_id is not None:
            ids.add((table, seat, client_id))
    return rows, ids, status


def test_every_acked_act_survives_a_killed_server_and_every_seat_resyncs(tmp_path: Path) -> None:
    asyncio.run(_killed_server(tmp_path))


async def _killed_server(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    server = Server(str(path), tmp_path)
    await server.start()
    try:
        players = await seat_everyone(server, tables=6)
        stop = asyncio.Event()
        playing = [asyncio.ensure_future(p.play(0.01, stop)) for p in players]
        await asyncio.sleep(2.5)
        server.kill()  # SIGKILL while every table is mid-game
        outcomes = await asyncio.wait_for(asyncio.gather(*playing), 20)
        # killed mid-game; a quick table may have ended before the kill (its seats got "over")
        assert set(outcomes) <= {"closed", "over"} and outcomes.count("closed") >= len(outcomes) // 2, outcomes
        await asyncio.gather(*(p.drain() for p in players))

        rows, stored_ids, status = _sqlite_rows(path)
        acked = {(p.table, p.seat, i) for p in players for i in p.acked}
        assert len(acked) > 50, "too little load before the kill"
        assert acked - stored_ids == set()  # zero acknowledged acts lost
        # a stored id without its ack can only be the act each seat had in flight at the kill
        in_flight = {(p.table, p.seat, p.pending["id"]) for p in players if p.pending is not None}
        assert stored_ids - acked <= in_flight
        expected = expected_channels(rows)

        await server.start()  # the same database, a new process
        async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
            for table in {p.table for p in players}:
                info = await client.get(f"/api/tables/{table}")
                assert info.status_code == 200 and info.json()["status"] in {"playing", "over"}
                assert info.json()["status"] == status[table]
        last = {id(p): (p.v, p.view) for p in players}
        for p in players:
            await p.close()
        # everyone says hello with the last version held before anyone acts again
        await asyncio.gather(*(p.open(server.ws, p.v) for p in players))
        for p in players:
            held_v, held_view = last[id(p)]
            channel = expected[p.table].channels[p.seat]
            assert p.first is not None and held_view is not None
            assert p.first["v"] == channel.v >= held_v  # what the stored log says, never behind the seat
            assert p.first["events"] == channel.since(held_v)  # exactly what the seat missed
            if p.first["v"] == held_v:  # nothing stored that the seat had not been shown
                assert p.first["obs"] == held_view["obs"] and p.first["events"] == []
        # an act left unanswered by the kill is sent again with its id: acknowledged, stored once
        for p in players:
            p.prefix = "r"
            if p.pending is not None:
                await p.send_act(p.pending)
        await play_to_the_end(server, players, limit_s=60)

        rows, stored_ids, status = _sqlite_rows(path)
        assert all(p.over is not None for p in players)
        assert set(status.values()) == {"over"}
        assert {(p.table, p.seat, i) for p in players for i in p.acked} <= stored_ids
        assert not [p for p in players if p.rejects], [p.rejects for p in players if p.rejects]
    finally:
        server.stop()


# -- (b) PostgreSQL restarted under load --------------------------------------------------------
def _pg_control(action: str) -> None:
    subprocess.run(["pg_ctlcluster", "15", "main", action], check=True, timeout=60, capture_output=True)


def _can_restart_postgres() -> str | None:
    """Why PostgreSQL cannot be restarted here (``None``: it can)."""
    if shutil.which("pg_ctlcluster") is None or shutil.which("pg_lsclusters") is None:
        return "pg_ctlcluster is not installed"
    if os.geteuid() != 0:
        return "restarting PostgreSQL needs root"
    listed = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=False).stdout.split()
    if listed[:4] != ["15", "main", POSTGRES.rsplit(":", 1)[1].split("/")[0], "online"]:
        return f"no online cluster 15/main serving {POSTGRES}"
    return None


async def _pg_rows(url: str) -> tuple[set[tuple[str, int, str]], dict[str, str]]:
    import asyncpg

    db = await asyncpg.connect(url, timeout=10)
    try:
        ids = {
            (r["table_id"], r["seat"], r["client_id"])
            for r in await db.fetch("SELECT table_id, seat, client_id FROM actions WHERE client_id IS NOT NULL")
        }
        status = {r["id"]: r["status"] for r in await db.fetch("SELECT id, status FROM tables")}
    finally:
        await db.close()
    return ids, status


def test_a_postgresql_restart_fails_closed_and_loses_no_acked_act(tmp_path: Path) -> None:
    why = _can_restart_postgres()
    if why is not None:
        pytest.skip(f"cannot restart PostgreSQL here: {why}")
    name = f"shadowtable_faults_{secrets.token_hex(4)}"
    try:
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
    except Exception as exc:  # noqa: BLE001 - unreachable server
        pytest.skip(f"PostgreSQL at {POSTGRES} not reachable: {exc}")
    try:
        asyncio.run(_postgres_restart(_postgres_url(name), tmp_path))
    finally:
        if "online" not in subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout:
            _pg_control("start")  # leave PostgreSQL running whatever happened
        with contextlib.suppress(Exception):
            asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


async def _postgres_restart(url: str, tmp_path: Path) -> None:
    async with running(url, tmp_path) as server:
        players = await seat_everyone(server, tables=5)
        stop = asyncio.Event()
        playing = [asyncio.ensure_future(p.play(0.01, stop)) for p in players]
        await asyncio.sleep(1.0)
        acked_before = sum(len(p.acked) for p in players)
        await asyncio.to_thread(_pg_control, "stop")
        try:
            await asyncio.sleep(1.5)  # seats go on acting against a server without its database
        finally:
            await asyncio.to_thread(_pg_control, "start")
        stop.set()
        await asyncio.gather(*playing)
        rejects = [why for p in players for why in p.rejects]
        assert acked_before > 20, "too little load before the restart"
        assert rejects, "no act was tried while PostgreSQL was down"
        assert all(why.startswith("not saved, so not played") for why in rejects), set(rejects)
        await play_to_the_end(server, players, limit_s=60)
        stored_ids, status = await _pg_rows(url)
        assert all(p.over is not None for p in players)
        assert set(status.values()) == {"over"}
        assert {(p.table, p.seat, i) for p in players for i in p.acked} - stored_ids == set()
        assert not stored_ids - {(p.table, p.seat, i) for p in players for i in p.acked}  # a reject is never stored
