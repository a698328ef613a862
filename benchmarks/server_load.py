"""Load test of ``shadowtable serve``: many human seats, each a WebSocket, acting after a think time.

Every seat of every table is a person simulated here: when its view has legal actions it waits a
think time (uniform, default 1-3 s), then sends a random legal action and measures the time from
sending the ``act`` to receiving its ``ack``.  The first ``--warmup`` seconds are not measured.
Errors are rejects, closed sockets and acks that never came (``--ack-timeout``).

Unless ``--url`` is given the script starts its own server (``--bot-delay 0``, a fresh SQLite file in
a temporary folder, or a fresh scratch database on the PostgreSQL server of ``--database``), pinned
to the last CPU while this client keeps the others (``--no-pin`` to share them).

    python benchmarks/server_load.py --seconds 60
    python benchmarks/server_load.py --database postgresql://postgres@127.0.0.1:5432/test --seconds 60
    python benchmarks/server_load.py --stress seats --seconds 20   # 500, 1000, 1500 seats
    python benchmarks/server_load.py --stress think --seconds 20   # think 1-3, 0.5-1, 0.2-0.5 s
    python benchmarks/server_load.py --database sqlite,postgresql://postgres@127.0.0.1:5432/test \
        --load idle,busy --repeat 3 --seconds 60                  # both databases side by side
    python benchmarks/server_load.py --load idle,analyses --repeat 3 --seconds 60  # 20 analyses queued or none
    python benchmarks/server_load.py --load idle,lab,analyses,games --repeat 3 --seconds 60  # side by side

Several databases (comma-separated) and loads run alternately, each run on a fresh server and
database, ``--repeat`` times; the summary gives each (load, database) pair's medians over its runs.
``busy``: one process per CPU spinning in a loop (not pinned) for the whole run, so the server,
the client and the database compete for the cores with them.  ``analyses``: before the seats sit
down, ``--analyses`` (default 20) tables of bots play a game to the end and their analyses are
asked for, so the server's analysis worker (``--analysis-workers``, default 1, with its default
budget) runs them while the moves are measured; each run says how many it finished.  ``games``:
the same tables played, no analysis asked for (the control: what the finished games alone cost).
``lab``: before the seats sit down, an account of the designer's lab starts a run of
``--lab-games`` (default 2000) games of The Shadow Planet with random bots, which the same
background worker plays in chunks while the moves are measured; each run says how many games
it played.

``--out FILE`` writes the results as JSON (an existing file is refused unless ``--force``);
``--profile FILE`` runs the server under cProfile and writes its statistics there at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
KNEE_MS = 50.0
STRESS_SEATS = [500, 1000, 1500]
STRESS_THINK = [(1.0, 3.0), (0.5, 1.0), (0.2, 0.5)]
SERVER_CODE = """
import cProfile, sys
sys.path.insert(0, {src!r})
from shadowtable.cli import run
profile = {profile!r}
if not profile:
    run()
else:
    profiler = cProfile.Profile()
    try:
        profiler.runcall(run)
    except SystemExit:
        pass
    finally:
        profiler.dump_stats(profile)
