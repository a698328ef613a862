"""Bots at the server: worker processes deciding from one seat's observation, within a time budget.

Each worker process runs one decision at a time.  A decision that is still running when its
budget is spent is stopped: its worker is killed and a fresh one takes its place, so no bot keeps
a core busy past its budget and the other tables' bots keep their workers.  A decision still
waiting for a worker when the budget is spent is dropped before it starts.  Either way the seat
plays a random legal action.  Workers are started, and warmed (games imported, bots made, PyTorch
and shipped policies loaded) before the server answers; they run at a lower CPU priority than the
server and exit with it however it stops: the kernel kills them when it dies (Linux), and each
also watches its parent process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import heapq
import itertools
import json
import logging
import multiprocessing
import os
import random
import secrets
import signal
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game, Observation
from shadowtable.core.registry import make
from shadowtable.server.bot_levels import SEARCH_SHARE
from shadowtable.server.config import ServerConfig

log = logging.getLogger("shadowtable.server")

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's: a busy bot never slows the
answers to players."""
START_TIMEOUT_S = 120.0
"""How long the server waits at start for its workers to warm up before it answers anyway."""
RESTART_MAX_S = 30.0
"""The longest wait before restarting a worker that keeps dying while it warms up."""
PR_SET_PDEATHSIG = 1


@lru_cache(maxsize=64)
def _game(game_id: str, players: int, options_json: str) -> Game[Any]:
    return make(game_id, players=players, **json.loads(options_json))


@lru_cache(maxsize=64)
def _bot(spec: str) -> Bot:
    return make_bot(spec)


def choose(
    game_id: str,
    players: int,
    options_json: str,
    spec: str,
    seat: int,
    observation: Observation,
    legal: list[int],
    deadline: float | None = None,
) -> int:
    """The action bot ``spec`` picks at ``seat`` from ``observation`` (run in a worker).  A bot with
    a time limit (a search) is given at most :data:`SEARCH_SHARE` of what is left before
    ``deadline`` (``time.monotonic()``), so one that waited for its worker still ends in time."""
    game = _game(game_id, players, options_json)
    rng = random.Random(secrets.randbits(64))
    bot = _bot(spec)
    limit = getattr(bot, "time", None)
    if deadline is None or not isinstance(limit, int | float):
        action = bot.choose(game, seat, observation, legal, rng)
    else:
        bot.time = max(0.01, min(limit, (deadline - time.monotonic()) * SEARCH_SHARE))  # type: ignore[attr-defined]
        try:
            action = bot.choose(game, seat, observation, legal, rng)
        finally:
            bot.time = limit  # type: ignore[attr-defined]
    return int(action) if action in legal else legal[0]


def warm(specs: Sequence[str]) -> list[str]:
    """Import every game and make the bots ``specs`` name, loading what they need now (PyTorch and
    the shipped policies for ``policy``); what failed, in words."""
    from shadowtable.bots.heuristic import HeuristicBot
    from shadowtable.core.registry import available_games, game_class

    problems = []
    games = [game_class(game_id).SPEC for game_id in available_games()]
    for spec in dict.fromkeys(specs):
        try:
            bot = _bot(spec)
            if isinstance(bot, HeuristicBot):
                for game in games:
                    with contextlib.suppress(Exception):
                        bot.bot_for(game.id)
            check = getattr(bot, "check_game", None)
            if check is not None:
                for game in games:
                    for players in range(game.min_players, game.max_players + 1):
                        with contextlib.suppress(Exception):
                            check(_game(game.id, players, "{}"))
        except Exception as exc:  # noqa: BLE001 - reported to the server, which logs it
            problems.append(f"{spec}: {exc}")
    return problems


# -- the worker process -------------------------------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when the server dies (Linux), and, everywhere, a thread
    end it once its parent is gone."""
    from shadowtable.sim.parallel import exit_with_parent

    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the line above ran
        os._exit(1)
    exit_with_parent(parent)


def worker_main(connection: Connection, parent: int, specs: list[str], games: list[tuple[str, str]]) -> None:
    """A worker: warm up, say ``ready``, then answer ``(job, action, error)`` to each job.  ``games``:
    ``(id, "module:Class")`` of the server's games, registered here if the worker lacks them."""
    from shadowtable.core.registry import available_games, register_builtin

    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops its workers
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    known = set(available_games())
    for game_id, target in games:
        if game_id not in known:
            register_builtin(game_id, target)
    connection.send(("ready", warm(specs), None))
    while True:
        try:
            job_id, *work = connection.recv()
        except (EOFError, OSError):
            return
        try:
            connection.send((job_id, choose(*work), None))
        except Exception as exc:  # noqa: BLE001 - a bot never stops a table: the server plays randomly
            connection.send((job_id, None, f"{type(exc).__name__}: {exc}"[:300]))


