"""Batches across local worker processes, streamed to JSON lines in game order, resumable.

Each task carries a chunk of games.  Records are written in index order as soon as every
earlier game is done, so an interrupted run keeps a clean prefix (plus any partial line, which
:func:`completed_indices` ignores) and ``resume`` carries on without repeating or losing a game.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from shadowtable.core.errors import RecordError
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.sim.batch import game_seed, line_up, play_indexed

T = TypeVar("T")
P = TypeVar("P")
ProgressHook = Callable[[int], None]
"""Called with the number of games just finished."""


@dataclass(frozen=True)
class BatchJob:
    """Everything that defines a batch; the same job gives the same records on any backend."""

    game: str
    players: int
    bot_specs: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    """Modules each worker imports first (for games or bots they register)."""


def play_chunk(job: BatchJob, indices: Sequence[int]) -> list[str]:
    """Play the games ``indices`` of ``job``; returns their records as JSON lines."""
    for module in job.plugins:
        importlib.import_module(module)
    game = make(job.game, players=job.players, **job.options)
    specs = line_up(job.bot_specs, job.players)
    return [play_indexed(game, specs, job.seed, index).dumps() for index in indices]


CHUNKS_PER_WORKER = 16
"""Chunks each worker gets by default: enough that games of uneven length even out between
workers, few enough that a chunk's overhead (a task sent, a game built) stays negligible."""