"""


@dataclass
class Step:
    """One measured run: its settings and what was seen."""

    seats: int
    think: tuple[float, float]
    database: str = "sqlite"
    load: str = "idle"
    latencies_ms: list[float] = field(default_factory=list)
    acts: int = 0
    rejects: int = 0
    disconnects: int = 0
    timeouts: int = 0
    warmup_errors: int = 0
    games_over: int = 0
    lag_ms: list[float] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return self.rejects + self.disconnects + self.timeouts

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)
        return {
            "database": self.database,
            "load": self.load,
            "seats": self.seats,
            "think_s": list(self.think),
            "acks": len(lat),
            "acks_per_s": None,
            "p50_ms": _pct(lat, 50),
            "p95_ms": _pct(lat, 95),
            "p99_ms": _pct(lat, 99),
            "max_ms": lat[-1] if lat else None,
            "mean_ms": statistics.fmean(lat) if lat else None,
            "rejects": self.rejects,
            "disconnects": self.disconnects,
            "timeouts": self.timeouts,
            "errors": self.errors,
            "warmup_errors": self.warmup_errors,
            "reasons": self.reasons,
            "games_over": self.games_over,
            "client_lag_p99_ms": _pct(sorted(self.lag_ms), 99),
        }


UNLIMITED = {
    "SHADOWTABLE_RATE_TABLES": "0/minute",
    "SHADOWTABLE_RATE_JOINS": "0/minute",
    "SHADOWTABLE_MAX_OPEN_TABLES": "0",
    "SHADOWTABLE_MAX_FREE_SEATS": "0",
    "SHADOWTABLE_SOCKETS_PER_CLIENT": "100000",
    "SHADOWTABLE_RATE_ANALYSES": "0/minute",
    "SHADOWTABLE_LAB_ACCOUNTS": "labdesigner",
}
"""The per-client limits turned off for the server under test."""


def _pct(values: list[float], pct: float) -> float | None:
    if not values:
        return None
    k = min(len(values) - 1, max(0, round(pct / 100 * len(values) + 0.5) - 1))
    return values[k]


# -- the server -----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


class Server:
    """A ``shadowtable serve`` subprocess on a fresh database (dropped or deleted at the end)."""

    def __init__(
        self, database: str, cpus: set[int] | None, profile: str | None, log: Path, analysis_workers: int = 1
    ) -> None:
        self.analysis_workers = analysis_workers
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tmp = tempfile.TemporaryDirectory(prefix="shadowtable-load-")
        self.scratch: str | None = None
        if database.startswith("postgresql"):
            self.scratch = f"shadowtable_load_{secrets.token_hex(4)}"
            self.admin = database
            self.database = database.rsplit("/", 1)[0] + "/" + self.scratch
        else:
            self.database = str(Path(self.tmp.name) / "server.db")
        self.cpus = cpus
        self.profile = profile
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        if self.scratch:
            await _admin(self.admin, f"CREATE DATABASE {self.scratch}")
        env = {
            **os.environ,
            "SHADOWTABLE_SECRET": "load-test-secret-of-at-least-32-bytes",
            "SHADOWTABLE_DATA_DIR": self.tmp.name,
        }
        env.update(UNLIMITED)  # one load client makes every table and takes every seat
        command = [
            sys.executable,
            "-c",
            SERVER_CODE.format(src=str(ROOT / "src"), profile=self.profile or ""),
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--bot-delay",
            "0",
            "--bot-workers",
            "0",
            "--default-bot",
            "random",
            "--grace",
            "3600",
            "--analysis-workers",
            str(self.analysis_workers),
            "--log-level",
            "warning",
        ]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=self.log.open("ab"))
        if self.cpus:
            os.sched_setaffinity(self.process.pid, self.cpus)
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                if self.process.poll() is not None:
                    raise SystemExit(f"the server exited ({self.process.returncode}): see {self.log}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(self.url + "/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit("the server did not answer /healthz within 30 s")

    async def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                await asyncio.to_thread(self.process.wait, 60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.scratch:
            with contextlib.suppress(Exception):
                await _admin(self.admin, f"DROP DATABASE IF EXISTS {self.scratch} WITH (FORCE)")
        self.tmp.cleanup()


# -- the seats ------------------------------------------------------------------------------------
async def _seat_tokens(url: str, tables: int, game: str, players: int) -> list[tuple[str, str]]:
    """Create ``tables`` tables with a person in every seat; returns (table, token) per seat."""
    out: list[tuple[str, str]] = []
    limit = asyncio.Semaphore(20)

    async def one(client: httpx.AsyncClient) -> list[tuple[str, str]]:
        async with limit:
            made = await client.post("/api/tables", json={"game": game, "players": players, "listed": False})
            made.raise_for_status()
            table = made.json()["table"]["id"]
            seats = [(table, made.json()["token"])]
            for _ in range(players - 1):
                joined = await client.post(f"/api/tables/{table}/join", json={})
                joined.raise_for_status()
                seats.append((table, joined.json()["token"]))
            return seats

    # a cookie jar: it says where it comes from, as a browser does (the server refuses cookies without it)
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60) as client:
        for seats in await asyncio.gather(*(one(client) for _ in range(tables))):
            out.extend(seats)
    return out


ANALYSED_GAME = ("shadow-planet", 3)
"""The game whose finished tables are analysed in an ``analyses`` run."""


async def queue_analyses(url: str, count: int, *, ask: bool = True) -> list[str]:
    """Play ``count`` tables of random bots to the end and (``ask``) ask for each one's analysis;
    their ids."""
    game, players = ANALYSED_GAME
    seats = ["bot:random"] * players
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60) as client:
        made = [
            await client.post("/api/tables", json={"game": game, "players": players, "seats": seats, "listed": False})
            for _ in range(count)
        ]
        table_ids = [answer.raise_for_status().json()["table"]["id"] for answer in made]
        for table_id in table_ids:
            while (await client.get(f"/api/tables/{table_id}")).json()["status"] != "over":
                await asyncio.sleep(0.2)
        for table_id in table_ids if ask else []:
            (await client.post(f"/api/tables/{table_id}/analysis")).raise_for_status()
    return table_ids


async def analysis_counts(url: str, table_ids: list[str]) -> dict[str, int]:
    """How many of the analyses of ``table_ids`` are in each status."""
    counts: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60) as client:
        for table_id in table_ids:
            status = (await client.get(f"/api/tables/{table_id}/analysis")).json()["status"]
            counts[status] = counts.get(status, 0) + 1
    return counts


LAB_ACCOUNT = ("labdesigner", "quiet harbour lantern 5821")
"""The account that starts the ``lab`` load's run (the server under test allows it the lab)."""


