"""Sustained play on ``scripts/cluster.sh``: 1, 2 and 3 server processes behind nginx on PostgreSQL.

Like ``benchmarks/server_load.py`` (whose ``Step`` and table-making code it imports): every seat
is a person simulated here, a WebSocket that waits a think time once its view has legal actions,
sends a random legal action and measures ``act`` sent → ``ack`` received.  Unlike it, play is
sustained: when a table's game is over, a fresh table takes its place (created and joined through
nginx), so the number of seats in play stays constant.  Reported per step: decisions per second
(acks/s) over the measured window, ack p50/p99/max, games finished, errors (rejects, closed
sockets, acks later than ``--ack-timeout``).

Each run starts a fresh cluster (``scripts/cluster.sh`` with ``--bot-delay 0 --bot-workers 0``)
on a fresh scratch PostgreSQL database (dropped afterwards), pinned with ``taskset`` to
``--cluster-cpus`` (default: the last CPU; nginx and every server process share it), while this
client pins itself to the other CPUs.  PostgreSQL and Redis are not pinned.

    python benchmarks/cluster_load.py --processes 1,2,3 --runs 3 --seconds 20
    python benchmarks/cluster_load.py --processes 2 --cross     # seats of a table on different processes

``--cross`` (for the Redis fan-out, not there yet): the seats of each table connect DIRECTLY to
different processes (seat i to process i mod N), bypassing nginx, so every decision has to cross
processes.  A probe table is played first; if its seats do not see each other's moves within
``--probe-timeout`` seconds the step is reported as "not available" and nothing else is run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import Step, _admin, _free_port, _pct, _seat_tokens  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "cluster.sh"


UNLIMITED = {
    "SHADOWTABLE_RATE_TABLES": "0/minute",
    "SHADOWTABLE_RATE_JOINS": "0/minute",
    "SHADOWTABLE_MAX_OPEN_TABLES": "0",
    "SHADOWTABLE_MAX_FREE_SEATS": "0",
}
"""The per-client limits turned off for the server under test."""


def _think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


# -- the cluster ----------------------------------------------------------------------------------
class Cluster:
    """``scripts/cluster.sh`` on a fresh scratch database, pinned to ``cpus``."""

    def __init__(self, processes: int, admin: str, redis: str, cpus: str, log_dir: Path) -> None:
        self.processes = processes
        self.admin = admin
        self.scratch = f"shadowtable_cluster_load_{secrets.token_hex(4)}"
        self.database = admin.rsplit("/", 1)[0] + "/" + self.scratch
        self.redis = redis
        self.cpus = cpus
        self.run_dir = Path(tempfile.mkdtemp(prefix="cluster-", dir=log_dir))
        self.port = _free_port()
        self.backend_port = _backend_ports(processes)
        self.url = ""
        self.backends = [f"http://127.0.0.1:{self.backend_port + i}" for i in range(processes)]
        self.process: subprocess.Popen[str] | None = None

    async def start(self) -> None:
        await _admin(self.admin, f"CREATE DATABASE {self.scratch}")
        command = ["bash", str(SCRIPT), "--processes", str(self.processes), "--port", str(self.port)]
        command += ["--backend-port", str(self.backend_port), "--database", self.database]
        command += ["--run-dir", str(self.run_dir)]
        command += ["--redis", self.redis] if self.redis else ["--no-redis"]
        command += ["--", "--bot-delay", "0", "--bot-workers", "0", "--default-bot", "random"]
        command += ["--grace", "3600", "--log-level", "warning"]
        if self.cpus:
            command = ["taskset", "-c", self.cpus, *command]
        env = {**os.environ, "PYTHON": sys.executable, "SHADOWTABLE_SECRET": "cluster-load-secret-of-at-least-32-bytes"}
        env.update(UNLIMITED)  # one load client makes every table and takes every seat
        env["SHADOWTABLE_DATA_DIR"] = str(self.run_dir / "data")
        env["SHADOWTABLE_SOCKETS_PER_CLIENT"] = "100000"  # every seat here comes from one address
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
        )
        lines: list[str] = []
        assert self.process.stdout is not None
        while True:
            line = await asyncio.to_thread(self.process.stdout.readline)
            if not line:
                raise SystemExit("scripts/cluster.sh did not start:\n" + "".join(lines[-20:]))
            lines.append(line)
            found = re.match(r"ShadowTable cluster: open (\S+)/ ", line)
            if found:
                self.url = found.group(1)
                return

    async def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.process.wait, 60)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        with contextlib.suppress(Exception):
            await _admin(self.admin, f"DROP DATABASE IF EXISTS {self.scratch} WITH (FORCE)")


def _backend_ports(count: int) -> int:
    import socket

    for _ in range(200):
        base = _free_port()
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise SystemExit("no free ports")


# -- sustained play -------------------------------------------------------------------------------
class Load:
    """Tables in play until ``stop``: each seat a WebSocket; a finished table is replaced."""

    def __init__(self, cluster: Cluster, step: Step, args: argparse.Namespace, cross: bool) -> None:
        self.cluster = cluster
        self.step = step
        self.args = args
        self.cross = cross
        self.measuring = False
        self.stop = asyncio.Event()
        self.decisions = 0  # every ack, measured or not (the probe uses it)
        self.gate = asyncio.Semaphore(50)
        self.last_act: dict[str, tuple[float, int]] = {}
        """Per table: when its last act was sent, and by which seat."""
        self.handoffs_ms: list[float] = []
        """Act sent by one seat → the next deciding seat (another one) has its view: the fan-out."""

    def error(self, kind: str, why: str) -> None:
        if not self.measuring:
            self.step.warmup_errors += 1
            return
        setattr(self.step, kind, getattr(self.step, kind) + 1)
        self.step.reasons[why[:60]] = self.step.reasons.get(why[:60], 0) + 1

    def seat_url(self, table: str, seat: int) -> str:
        base = self.cluster.backends[seat % len(self.cluster.backends)] if self.cross else self.cluster.url
        return base.replace("http", "ws", 1) + f"/ws/{table}"

    async def slot(self) -> None:
        """One table after another, all seats played here, until ``stop``."""
        while not self.stop.is_set():
            try:
                seats = await _seat_tokens(self.cluster.url, 1, self.args.game, self.args.players)
            except httpx.HTTPError as exc:
                self.error("disconnects", f"create: {type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            tasks = [asyncio.ensure_future(self.seat(table, token, i)) for i, (table, token) in enumerate(seats)]
            try:
                await asyncio.gather(*tasks)
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

    async def seat(self, table: str, token: str, index: int) -> None:
        async with self.gate:
            ws = await connect(self.seat_url(table, index), max_size=None, open_timeout=60, ping_interval=None)
        pending: dict[str, float] = {}
        acting: dict[str, Any] = {"turn": None, "task": None}
        count = 0

        async def act(view: dict[str, Any]) -> None:
            nonlocal count
            await asyncio.sleep(random.uniform(*self.step.think))
            count += 1
            pending[str(count)] = time.perf_counter()
            self.last_act[table] = (pending[str(count)], index)
            action = random.choice(view["legal"])[0]
            await ws.send(json.dumps({"t": "act", "id": str(count), "turn": view["turn"], "action": action}))

        async def watchdog() -> None:
            while True:
                await asyncio.sleep(0.5)
                now = time.perf_counter()
                for act_id, sent in list(pending.items()):
                    if now - sent > self.args.ack_timeout:
                        del pending[act_id]
                        self.error("timeouts", "no ack")

        dog = asyncio.ensure_future(watchdog())
        try:
            await ws.send(json.dumps({"t": "hello", "token": token}))
            async for raw in ws:
                message = json.loads(raw)
                kind = message["t"]
                if kind == "view":
                    if message["legal"] and message["turn"] != acting["turn"]:
                        last = self.last_act.pop(table, None)
                        if last is not None and last[1] != index and self.measuring:
                            self.handoffs_ms.append((time.perf_counter() - last[0]) * 1000)
                        acting["turn"] = message["turn"]
                        acting["task"] = asyncio.ensure_future(act(message))
                elif kind == "ack":
                    sent = pending.pop(str(message["id"]), None)
                    self.decisions += 1
                    if sent is not None and self.measuring:
                        self.step.latencies_ms.append((time.perf_counter() - sent) * 1000)
                        self.step.acts += 1
                elif kind == "reject":
                    pending.pop(str(message["id"]), None)
                    acting["turn"] = None
                    self.error("rejects", message["why"])
                elif kind == "over":
                    if index == 0 and self.measuring:
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


async def probe_cross(cluster: Cluster, args: argparse.Namespace) -> str | None:
    """None when seats on different processes play together; else why not."""
    step = Step(args.players, (0.0, 0.05))
    load = Load(cluster, step, args, cross=True)
    load.measuring = True
    slot = asyncio.ensure_future(load.slot())
    deadline = time.monotonic() + args.probe_timeout
    while time.monotonic() < deadline and load.decisions < 4 * args.players and not slot.done():
        await asyncio.sleep(0.2)
    load.stop.set()
    slot.cancel()
    await asyncio.gather(slot, return_exceptions=True)
    if load.decisions >= 4 * args.players and not step.errors:
        return None
    return (
        f"{load.decisions} decisions in {args.probe_timeout:g} s with the seats of one table on different "
        f"processes ({step.errors} errors: {step.reasons or 'none'}): the seats do not see each other's moves"
    )


async def run_once(processes: int, args: argparse.Namespace, log_dir: Path) -> dict[str, Any]:
    cluster = Cluster(processes, args.database, args.redis, args.cluster_cpus, log_dir)
    await cluster.start()
    try:
        if args.cross:
            why = await probe_cross(cluster, args)
            if why is not None:
                return {"processes": processes, "cross": True, "available": False, "why": why}
        step = Step(args.seats, _think(args.think))
        load = Load(cluster, step, args, cross=args.cross)
        tables = max(1, args.seats // args.players)
        step.seats = tables * args.players
        slots = [asyncio.ensure_future(load.slot()) for _ in range(tables)]
        await asyncio.sleep(args.warmup)
        load.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(args.seconds)
        load.measuring = False
        elapsed = time.perf_counter() - started
        load.stop.set()
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        lat = sorted(step.latencies_ms)
        handoffs = sorted(load.handoffs_ms)
        return {
            "handoff_p50_ms": _pct(handoffs, 50),
            "handoff_p99_ms": _pct(handoffs, 99),
            "handoffs": len(handoffs),
            "processes": processes,
            "cross": args.cross,
            "available": True,
            "seats": step.seats,
            "think_s": list(step.think),
            "decisions": len(lat),
            "decisions_per_s": round(len(lat) / elapsed, 1),
            "games_over": step.games_over,
            "p50_ms": _pct(lat, 50),
            "p99_ms": _pct(lat, 99),
            "max_ms": lat[-1] if lat else None,
            "errors": step.errors,
            "warmup_errors": step.warmup_errors,
            "reasons": step.reasons,
            "measured_s": round(elapsed, 1),
            "run_dir": str(cluster.run_dir),
        }
    finally:
        await cluster.stop()


def _median(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(values) if values else None


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    cpus = sorted(os.sched_getaffinity(0))
    if args.cluster_cpus and len(cpus) > 1:
        cluster_cpus = {int(c) for c in args.cluster_cpus.split(",")}
        client = set(cpus) - cluster_cpus
        if client:
            os.sched_setaffinity(0, client)
    log_dir = Path(tempfile.mkdtemp(prefix="shadowtable-cluster-load-"))
    summary = []
    print(f"{'procs':>5} {'run':>3} {'seats':>5} {'dec/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}", end="")
    print(f" {'games':>5} {'err':>4}")
    for processes in args.processes:
        rows = []
        for run in range(args.runs):
            row = await run_once(processes, args, log_dir)
            rows.append(row)
            if not row["available"]:
                print(f"{processes:>5} {run + 1:>3} cross: not available ({row['why']})", flush=True)
                break
            print(
                f"{processes:>5} {run + 1:>3} {row['seats']:>5} {row['decisions_per_s']:>7} {row['p50_ms'] or 0:>7.1f} "
                f"{row['p99_ms'] or 0:>7.1f} {row['max_ms'] or 0:>7.1f} {row['games_over']:>5} {row['errors']:>4}",
                flush=True,
            )
        available = [r for r in rows if r["available"]]
        summary.append(
            {
                "processes": processes,
                "available": bool(available),
                "runs": rows,
                "median_decisions_per_s": _median(available, "decisions_per_s"),
                "median_p50_ms": _median(available, "p50_ms"),
                "median_p99_ms": _median(available, "p99_ms"),
                "median_handoff_p50_ms": _median(available, "handoff_p50_ms"),
                "median_handoff_p99_ms": _median(available, "handoff_p99_ms"),
                "errors": sum(r["errors"] for r in available),
            }
        )
    print("medians:")
    for s in summary:
        if not s["available"]:
            print(f"  {s['processes']} process(es): not available")
            continue
        print(
            f"  {s['processes']} process(es): {s['median_decisions_per_s']} decisions/s, "
            f"p50 {s['median_p50_ms']:.1f} ms, p99 {s['median_p99_ms']:.1f} ms, {s['errors']} errors; "
            f"hand-over to the next seat p50 {s['median_handoff_p50_ms'] or 0:.1f} ms, "
            f"p99 {s['median_handoff_p99_ms'] or 0:.1f} ms"
        )
    return {
        "game": args.game,
        "players": args.players,
        "seats": args.seats,
        "think_s": list(_think(args.think)),
        "seconds": args.seconds,
        "warmup_s": args.warmup,
        "cross": args.cross,
        "redis": args.redis,
        "cluster_cpus": args.cluster_cpus,
        "client_cpus": sorted(os.sched_getaffinity(0)),
        "cpus": os.cpu_count(),
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "steps": summary,
        "logs": str(log_dir),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2,3", help="server processes per step (default 1,2,3)")
    parser.add_argument("--runs", type=int, default=3, help="runs per step, each on a fresh cluster (default 3)")
    parser.add_argument("--seats", type=int, default=200, help="seats in play at any time (default 200)")
    parser.add_argument("--players", type=int, default=5, help="seats per table (default 5)")
    parser.add_argument("--game", default="shadow-planet")
    parser.add_argument("--think", default="0.2-0.5", help="think time range in seconds (default 0.2-0.5)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run (default 20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured at the start (default 5)")
    parser.add_argument("--ack-timeout", type=float, default=5.0, help="an ack later than this is an error")
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test", help="any database there")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="'' to run without Redis")
    parser.add_argument(
        "--cluster-cpus",
        default=str(sorted(os.sched_getaffinity(0))[-1]),
        help="CPUs (taskset list) for nginx and the servers; '' not to pin (default: the last CPU)",
    )
    parser.add_argument(
        "--cross",
        action="store_true",
        help="CROSS-PROCESS (needs the Redis fan-out): each table's seats connect directly to different "
        "processes; reported as not available when they cannot play together",
    )
    parser.add_argument("--probe-timeout", type=float, default=15.0, help="--cross: seconds the probe table may take")
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite --out")
    args = parser.parse_args(argv)
    args.processes = [int(p) for p in args.processes.split(",")]
    if args.cross and min(args.processes) < 2:
        parser.error("--cross needs at least 2 processes")
    if args.out is not None and args.out.exists() and not args.force:
        parser.error(f"{args.out} exists (use --force to overwrite)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 65536)), hard))
    results = asyncio.run(main_async(args))
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
        print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
