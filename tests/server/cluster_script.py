"""``scripts/cluster.sh`` run for real in a test: N ``shadowtable serve`` processes on a fresh
PostgreSQL database behind Debian's nginx, on free ports, in a run folder of the test's own.

Skipped when nginx, bash or PostgreSQL is missing, unless ``SHADOWTABLE_REQUIRE_CLUSTER=1``, which
makes those fail instead (the script then installs nginx with apt-get itself).  The servers learn
the test game ``tiny-showdown`` from a ``sitecustomize`` module put on their ``PYTHONPATH``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "cluster.sh"
POSTGRES = os.environ.get("SHADOWTABLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REQUIRED = os.environ.get("SHADOWTABLE_REQUIRE_CLUSTER") == "1"
SITECUSTOMIZE = """
import sys
sys.path.insert(0, {tests!r})
from shadowtable.core import register
from tiny_game import TinyGame
register(TinyGame)
"""


def unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"SHADOWTABLE_REQUIRE_CLUSTER=1 but {why}")
    pytest.skip(why)


def _nginx() -> str | None:
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    return found


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive ports that are free now."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as other:
                    other.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no free ports")


async def admin(sql: str, database: str = POSTGRES) -> None:
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(database, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@dataclass
class ScriptCluster:
    url: str
    run_dir: Path
    backends: list[str]
    database: str
    output: Path
    script: subprocess.Popen[str]

    def access_log(self) -> list[dict[str, str]]:
        """The access log's lines as {request, status, table, upstream}."""
        pattern = re.compile(
            r'"(?P<request>[^"]*)" (?P<status>\d+) \d+ table=(?P<table>\S*) upstream=(?P<upstream>\S*)'
        )
        out = []
        for line in (self.run_dir / "access.log").read_text("utf-8").splitlines():
            found = pattern.search(line)
            if found:
                out.append(found.groupdict())
        return out

    def said(self) -> str:
        """What the script printed so far."""
        return self.output.read_text("utf-8", errors="replace")

    def pids(self) -> dict[str, int]:
        """Each process's pid as the script last said it, by name (``server-PORT``, ``nginx``)."""
        return _pids(self.said())


def _pids(said: str) -> dict[str, int]:
    found: dict[str, int] = {}
    started = re.search(r"^Processes: (.*)\.$", said, re.MULTILINE)
    if started:
        for name, pid in re.findall(r"(\S+) pid (\d+)", started.group(1)):
            found[name] = int(pid)
    for name, pid in re.findall(r"cluster: (\S+) restarted \(pid (\d+)\)", said):
        found[name] = int(pid)
    return found


NO_CLIENT_LIMITS = ["--rate-tables", "0/minute", "--rate-joins", "0/minute"]
NO_CLIENT_LIMITS += ["--max-open-tables", "0", "--max-free-seats", "0"]
"""One test client makes many tables and seats: the per-client limits are tested elsewhere."""


@contextlib.contextmanager
def script_cluster(
    folder: Path, processes: int, redis: str | None, serve_args: list[str], script_args: tuple[str, ...] = ()
) -> Iterator[ScriptCluster]:
    """Start the script (``redis`` None: ``--no-redis``), wait for its address, stop it at the end
    (SIGTERM, then SIGKILL of its whole session) and drop its database."""
    if shutil.which("bash") is None:
        unavailable("bash is not installed")
    if _nginx() is None and not REQUIRED:
        pytest.skip("nginx is not installed (apt-get install nginx; SHADOWTABLE_REQUIRE_CLUSTER=1 installs it)")
    name = f"shadowtable_cluster_{secrets.token_hex(4)}"
    try:
        asyncio.run(admin(f"CREATE DATABASE {name}"))
    except Exception as exc:  # noqa: BLE001 - unreachable server
        unavailable(f"PostgreSQL at {POSTGRES} not reachable: {exc}")
    database = POSTGRES.rsplit("/", 1)[0] + "/" + name
    run_dir = folder / "run"
    attempts = 3  # a port found free may be taken before the script binds it (another test's socket)
    front = free_ports(1)
    base = free_ports(processes)
    command = ["bash", str(SCRIPT), "--processes", str(processes), "--port", str(front), "--backend-port", str(base)]
    command += ["--database", database, "--run-dir", str(run_dir)]
    command += ["--redis", redis] if redis else ["--no-redis"]
    command += script_args
    command += ["--", "--bot-workers", "0", "--bot-delay", "0", "--log-level", "warning"]
    command += [*NO_CLIENT_LIMITS, *serve_args]
    env = {**os.environ, "PYTHON": sys.executable, "SHADOWTABLE_SECRET": "cluster-test-secret-of-at-least-32-bytes"}
    env["SHADOWTABLE_DATA_DIR"] = str(folder / "data")
    # The servers are subprocesses: they learn the test game from a sitecustomize on their path.
    site = folder / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE.format(tests=str(ROOT / "tests")), "utf-8")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    output = folder / "script.out"
    with output.open("w") as out:
        script = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
        )
    try:
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            said = output.read_text("utf-8", errors="replace")
            found = re.search(r"ShadowTable cluster: open (\S+)/ ", said)
            if found and "Stop it with Ctrl+C." in said:  # the last line of the start
                url = found.group(1)
            elif script.poll() is not None and "it is in use" in said and attempts > 1:
                attempts -= 1
                front, base = free_ports(1), free_ports(processes)
                command[command.index("--port") + 1] = str(front)
                command[command.index("--backend-port") + 1] = str(base)
                with output.open("w") as out:
                    script = subprocess.Popen(
                        command, stdout=out, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
                    )
            elif script.poll() is not None:
                break
            else:
                time.sleep(0.1)
        if url is None:
            pytest.fail("scripts/cluster.sh did not start:\n" + output.read_text("utf-8", errors="replace")[-3000:])
        backends = [f"127.0.0.1:{base + i}" for i in range(processes)]
        yield ScriptCluster(url, run_dir, backends, database, output, script)
    finally:
        script.send_signal(signal.SIGTERM)
        try:
            script.wait(60)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(script.pid, signal.SIGKILL)
            script.wait()
            for pid in _pids(output.read_text("utf-8", errors="replace")).values():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)  # each runs in a process group of its own
        with contextlib.suppress(Exception):
            asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