async def start_lab_run(url: str, games: int) -> tuple[httpx.AsyncClient, str]:
    """Sign up the lab's account and start a run of ``games`` games of random bots; the signed-in
    client (to read the run afterwards; the caller closes it) and the run's id, once it plays."""
    game, players = ANALYSED_GAME
    name, password = LAB_ACCOUNT
    client = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60)
    (await client.post("/api/accounts", json={"name": name, "password": password})).raise_for_status()
    spec = {
        "game": game,
        "players": players,
        "variants": [{"name": "baseline", "options": {}, "content": None}],
        "bots": ["level0"],
        "games": games,
        "seed": 1,
    }
    made = (await client.post("/api/lab/runs", json=spec)).raise_for_status().json()
    run_id = str(made["id"])
    for _ in range(300):
        if (await client.get(f"/api/lab/runs/{run_id}")).json()["status"] != "queued":
            break
        await asyncio.sleep(0.1)
    return client, run_id


async def lab_progress(client: httpx.AsyncClient, run_id: str) -> dict[str, Any]:
    """The lab run's status and games played."""
    answer = (await client.get(f"/api/lab/runs/{run_id}")).json()
    return {"status": answer["status"], "games_played": sum(answer["done"])}


class Run:
    """The seats of one step, acting until ``stop`` is set."""

    def __init__(self, url: str, step: Step, ack_timeout: float) -> None:
        self.ws_url = url.replace("http", "ws", 1)
        self.step = step
        self.ack_timeout = ack_timeout
        self.measuring = False
        self.stop = asyncio.Event()
        self.ready = 0

    def error(self, kind: str, why: str) -> None:
        if not self.measuring:
            self.step.warmup_errors += 1
            return
        setattr(self.step, kind, getattr(self.step, kind) + 1)
        self.step.reasons[why[:60]] = self.step.reasons.get(why[:60], 0) + 1

    async def seat(self, table: str, token: str, gate: asyncio.Semaphore) -> None:
        async with gate:
            ws = await connect(f"{self.ws_url}/ws/{table}", max_size=None, open_timeout=60, ping_interval=None)
        pending: dict[str, float] = {}
        acting: dict[str, Any] = {"turn": None, "task": None}
        count = 0

        async def act(view: dict[str, Any]) -> None:
            nonlocal count
            await asyncio.sleep(random.uniform(*self.step.think))
            count += 1
            act_id = f"{count}"
            pending[act_id] = time.perf_counter()
            action = random.choice(view["legal"])[0]
            await ws.send(json.dumps({"t": "act", "id": act_id, "turn": view["turn"], "action": action}))

        async def watchdog() -> None:
            while True:
                await asyncio.sleep(0.5)
                now = time.perf_counter()
                for act_id, sent in list(pending.items()):
                    if now - sent > self.ack_timeout:
                        del pending[act_id]
                        self.error("timeouts", "no ack")

        dog = asyncio.ensure_future(watchdog())
        try:
            await ws.send(json.dumps({"t": "hello", "token": token}))
            self.ready += 1
            async for raw in ws:
                message = json.loads(raw)
                kind = message["t"]
                if kind == "view":
                    if message["legal"] and message["turn"] != acting["turn"]:
                        acting["turn"] = message["turn"]
                        acting["task"] = asyncio.ensure_future(act(message))
                elif kind == "ack":
                    sent = pending.pop(str(message["id"]), None)
                    if sent is not None and self.measuring:
                        self.step.latencies_ms.append((time.perf_counter() - sent) * 1000)
                        self.step.acts += 1
                elif kind == "reject":
                    pending.pop(str(message["id"]), None)
                    acting["turn"] = None  # the view that follows is acted on again
                    self.error("rejects", message["why"])
                elif kind == "over":
                    self.step.games_over += 1
                    break
                elif kind == "refused":
                    self.error("disconnects", "refused: " + message["why"])
                    break
            else:
                if not self.stop.is_set():
                    self.error("disconnects", "connection closed")
        except ConnectionClosed:
            if not self.stop.is_set():
                self.error("disconnects", "connection closed")
        finally:
            dog.cancel()
            if acting["task"] is not None:
                acting["task"].cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    async def lag_probe(self) -> None:
        """How late this client's own event loop wakes up (a busy client inflates its latencies)."""
        while not self.stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.05)
            if self.measuring:
                self.step.lag_ms.append((time.perf_counter() - start - 0.05) * 1000)


