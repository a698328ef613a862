"""The background worker pool's progress channel survives a worker killed in the middle of using it.

A ``multiprocessing.Queue`` shares one lock among its writers: a worker killed while holding it
would leave the server's own last message (and with it the reading thread, and the interpreter's
exit, which joins the queue's feeder thread) waiting forever.  Here a process takes whatever lock
the channel has and is killed holding it; the server must still stop the reading thread at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from typing import Any

from shadowtable.server.config import ServerConfig
from shadowtable.server.worker_pool import WorkerPool


def hold_the_channel_and_wait(channel: Any, ready: Any) -> None:
    """Take the channel's writers' lock if it has one, say so, then wait to be killed."""
    lock = getattr(channel, "_wlock", None)
    if lock is not None:
        lock.acquire()
    ready.set()
    time.sleep(60)


def progress_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "worker-progress"]


def test_a_worker_killed_holding_the_progress_channel_does_not_hold_up_the_server() -> None:
    async def scenario() -> None:
        pool = WorkerPool(ServerConfig(analysis_workers=1))
        before = set(progress_threads())
        executor = pool._new_pool()
        try:
            (reader,) = set(progress_threads()) - before
            context = multiprocessing.get_context("spawn")
            ready = context.Event()
            holder = context.Process(target=hold_the_channel_and_wait, args=(pool._messages, ready))
            holder.start()
            assert ready.wait(60)
            os.kill(holder.pid or 0, signal.SIGKILL)
            holder.join(10)
            pool._close_messages()
            reader.join(5)
            assert not reader.is_alive(), "the progress reader still waits on a channel a dead worker holds"
        finally:
            executor.shutdown(wait=True, cancel_futures=True)

    asyncio.run(scenario())


def start_and_wait(niceness: int, idle: bool, ready: Any) -> None:
    """A worker's start, then say so and wait to be killed (the parent reads the priority)."""
    from shadowtable.server.analysis_work import start_worker

    start_worker(niceness, idle, [])
    ready.set()
    time.sleep(60)


def test_the_workers_priority_follows_the_configuration() -> None:
    context = multiprocessing.get_context("spawn")
    before = os.getpriority(os.PRIO_PROCESS, 0)
    for niceness, idle, expected in [(19, True, (19, os.SCHED_IDLE)), (0, False, (before, os.SCHED_OTHER))]:
        ready = context.Event()
        worker = context.Process(target=start_and_wait, args=(niceness, idle, ready), daemon=True)
        worker.start()
        try:
            assert ready.wait(60) and worker.pid is not None
            assert (os.getpriority(os.PRIO_PROCESS, worker.pid), os.sched_getscheduler(worker.pid)) == expected
        finally:
            worker.kill()
            worker.join()