def default_chunk_size(games: int, workers: int) -> int:
    """Games per chunk: :data:`CHUNKS_PER_WORKER` chunks per worker, 1 to 50 games each."""
    return max(1, min(50, games // (max(1, workers) * CHUNKS_PER_WORKER)))


def chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    """Split ``indices`` into consecutive chunks of at most ``size``."""
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


RecordCheck = Callable[[int, GameRecord], None]
"""Called as ``check(position, record)`` for each complete record read back (``position`` counts
from 0 in file order); raises :class:`RecordError` for a record that does not belong."""


def completed_records(path: Path, check: RecordCheck) -> list[GameRecord]:
    """The complete records in ``path``, in file order, each passed to ``check``; a torn last line is cut off.

    Only an unterminated last line (a write cut short) is torn: it is cut off.  A complete line
    that is not a record means the file is not a records file, and :class:`RecordError` names
    it; then, and when ``check`` raises, the file is left unchanged.  Blank lines are skipped.
    """
    if not path.exists():
        return []
    if path.is_dir():
        raise RecordError(f"{path} is a folder, not a records file")
    records: list[GameRecord] = []
    for number, raw in complete_lines(path):
        try:
            record = GameRecord.loads(raw.decode("utf-8"))
        except (RecordError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path}:{number}: not a game record ({exc}); cannot resume from it") from exc
        check(len(records), record)
        records.append(record)
    return records


def complete_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each complete, non-blank line of ``path``; once all are read, a
    torn last line (no newline) is cut off the file. A reader that stops early changes nothing."""
    good_bytes = 0
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, start=1):
            if not raw.endswith(b"\n"):
                break
            if raw.strip():
                yield number, raw
            good_bytes += len(raw)
    if good_bytes < path.stat().st_size:
        with open(path, "r+b") as stream:
            stream.truncate(good_bytes)


def record_index(record: GameRecord) -> int | None:
    """The game index a batch or tournament stored in ``record.metadata``, if any."""
    index = record.metadata.get("index")
    return index if isinstance(index, int) and not isinstance(index, bool) else None


def completed_indices(path: Path, job: BatchJob) -> set[int]:
    """Indices of the complete records of ``job`` already in ``path``; a torn last line is cut off.

    A record of another job (game, players or seed) raises :class:`RecordError`.
    """

    def check(position: int, record: GameRecord) -> None:
        index = record_index(record)
        expected = None if index is None else (job.game, job.players, game_seed(job.seed, index))
        if (record.game, record.players, record.seed) != expected:
            raise RecordError(f"{path}: game {index} belongs to another batch; cannot resume this job")

    return {index for record in completed_records(path, check) if (index := record_index(record)) is not None}


def default_workers() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


PARENT_POLL_SECONDS = 0.25
"""How often a worker process checks that the process that started it is still alive."""


def exit_with_parent(creator: int) -> None:
    """Make this worker process exit as soon as ``creator`` (the process running the pool) dies.

    A pool's workers otherwise outlive a parent killed with SIGKILL (no clean-up runs there), and
    sleep on, waiting for tasks, for ever.  Called in each worker as the pool's initializer: a
    daemon thread polls every :data:`PARENT_POLL_SECONDS` and ends the process with
    :func:`os._exit` once its parent has changed (Linux and macOS re-parent an orphan) or
    ``creator`` no longer exists.  The parent seen at start-up is the reference, so a worker of a
    forkserver is tied to the server, which exits with ``creator`` in turn.
    """
    parent = os.getppid()

    def parent_gone() -> bool:
        if os.getppid() != parent:
            return True
        try:
            os.kill(creator, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # alive, owned by someone else (cannot happen for our parent)
            pass
        return False

    def watch() -> None:
        while not parent_gone():
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    if parent_gone():
        os._exit(1)
    threading.Thread(target=watch, name="shadowtable-exit-with-parent", daemon=True).start()


def in_order(task: Callable[[P], T], parts: Sequence[P], *, workers: int) -> Iterator[tuple[P, T]]:
    """Yield ``(part, task(part))`` in the order of ``parts``, run by ``workers`` local processes.

    With one worker (or nothing to do) the tasks run in this process.  ``task`` must pickle (a
    module-level function, or a :func:`functools.partial` of one).  Stopping early cancels the
    tasks not yet started.
    """
    if workers <= 1 or not parts:
        for part in parts:
            yield part, task(part)
        return
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(parts)), initializer=exit_with_parent, initargs=(os.getpid(),)
    )
    try:
        futures: list[Future[T]] = [pool.submit(task, part) for part in parts]
        for part, future in zip(parts, futures, strict=True):
            yield part, future.result()
    finally:
        pool.shutdown(cancel_futures=True)


def run_local(
    job: BatchJob,
    todo: Sequence[int],
    *,
    workers: int,
    chunk_size: int,
) -> Iterator[tuple[list[int], list[str]]]:
    """Yield ``(indices, lines)`` chunk by chunk in index order, played by ``workers`` processes."""
    yield from in_order(partial(play_chunk, job), chunks(todo, chunk_size), workers=workers)


BACKENDS = ("local", "ray")
"""Where :func:`run_batch` can play games: local worker processes, or Ray tasks."""


def run_batch(
    job: BatchJob,
    *,
    out: Path | None = None,
    resume: bool = False,
    workers: int = 1,
    chunk_size: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: ProgressHook | None = None,
    on_start: ProgressHook | None = None,
) -> list[GameRecord]:
    """Run ``job``, appending records to ``out`` in index order; returns every record of the batch.

    ``on_start`` is called once, with the number of games already complete (``resume``), when the
    arguments and any file to resume have been checked and play starts; ``progress`` after each
    chunk of games.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use 'local' or 'ray'")
    done = completed_indices(out, job) if out is not None and resume else set()
    todo = [i for i in range(job.games) if i not in done]
    size = chunk_size or default_chunk_size(len(todo), workers)
    if backend == "ray":
        from shadowtable.sim.ray_backend import run_ray

        stream_chunks = run_ray(job, todo, workers=workers, chunk_size=size, address=address)
    else:
        stream_chunks = run_local(job, todo, workers=workers, chunk_size=size)
    if on_start is not None:
        on_start(len(done))
    kept: list[str] = []
    sink = open(out, "a" if resume else "w", encoding="utf-8") if out is not None else None  # noqa: SIM115
    try:
        for part, lines in stream_chunks:
            if sink is not None:
                sink.write("".join(line + "\n" for line in lines))
                sink.flush()
            else:
                kept.extend(lines)
            if progress is not None:
                progress(len(part))
    finally:
        if sink is not None:
            sink.close()
    if out is None:
        return [GameRecord.loads(line) for line in kept]
    return read_batch(out)


def read_batch(path: Path) -> list[GameRecord]:
    """The records of a batch file, sorted by game index."""
    with open(path, encoding="utf-8") as stream:
        records = [GameRecord.loads(line) for line in stream if line.strip()]
    return sorted(records, key=lambda r: int(r.metadata.get("index", 0)))