async def run_step(url: str, step: Step, args: argparse.Namespace, duration: float) -> dict[str, Any]:
    """Seat ``step.seats`` people on fresh tables at ``url``, warm up, measure for ``duration`` s."""
    tables = max(1, step.seats // args.players)
    step.seats = tables * args.players
    seats = await _seat_tokens(url, tables, args.game, args.players)
    run = Run(url, step, args.ack_timeout)
    gate = asyncio.Semaphore(50)
    tasks = [asyncio.ensure_future(run.seat(t, tok, gate)) for t, tok in seats]
    probe = asyncio.ensure_future(run.lag_probe())
    while run.ready < len(seats):
        if any(t.done() and t.exception() for t in tasks):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(args.warmup)
    run.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(duration)
    run.measuring = False
    elapsed = time.perf_counter() - started
    run.stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, probe, return_exceptions=True)
    out = step.summary()
    out["acks_per_s"] = round(out["acks"] / elapsed, 1)
    out["measured_s"] = round(elapsed, 1)
    return out


# -- main -----------------------------------------------------------------------------------------
def _think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def _cpus(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """(server CPUs, client CPUs): the last CPU for the server, the others for this client."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin or len(cpus) < 2:
        return None, None
    return {cpus[-1]}, set(cpus[:-1])


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _row(r: dict[str, Any]) -> str:
    think = f"{r['think_s'][0]:g}-{r['think_s'][1]:g}"
    return (
        f"{r['database']:>10} {r['load']:>8} {r['seats']:>6} {think:>8} {r['acks']:>7} {r['acks_per_s']:>7} "
        f"{_ms(r['p50_ms']):>8} {_ms(r['p99_ms']):>8} {_ms(r['max_ms']):>8} {r['rejects']:>7} "
        f"{r['disconnects']:>7} {r['timeouts']:>8} {_ms(r['client_lag_p99_ms']):>8}"
    )


HEADER = (
    f"{'database':>10} {'load':>8} {'seats':>6} {'think s':>8} {'acks':>7} {'acks/s':>7} {'p50 ms':>8} "
    f"{'p99 ms':>8} {'max ms':>8} {'rejects':>7} {'closed':>7} {'timeouts':>8} {'lag p99':>8}"
)


def _kind(database: str) -> str:
    return "postgresql" if database.startswith("postgresql") else "sqlite"


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (load, database, seats, think): the median of each figure over the runs, and the runs."""
    groups: dict[tuple[str, str, int, tuple[float, float]], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["load"], r["database"], r["seats"], tuple(r["think_s"])), []).append(r)
    out = []
    for (load, database, seats, think), runs in groups.items():
        row: dict[str, Any] = {"load": load, "database": database, "seats": seats, "think_s": list(think)}
        row["runs"] = len(runs)
        for key in ("acks_per_s", "p50_ms", "p95_ms", "p99_ms", "max_ms", "client_lag_p99_ms"):
            values = [r[key] for r in runs if r[key] is not None]
            row[key] = statistics.median(values) if values else None
            row[key + "_runs"] = [r[key] for r in runs]
        row["errors"] = sum(r["errors"] for r in runs)
        out.append(row)
    return out


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _median_row(m: dict[str, Any]) -> str:
    p99s = ", ".join(_ms(v) for v in m["p99_ms_runs"])
    return (
        f"{m['database']:>10} {m['load']:>8} {m['seats']:>6} {m['runs']:>4} {_rate(m['acks_per_s']):>7} "
        f"{_ms(m['p50_ms']):>8} {_ms(m['p95_ms']):>8} {_ms(m['p99_ms']):>8} {m['errors']:>6}   {p99s}"
    )


