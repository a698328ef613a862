"""The background workers of a server process: one pool of lowest-priority worker processes and
its slots, shared by every kind of background job (the analyses of finished tables, the lab's
runs).

Each of :attr:`ServerConfig.analysis_workers` slots asks the job sources in turn for a job
(:meth:`JobSource.take`, an atomic claim in the database) and runs it (:meth:`JobSource.work`),
whose pieces go to the pool (:meth:`WorkerPool.run`).  The sources take turns, so a long lab run
never starves the analyses: a lab job is one chunk of games.  With nothing to take, a slot waits
for :meth:`WorkerPool.wake` or the poll.  No move waits for any of this: the event loop only
awaits the pool and small statements.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from shadowtable.server import analysis_work as work
from shadowtable.server.config import ServerConfig
from shadowtable.server.store import StoreError

log = logging.getLogger("shadowtable.server.workers")

T = TypeVar("T")


class JobSource(Protocol):
    """A kind of background job: claims its next job, and runs a claimed one to its end."""

    name: str

    async def take(self) -> Any | None:
        """Claim the next job of this kind (``None``: nothing to do now)."""

    async def work(self, job: Any) -> None:
        """Run the claimed ``job`` (its failures are its own to store)."""


class WorkerPool:
    """The worker processes and slots of this process (``app.state.workers``)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.sources: list[JobSource] = []
        self.pool: ProcessPoolExecutor | None = None
        self._slots: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()
        self._turn = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._messages: Any = None
        self._listeners: dict[str, Callable[[float], None]] = {}

    @property
    def size(self) -> int:
        """How many worker processes (and slots) run: 0, none offered."""
        return max(0, self.config.analysis_workers)

    def add(self, source: JobSource) -> None:
        """Let the slots take ``source``'s jobs too."""
        if source not in self.sources:
            self.sources.append(source)

    def wake(self) -> None:
        """Tell an idle slot a job was queued."""
        self._wake.set()

    # -- the lifespan's side ------------------------------------------------------------------
    def start(self) -> None:
        """Start the processes and one slot per process (nothing with 0 workers, nor twice)."""
        if self.size <= 0 or self.pool is not None:
            return
        self._loop = asyncio.get_running_loop()
        self.pool = self._new_pool()
        self._slots = [asyncio.create_task(self._slot(n), name=f"worker-slot-{n}") for n in range(self.size)]

    async def stop(self) -> None:
        """Stop every slot (a running job goes back to its queue), awaited, and kill the processes.
        Only the event loop that started them stops them (a second app lifespan on another loop,
        as a nested test client runs, leaves them to the first)."""
        if self._loop is not None and self._loop is not asyncio.get_running_loop():
            return
        self._loop = None
        slots, self._slots = self._slots, []
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        pool, self.pool = self.pool, None
        if pool is not None:
            kill(pool)
        self._close_messages()

    def worker_pids(self) -> list[int]:
        """The process ids of the worker processes running now."""
        processes = getattr(self.pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    # -- the jobs' side -----------------------------------------------------------------------
    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process (:class:`BrokenProcessPool` if none runs)."""
        if self.pool is None:
            raise BrokenProcessPool("the workers are stopped")
        return await asyncio.get_running_loop().run_in_executor(self.pool, function, *args)

    def replace_broken(self) -> None:
        """A fresh pool for a broken one (its other pieces fail too; their jobs are queued again)."""
        broken = self.pool
        if broken is not None and getattr(broken, "_broken", False):
            self.pool = self._new_pool()
            kill(broken)

    def listen(self, token: str, listener: Callable[[float], None]) -> None:
        """Hand ``listener`` the progress a piece sends under ``token`` (``work.PipeProgress``)."""
        self._listeners[token] = listener

    def forget(self, token: str) -> None:
        """Stop listening for ``token`` (its piece is over)."""
        self._listeners.pop(token, None)

    def _heard(self, token: str, share: float) -> None:
        """A piece's progress, as its worker sent it (a piece that is over is not listened to)."""
        listener = self._listeners.get(token)
        if listener is not None:
            listener(share)

    def _close_messages(self) -> None:
        """Stop the thread reading the progress pipe (it closes its end) and close this end."""
        writer, self._messages = self._messages, None
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.send(None)
            with contextlib.suppress(Exception):
                writer.close()

    def _new_pool(self) -> ProcessPoolExecutor:
        """A pool of worker processes, and a fresh pipe they send progress on, read by a thread.

        A pipe, not a ``multiprocessing.Queue``: a queue's writers share a lock, and a worker
        killed while holding it (the very failure the pool recovers from) would leave every later
        writer, this process's shutdown included, waiting for it forever.  Each message is one
        write of far less than ``PIPE_BUF`` bytes, which the pipe keeps whole without a lock."""
        context = multiprocessing.get_context("spawn")
        self._close_messages()
        reader, self._messages = context.Pipe(duplex=False)
        threading.Thread(
            target=read_progress,
            args=(reader, asyncio.get_running_loop(), self._heard),
            name="worker-progress",
            daemon=True,
        ).start()
        return ProcessPoolExecutor(
            max_workers=self.size,
            mp_context=context,
            initializer=work.start_worker,
            initargs=(self.config.analysis_nice, self.config.analysis_idle, work.server_games(), self._messages),
        )

    async def _slot(self, number: int) -> None:
        """Take a job from the sources in turn and run it, again and again; idle, wait."""
        while True:
            if not await self._one_job(number):
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.config.analysis_poll_s)

    async def _one_job(self, number: int) -> bool:
        """Run one job of the first source (from this turn's) that has one; whether one ran."""
        count = len(self.sources)
        self._turn += 1
        for step in range(count):
            source = self.sources[(self._turn + number + step) % count]
            try:
                job = await source.take()
            except StoreError as exc:
                log.warning("job queue unreadable", extra={"event": "job_store", "reason": str(exc)})
                continue
            if job is not None:
                await source.work(job)
                return True
        return False


def kill(pool: ProcessPoolExecutor) -> None:
    """Kill ``pool``'s processes (they keep nothing) and release it without waiting for its work."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def read_progress(messages: Any, loop: asyncio.AbstractEventLoop, heard: Callable[[str, float], None]) -> None:
    """A thread's loop: hand each ``(token, share)`` the workers send on the pipe ``messages`` (its
    reading end) to ``heard`` on ``loop``, until ``None`` comes (the pipe is given up) or the loop
    is gone; then close this end."""
    try:
        while True:
            message = messages.recv()
            if message is None:
                return
            loop.call_soon_threadsafe(heard, *message)
    except (EOFError, OSError, ValueError, TypeError, RuntimeError):  # a broken pipe, a closed loop
        return
    finally:
        with contextlib.suppress(Exception):
            messages.close()
