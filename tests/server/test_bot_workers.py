"""Bot workers: a decision past its budget is stopped, a slow bot holds no other table's bots, and
the workers exit with the server however it stops (SIGKILL mid-search included).

The slow bot is the operator's ``--default-bot`` (a search with no useful iteration limit), which
no client can name: it plays the seats of a table started with free seats, and the seat its
player leaves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.conftest import config_for
from server.wire import Seat, create

httpx = pytest.importorskip("httpx")

SRC = Path(__file__).resolve().parents[2] / "src"
SLOW_BOT = "ismcts:iterations=100000000"
"""Searches until stopped: only its budget ends a decision."""


def wait_until(condition: Callable[[], Any], seconds: float = 30.0, what: str = "") -> Any:
    """Poll ``condition`` until it is true (its value), failing after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    return state(pid) not in {"", "Z"}


def state(pid: int) -> str:
    """The scheduler state of ``pid`` (``R``: running or waiting for a core; ``""`` once gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def busy(pids: list[int]) -> bool:
    """Whether one of ``pids`` is computing (a search in progress; an idle worker sleeps on its pipe)."""
    for _ in range(5):
        if any(state(pid) == "R" for pid in pids):
            return True
        time.sleep(0.02)
    return False


def slow_table(client: Any, prefix: str = "") -> str:
    """A Shadowlord! table in play where the operator's slow default bot decides every seat."""
    created = client.post(prefix + "/api/tables", json={"game": "shadowlord", "players": 2, "name": "Ann"})
    assert created.status_code == 201, created.text
    table, token = created.json()["table"]["id"], created.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    started = client.post(f"{prefix}/api/tables/{table}/start", headers=headers)
    assert started.status_code == 200, started.text
    left = client.post(f"{prefix}/api/tables/{table}/leave", headers=headers)  # a bot takes the seat over
    assert left.status_code == 200, left.text
    return str(table)


# -- in process ---------------------------------------------------------------------------------
@pytest.fixture
def slow_server(sqlite_database: str) -> Iterator[Callable[..., Any]]:
    from fastapi.testclient import TestClient

    from shadowtable.server.app import create_app

    def start(**overrides: Any) -> Any:
        config = config_for(sqlite_database, bot_workers=2, default_bot=SLOW_BOT, **overrides)
        return TestClient(create_app(config))

    yield start


def test_a_decision_past_its_budget_is_stopped_and_its_worker_replaced(slow_server: Any) -> None:
    with slow_server(bot_budget_s=1.0) as client:
        bots = client.app.state.bots
        first = wait_until(lambda: len(bots.pids) == 2 and list(bots.pids), what="two workers")
        slow_table(client)
        wait_until(lambda: bots.replaced >= 1, what="a worker stopped past its budget")
        stopped = set(first) - set(bots.pids)
        assert stopped, "the worker that ran over is no longer in the pool"
        wait_until(lambda: not any(alive(pid) for pid in stopped), 10, "the stopped worker's process gone")
        wait_until(lambda: len(bots.pids) == 2, what="a new worker in its place")
        assert bots.timeouts >= 1  # the seat played a random legal move instead


def test_a_slow_bot_does_not_hold_another_tables_bots(slow_server: Any) -> None:
    with slow_server(bot_budget_s=120.0) as client:
        bots = client.app.state.bots
        slow_table(client)
        wait_until(lambda: busy(bots.pids), what="the slow bot searching")
        for _ in range(3):
            answer = create(client, game="shadow-planet", players=3, seats=["bot:heuristic"] * 3, sit=False)
            with client.websocket_connect(f"/ws/{answer['table']['id']}") as ws:
                watcher = Seat(ws)
                watcher.hello()
                watcher.until("over", limit=100_000)
        assert bots.timeouts == 0, "every decision of the other tables was the bot's own, none waited it out"
        assert bots.replaced == 0  # the slow search is still running


# -- a server process ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``shadowtable serve`` of this checkout with the slow default bot, two workers."""
    port = _free_port()
    env = {**os.environ, "SHADOWTABLE_SECRET": "w" * 32, "SHADOWTABLE_DATA_DIR": str(folder)}
    code = f"import sys; sys.path.insert(0, {str(SRC)!r}); from shadowtable.cli import run; run()"
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--database", str(folder / "s.db")]
    command += ["--bot-delay", "0", "--bot-workers", "2", "--bot-budget", "120", "--default-bot", SLOW_BOT]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:

        def healthy() -> bool:
            assert process.poll() is None, (folder / "server.log").read_text()
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(url + "/healthz", timeout=2).status_code == 200
            return False

        wait_until(healthy, 90, "the server answering /healthz")
        yield process, url
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_exit_with_the_server_mid_search(tmp_path: Path, stop: signal.Signals) -> None:
    with serve(tmp_path) as (process, url), httpx.Client(base_url=url, timeout=10) as client:
        slow_table(client)
        workers = wait_until(lambda: (pids := children(process.pid)) and busy(pids) and pids, what="a search")
        process.send_signal(stop)
        process.wait(30)
        wait_until(lambda: not any(alive(pid) for pid in workers), 10, "every worker gone")


def test_a_search_that_waited_for_its_worker_is_given_only_what_is_left() -> None:
    import threading

    from shadowtable.core.registry import make
    from shadowtable.server.bots import _bot, choose

    spec = "ismcts:iterations=100000000:time=60"
    game = make("shadowlord", players=2)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    seat, legal = game.current_player(state), game.legal_actions(state)
    assert len(legal) > 1
    chosen: list[int] = []
    args = ("shadowlord", 2, "{}", spec, seat, game.observe(state, seat), legal, time.monotonic() + 0.5)
    worker = threading.Thread(target=lambda: chosen.append(choose(*args)), daemon=True)
    worker.start()
    worker.join(20)  # a guard far below the bot's own 60 s: the search stopped at the deadline
    assert chosen and chosen[0] in legal
    assert getattr(_bot(spec), "time", None) == 60  # its own limit is back for the next decision