MEDIAN_HEADER = (
    f"{'database':>10} {'load':>8} {'seats':>6} {'runs':>4} {'acks/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
    f"{'errors':>6}   p99 of each run"
)


@contextlib.contextmanager
def busy_cores(count: int) -> Any:
    """``count`` processes spinning in a loop, not pinned (they compete for every core)."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    server_cpus, client_cpus = _cpus(args.pin and args.url is None)
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    if args.stress == "seats":
        settings = [(n, _think(args.think)) for n in STRESS_SEATS]
    elif args.stress == "think":
        settings = [(args.seats, think) for think in STRESS_THINK]
    else:
        settings = [(args.seats, _think(args.think))]
    databases = [d.strip() for d in args.database.split(",") if d.strip()]
    loads = [x.strip() for x in args.load.split(",") if x.strip()]
    plan = [
        Step(seats, think, database, load)
        for _ in range(args.repeat)
        for load in loads
        for seats, think in settings
        for database in databases
    ]
    log = Path(tempfile.gettempdir()) / f"shadowtable-load-server-{os.getpid()}.log"
    results = []
    print(HEADER, flush=True)
    for step in plan:
        url = args.url
        server = (
            None if url is not None else Server(step.database, server_cpus, args.profile, log, args.analysis_workers)
        )
        step.database = _kind(step.database)
        with busy_cores(args.busy_procs if step.load == "busy" else 0):
            if server is not None:
                await server.start()
                url = server.url
            try:
                analysed = []
                if step.load in ("games", "analyses"):
                    analysed = await queue_analyses(url, args.analyses, ask=step.load == "analyses")
                lab = await start_lab_run(url, args.lab_games) if step.load == "lab" else None
                result = await run_step(url, step, args, args.seconds)
                if step.load == "analyses":
                    result["analyses"] = await analysis_counts(url, analysed)
                if lab is not None:
                    result["lab"] = await lab_progress(*lab)
                    await lab[0].aclose()
            finally:
                if server is not None:
                    await server.stop()
        results.append(result)
        print(_row(result), flush=True)
        if "analyses" in result:
            print(f"{'':>10} analyses after the run: {result['analyses']}", flush=True)
        if "lab" in result:
            print(f"{'':>10} lab run after the run: {result['lab']}", flush=True)
    summary = medians(results)
    if len(results) > len(summary) or len(summary) > 1:
        print("\nmedians over the runs:\n" + MEDIAN_HEADER)
        for m in summary:
            print(_median_row(m))
    knee = next(
        (r for r in results if (r["p99_ms"] is not None and r["p99_ms"] > KNEE_MS) or r["errors"]),
        None,
    )
    return {
        "databases": sorted({_kind(d) for d in databases}),
        "loads": loads,
        "busy_procs": args.busy_procs,
        "url": args.url,
        "game": args.game,
        "players": args.players,
        "seconds": args.seconds,
        "warmup_s": args.warmup,
        "pinned": {"server": sorted(server_cpus or []), "client": sorted(client_cpus or [])},
        "cpus": os.cpu_count(),
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "steps": results,
        "medians": summary,
        "knee": None if knee is None else {"seats": knee["seats"], "think_s": knee["think_s"]},
        "server_log": str(log),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=500, help="seats (people), each a WebSocket (default 500)")
    parser.add_argument("--players", type=int, default=5, help="seats per table (default 5)")
    parser.add_argument("--game", default="shadow-planet")
    parser.add_argument("--think", default="1-3", help="think time range in seconds (default 1-3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per step (default 60)")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds not measured after seating (default 8)")
    parser.add_argument("--ack-timeout", type=float, default=5.0, help="an ack later than this is an error")
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (a fresh file) or postgresql://.../any_db; several, comma-separated, run alternately",
    )
    parser.add_argument(
        "--load",
        default="idle",
        help="idle, busy (--busy-procs spinning processes), games, analyses, lab; several: idle,busy",
    )
    parser.add_argument("--analyses", type=int, default=20, help="analyses queued in an analyses run (default 20)")
    parser.add_argument("--lab-games", type=int, default=2000, help="games of the lab run of a lab run (default 2000)")
    parser.add_argument("--analysis-workers", type=int, default=1, help="the server's analysis workers (default 1)")
    parser.add_argument(
        "--busy-procs", type=int, default=os.cpu_count() or 2, help="spinning processes for busy (default: CPUs)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (load, database) pair (default 1)")
    parser.add_argument("--url", help="an already running server (nothing is started)")
    parser.add_argument("--stress", choices=["seats", "think"], help="steps: 500/1000/1500 seats, or shorter thinks")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and client apart")
    parser.add_argument("--profile", help="run the server under cProfile; its statistics go to this file")
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite --out")
    args = parser.parse_args(argv)
    if args.out is not None and args.out.exists() and not args.force:
        parser.error(f"{args.out} exists (use --force to overwrite)")
    if set(args.load.split(",")) - {"idle", "busy", "games", "analyses", "lab"}:
        parser.error("--load takes idle, busy, games, analyses, lab or several of them: idle,lab")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 65536)), hard))
    results = asyncio.run(main_async(args))
    knee = results["knee"]
    print(
        f"knee (p99 > {KNEE_MS:g} ms or any error): "
        + ("not reached" if knee is None else f"{knee['seats']} seats, think {knee['think_s']} s")
    )
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
        print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