# -- the server side ----------------------------------------------------------------------------
@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    ready: asyncio.Future[list[str]]
    answers: dict[int, asyncio.Future[int]] = field(default_factory=dict)

    @property
    def pid(self) -> int | None:
        return self.process.pid


class BotRunner:
    """Worker processes deciding for bot seats (one thread of the server when ``workers`` is 0,
    for tests: then a decision past its budget is not stopped, only ignored)."""

    def __init__(
        self,
        workers: int,
        budget_s: float,
        warm_specs: Sequence[str] = (),
        games: Sequence[tuple[str, str]] = (),
        quick_specs: Sequence[str] = ("random", "heuristic", "policy"),
    ) -> None:
        self.budget_s = budget_s
        self.workers = workers
        self.warm_specs = list(warm_specs)
        self.quick_specs = frozenset(quick_specs)
        """Bots that decide at once; any other (a search) is slow: slow decisions wait behind quick
        ones and use at most all workers but one, so quick bots always have a worker."""
        self.slow_limit = max(1, workers - 1)
        self.games = list(games)
        """``(id, "module:Class")`` of games the server registered, which workers register too."""
        self.timeouts = 0
        """Decisions that ran past their budget or failed (played randomly)."""
        self.replaced = 0
        """Workers stopped past a budget and replaced."""
        self._pool: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: list[tuple[bool, int, asyncio.Future[_Worker]]] = []  # a heap: quick ones first
        self._slow_busy = 0
        self._jobs = itertools.count()
        self._closed = False
        self._starting: set[asyncio.Future[None]] = set()
        self._failures = 0
        # one long-lived thread starts and reaps the workers: the kernel ties a worker's
        # parent-death signal to the thread that started it
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="bot-starter")
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bot") if workers == 0 else None

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids."""
        return [w.pid for w in self._pool if w.pid is not None]

    async def start(self) -> None:
        """Start the workers and wait (at most :data:`START_TIMEOUT_S`) until they are warm."""
        if self._thread is not None:
            return
        workers = [await self._start_worker() for _ in range(self.workers)]
        done, _ = await asyncio.wait([w.ready for w in workers], timeout=START_TIMEOUT_S)
        if len(done) < len(workers):
            log.warning("bot workers still warming up", extra={"event": "bots"})

    async def _start_worker(self) -> _Worker:
        loop = asyncio.get_running_loop()
        ours, theirs = multiprocessing.Pipe()
        context = multiprocessing.get_context("spawn")
        process = context.Process(
            target=worker_main,
            args=(theirs, os.getpid(), self.warm_specs, self.games),
            name="shadowtable-bot",
            daemon=True,
        )
        await loop.run_in_executor(self._starter, process.start)
        theirs.close()
        worker = _Worker(process, ours, loop.create_future())
        self._pool.append(worker)
        loop.add_reader(ours.fileno(), self._on_answer, worker)
        worker.ready.add_done_callback(lambda _: self._release(worker, slow=False, busy=False))
        return worker

    def _on_answer(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                job, action, error = worker.connection.recv()
                if job == "ready":
                    for problem in action:
                        log.warning(f"bot not warmed: {problem}", extra={"event": "bots"})
                    if not worker.ready.done():
                        worker.ready.set_result(action)
                    continue
                answer = worker.answers.pop(job, None)
                if answer is not None and not answer.done():
                    if error is None:
                        answer.set_result(action)
                    else:
                        answer.set_exception(RuntimeError(error))
        except (EOFError, OSError):  # the worker died: the decision it had fails, it is replaced
            self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.connection.fileno())
        for answer in worker.answers.values():
            if not answer.done():
                answer.set_exception(RuntimeError("the bot worker stopped"))
                answer.exception()  # whoever waited has been told (or has given up)
        worker.answers.clear()
        if not worker.ready.done():
            worker.ready.cancel()
        if worker in self._idle:
            self._idle.remove(worker)
        if worker in self._pool:
            self._pool.remove(worker)
            self._stop(worker)
            if not self._closed:
                early = not worker.ready.done() or worker.ready.cancelled()
                self._failures = self._failures + 1 if early else 0
                task = asyncio.ensure_future(self._restart(min(RESTART_MAX_S, 0.5 * 2**self._failures) if early else 0))
                self._starting.add(task)
                task.add_done_callback(self._starting.discard)

    async def _restart(self, after_s: float) -> None:
        """A new worker, ``after_s`` seconds from now (a worker that dies while warming up is
        restarted less and less often)."""
        await asyncio.sleep(after_s)
        if not self._closed:
            await self._start_worker()

    def _stop(self, worker: _Worker) -> None:
        """Kill ``worker`` now; reap it in the starter thread."""
        with contextlib.suppress(Exception):
            worker.process.kill()
        with contextlib.suppress(Exception):
            worker.connection.close()
        with contextlib.suppress(RuntimeError):
            self._starter.submit(worker.process.join, 5)

    async def choose(self, game: Game[Any], spec: str, seat: int, observation: Observation, legal: list[int]) -> int:
        """The bot's action; a random legal action if it takes longer than the budget or fails."""
        options = json.dumps(game.options, sort_keys=True)
        work = (game.spec.id, game.players, options, spec, seat, observation, legal, time.monotonic() + self.budget_s)
        try:
            async with asyncio.timeout(self.budget_s):
                if self._thread is not None:
                    return await self._in_thread(work)
                slow = spec not in self.quick_specs
                worker = await self._acquire(slow)
                try:
                    return await self._decide(worker, work)
                finally:
                    self._release(worker, slow)
        except Exception:  # noqa: BLE001 - past the budget, or the bot failed: a bot never stops a table
            self.timeouts += 1
            return secrets.choice(legal)

    async def _in_thread(self, work: tuple[Any, ...]) -> int:
        return await asyncio.get_running_loop().run_in_executor(self._thread, choose, *work)

    async def _acquire(self, slow: bool) -> _Worker:
        """An idle worker, when one is free for a decision of this kind (quick ones served first)."""
        given: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (slow, next(self._jobs), given))
        self._dispatch()
        try:
            return await given
        except asyncio.CancelledError:
            if given.done() and not given.cancelled():  # given a worker just as the wait ended
                self._release(given.result(), slow)
            raise

    def _release(self, worker: _Worker, slow: bool, busy: bool = True) -> None:
        """``worker`` is idle again (unless it was stopped); the next decision waiting may have it."""
        if slow and busy:
            self._slow_busy -= 1
        if worker in self._pool and worker not in self._idle and worker.ready.done():
            self._idle.append(worker)
        self._dispatch()

    def _dispatch(self) -> None:
        held = []
        while self._idle and self._waiting:
            slow, order, given = heapq.heappop(self._waiting)
            if given.done():  # its wait ended (past the budget)
                continue
            if slow and self._slow_busy >= self.slow_limit:
                held.append((slow, order, given))
                continue
            self._slow_busy += slow
            given.set_result(self._idle.pop(0))
        for item in held:
            heapq.heappush(self._waiting, item)

    async def _decide(self, worker: _Worker, work: tuple[Any, ...]) -> int:
        job = next(self._jobs)
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        worker.answers[job] = answer
        try:
            worker.connection.send((job, *work))
            await asyncio.shield(answer)
        except BaseException:
            if answer.done():  # the bot failed: its worker goes on
                pass
            elif worker in self._pool:  # stopped mid-decision (past the budget): kill it, start another
                self.replaced += 1
                log.info("bot stopped past its budget", extra={"event": "bots", "pid": worker.pid})
                self._lost(worker)
                raise
            else:
                raise
        finally:
            worker.answers.pop(job, None)
        return answer.result()  # the bot's error, if it failed

    def close(self) -> None:
        """Kill the workers (they keep nothing) and stop the threads."""
        self._closed = True
        for task in self._starting:
            task.cancel()
        for worker in list(self._pool):
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(worker.connection.fileno())
            self._stop(worker)
        self._pool.clear()
        self._starter.shutdown(wait=True, cancel_futures=False)
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)


def runner_for(config: ServerConfig) -> BotRunner:
    """The bot runner of ``config``: warmed with every level offered and the default bot."""
    from shadowtable.core.registry import available_games, game_class
    from shadowtable.server.bot_levels import LEVELS, plays, run_spec

    budget = config.bot_budget_s
    specs = [level.spec_within(budget, game_id) for level in LEVELS.values() for game_id in plays(level.name)]
    specs.append(run_spec(config.default_bot, config.default_bot, budget))
    quick = [level.spec for level in LEVELS.values() if not level.searches]
    classes = {game_id: game_class(game_id) for game_id in available_games()}
    games = [(game_id, f"{cls.__module__}:{cls.__qualname__}") for game_id, cls in classes.items()]
    return BotRunner(config.bot_workers, budget, specs, games, quick)
