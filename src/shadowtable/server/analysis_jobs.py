"""The analyses of finished tables: a job queue in the database, run by a pool of worker processes.

A request queues a row of the ``analyses`` table (:mod:`shadowtable.server.repository.analyses`);
each slot of the process's worker pool (:mod:`shadowtable.server.worker_pool`, shared with the
lab's runs) takes the oldest queued job in its turn (an atomic guarded ``UPDATE``, so the
processes of a cluster never run one job twice), holds it under a lease it renews, and runs its
pieces (:mod:`shadowtable.server.analysis_work`: each seat's decisions, then each seat's
deductions, all under one budget: :func:`run_job`) one after the other in the pool's processes,
which run at the lowest priority.  A piece sends its progress after each decision or belief (at
most once per :attr:`ServerConfig.analysis_progress_s`) on the pool's progress queue; the job
stores it at most that often, and after each piece.  The result is stored with the status
``done`` in one statement.

A worker killed mid-piece breaks the pool: the pool is replaced and the job queued again; a
process that dies holding a job leaves its lease to expire, and another process takes the job.
Either way the job is started again, at most :attr:`ServerConfig.analysis_attempts` times, then
it fails with a clear error.  No move waits for any of this: the event loop only awaits the
pool and a few small statements per piece.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, TypeVar

from shadowtable.analysis import AnalysisSettings, GameAnalysis
from shadowtable.core.manifest import manifest_of
from shadowtable.core.registry import available_games, game_class
from shadowtable.server import analysis_work as work
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Unavailable
from shadowtable.server.replays import FinishedTables
from shadowtable.server.repository import analyses as sql
from shadowtable.server.store import Store, StoreError
from shadowtable.server.worker_pool import WorkerPool

log = logging.getLogger("shadowtable.server.analyses")

T = TypeVar("T")

NOT_OVER = "an analysis is made once the game is over"
CANDIDATES = 8
"""Jobs read at once when looking for one to take."""
QUEUE_FULL_RETRY_S = 60
"""The retry hint of a request refused because the queue is full."""

Observer = Callable[[str, str, float], None]
"""Told ``(table_id, status, progress)`` at each change this process makes to a job."""

Runner = Callable[..., Awaitable[Any]]
"""``await run(function, *args, units=n)``: ``function(*args)`` run as a piece of a job; a piece
of ``n`` units of progress also gets a progress callback as its last argument."""


class AnalysisUnavailable(Unavailable):
    """No analysis can be queued now: none is offered here, or the queue is full (503 and a retry hint)."""

    def __init__(self, what: str, retry_after: int | None = None) -> None:
        self.retry_after = retry_after
        super().__init__(what if retry_after is None else f"{what}; try again in {retry_after} s")

    def headers(self) -> dict[str, str]:
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}


class _LostJob(Exception):
    """Another process took the job over (this one's lease had expired)."""


def settings_of(config: ServerConfig) -> AnalysisSettings:
    """The analysis settings of every job: every seat, the configured rollouts, budget and policy."""
    budget = config.analysis_budget_s if config.analysis_budget_s > 0 else None
    return AnalysisSettings(seat=None, rollouts=config.analysis_rollouts, budget=budget, policy=config.analysis_policy)


def game_settings(settings: AnalysisSettings, game_id: str) -> AnalysisSettings:
    """``settings`` with what the game's manifest sets for the server's analysis of it
    (``analysis_settings``: Shadowlord!'s rollouts cut off, fewer of its choices compared)."""
    if game_id not in available_games():
        return settings
    return replace(settings, **manifest_of(game_class(game_id)).analysis_settings)


def status_answer(row: dict[str, Any] | None) -> dict[str, Any]:
    """The status of a job row (``None``: never asked for) as the API gives it."""
    if row is None:
        return {"status": "none", "progress": 0.0, "error": None}
    return {"status": row["status"], "progress": float(row["progress"]), "error": row["error"]}


class AnalysisQueue:
    """The analyses of this process (``app.state.analyses``): :meth:`request`, :meth:`status`,
    :meth:`result` for the routes; :meth:`start` and :meth:`stop` for the server's lifespan."""

    name = "analyses"

    def __init__(
        self,
        config: ServerConfig,
        finished: FinishedTables,
        owner: str | None = None,
        workers: WorkerPool | None = None,
    ) -> None:
        self.config = config
        self.finished = finished
        self.owner = owner or config.process_id
        self.settings = settings_of(config)
        self.observers: list[Observer] = []
        self.store: Store | None = None
        self.workers = workers or WorkerPool(config)
        self.workers.add(self)
        self._tokens = itertools.count()

    # -- the routes' side ---------------------------------------------------------------------
    async def request(self, table_id: str) -> dict[str, Any]:
        """Queue the analysis of finished table ``table_id`` (nothing changes if it is queued,
        running or done; a failed one is queued afresh) and return its status.  404 for an
        unknown table, 409 before its end, 503 when none is offered or the queue is full."""
        if self.config.analysis_workers <= 0:
            raise AnalysisUnavailable("this server does not analyse games (it runs no analysis worker)")
        await self.finished.get(table_id, NOT_OVER)
        store = self._store()
        row = await self._row(table_id)
        if row is None or row["status"] == "failed":
            await self._check_room(store)
            now = time.time()
            queue = sql.enqueue(table_id, now, is_sqlite=store.is_sqlite) if row is None else None
            made = await store.execute(queue if queue is not None else sql.requeue_failed(table_id, now))
            if made:
                self._notify(table_id, "queued", 0.0)
                self.workers.wake()
            row = await self._row(table_id)
        return status_answer(row)

    async def status(self, table_id: str) -> dict[str, Any]:
        """``{"status", "progress", "error"}`` of the analysis of ``table_id`` (``none``: never asked)."""
        await self.finished.get(table_id, NOT_OVER)
        return status_answer(await self._row(table_id))

    async def result(self, table_id: str) -> dict[str, Any] | None:
        """The stored result of the analysis of ``table_id`` once done (else ``None``)."""
        await self.finished.get(table_id, NOT_OVER)
        rows = await self._store().fetch(sql.analysis_of(table_id))
        if not rows or rows[0]["status"] != "done" or rows[0]["result"] is None:
            return None
        answer: dict[str, Any] = json.loads(rows[0]["result"])
        return answer

    async def _row(self, table_id: str) -> dict[str, Any] | None:
        rows = await self._store().fetch(sql.status_of(table_id))
        return rows[0] if rows else None

    async def _check_room(self, store: Store) -> None:
        most = self.config.analysis_queue_max
        if not most:
            return
        rows = await store.fetch(sql.waiting_count())
        waiting = int(next(iter(rows[0].values())))
        if waiting >= most:
            raise AnalysisUnavailable(
                f"{waiting} games wait for their analysis already (the most allowed)", QUEUE_FULL_RETRY_S
            )

    def _store(self) -> Store:
        if self.store is None:
            raise Unavailable("the server is starting: try again in a moment")
        return self.store

    def _notify(self, table_id: str, status: str, progress: float) -> None:
        for observer in self.observers:
            observer(table_id, status, progress)

    # -- the lifespan's side ------------------------------------------------------------------
    def start(self, store: Store) -> None:
        """Open on ``store`` and start the worker pool's slots (none with 0 workers)."""
        self.store = store
        self.workers.start()

    async def stop(self) -> None:
        """Stop the worker pool's slots (a running job goes back to the queue for the next start
        or another process), awaited, and kill its processes."""
        await self.workers.stop()

    def worker_pids(self) -> list[int]:
        """The process ids of the worker processes running now."""
        return self.workers.worker_pids()

    # -- running jobs ---------------------------------------------------------------------------
    async def take(self) -> str | None:
        """The next job for a slot of the worker pool (:meth:`_take`), if this process analyses."""
        if self.store is None:
            return None
        return await self._take()

    async def _take(self) -> str | None:
        """Claim the oldest job that may be taken (giving up those started too often); its id."""
        store = self._store()
        now = time.time()
        for row in await store.fetch(sql.candidates(now, CANDIDATES)):
            table_id = row["table_id"]
            if row["attempts"] >= self.config.analysis_attempts:
                error = (
                    f"the analysis was started {row['attempts']} times and its worker stopped each time"
                    " before the end; it is not tried again"
                )
                if await store.execute(sql.give_up(table_id, now, error)):
                    self._notify(table_id, "failed", 0.0)
                continue
            if await store.execute(sql.claim(table_id, self.owner, now, self.config.analysis_lease_s)):
                self._notify(table_id, "running", 0.0)
                return str(table_id)
        return None

    async def work(self, table_id: str) -> None:
        """Run job ``table_id`` (claimed) to its end: done, failed, or queued again."""
        store = self._store()
        progress = _Progress()
        renewer = asyncio.create_task(self._renew(table_id, progress), name=f"analysis-lease-{table_id}")
        try:
            outcome = await self._work(table_id, progress)
            if await store.execute(sql.finish(table_id, self.owner, json.dumps(outcome), time.time())):
                self._notify(table_id, "done", 1.0)
        except BrokenProcessPool:
            log.warning("analysis worker died", extra={"event": "analysis_worker_died", "table": table_id})
            self.workers.replace_broken()
            await _quietly(store.execute(sql.release(table_id, self.owner)))
            self._notify(table_id, "queued", 0.0)
        except asyncio.CancelledError:
            await _quietly(store.execute(sql.release(table_id, self.owner)))
            raise
        except _LostJob:
            log.warning("analysis taken over", extra={"event": "analysis_lost", "table": table_id})
        except StoreError as exc:  # the lease expires and the job is taken again
            log.warning("analysis not stored", extra={"event": "analysis_store", "reason": str(exc)})
        except Exception as exc:  # noqa: BLE001 - the analysis itself failed: say why, once
            log.exception("analysis failed", extra={"event": "analysis_failed", "table": table_id})
            error = f"the analysis failed: {exc}" if str(exc) else f"the analysis failed ({type(exc).__name__})"
            if await _quietly(store.execute(sql.fail(table_id, self.owner, error, time.time()))):
                self._notify(table_id, "failed", progress.fraction)
        finally:
            renewer.cancel()
            await asyncio.gather(renewer, return_exceptions=True)

    async def _work(self, table_id: str, progress: _Progress) -> dict[str, Any]:
        """Every piece of job ``table_id`` in turn under the job's budget (:func:`run_job`), its
        progress stored as the pieces send it and after each; the result."""
        finished = await self.finished.get(table_id, NOT_OVER)
        record = finished.record
        people = frozenset(int(seat["seat"]) for seat in finished.info["seats"] if seat["kind"] != "bot")

        async def run(function: Callable[..., T], *args: Any, units: int = 0) -> T:
            if not units:
                return await self._piece(function, *args)
            before = progress.done
            token = f"{self.owner}:{table_id}:{next(self._tokens)}"
            self.workers.listen(token, lambda share: progress.move(before + share * units))
            try:
                answer = await self._piece(function, *args, work.PipeProgress(token, self.config.analysis_progress_s))
            finally:
                self.workers.forget(token)
            progress.move(before + units)
            await self._report(table_id, progress)
            return answer

        return await run_job(record, self.settings, run, progress, time.monotonic, people)

    async def _piece(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process."""
        return await self.workers.run(function, *args)

    async def _report(self, table_id: str, progress: _Progress) -> None:
        """Store the progress, renew the lease and tell the observers; :class:`_LostJob` if the
        job is not ours any more.  One report at a time, so the stored progress only rises."""
        async with progress.lock:
            progress.news.clear()
            fraction = progress.fraction
            until = time.time() + self.config.analysis_lease_s
            if not await self._store().execute(sql.report(table_id, self.owner, fraction, until)):
                raise _LostJob(table_id)
        self._notify(table_id, "running", fraction)

    async def _renew(self, table_id: str, progress: _Progress) -> None:
        """While the job runs, store the progress its pieces send (at most once per
        ``analysis_progress_s``) and renew its lease at least every third of it."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(progress.news.wait(), self.config.analysis_lease_s / 3)
            with contextlib.suppress(StoreError, _LostJob):
                await self._report(table_id, progress)
            await asyncio.sleep(self.config.analysis_progress_s)


class _Progress:
    """Units of work (decisions analysed, beliefs worked out) done of the job's total; ``news``
    is set when it moves and not yet stored."""

    def __init__(self) -> None:
        self.done = 0.0
        self.total = 0
        self.news = asyncio.Event()
        self.lock = asyncio.Lock()

    def move(self, done: float) -> None:
        """Move to ``done`` units (never back)."""
        if done > self.done:
            self.done = done
            self.news.set()

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0


async def run_job(
    record: dict[str, Any],
    settings: AnalysisSettings,
    run: Runner,
    progress: _Progress,
    clock: Callable[[], float],
    people: frozenset[int] | None = None,
) -> dict[str, Any]:
    """The stored result of the analysis of ``record``: each seat's decisions, then each seat's
    deduction, every piece through ``run``.  ``settings.budget`` (seconds on ``clock``) bounds the
    whole job: the decisions must end by their part of it (:func:`work.budget_ends`), the
    deduction by its end, and each piece gets an even share of what is left when it starts, so
    time a piece leaves unspent goes to the next.  The seats ``people`` played come first: their
    pieces share the time among themselves, and the bots' seats get what they leave (``None``, no
    seat or every seat: all alike).  ``progress.total`` is set to the job's units."""
    start = clock()
    settings = game_settings(settings, str(record.get("game", "")))
    decided: dict[int, list[int]] = await run(work.decision_steps, record)
    kind: str | None = await run(work.deduction_kind, record)
    total = len(record["actions"])
    seats = people_first(sorted(decided), people)
    beliefs = {seat: work.belief_steps(decided[seat], total) for seat in seats} if kind else {}
    progress.total = sum(len(decided[seat]) for seat in seats) + sum(len(steps) for steps in beliefs.values())
    decisions_end, end = work.budget_ends(settings.budget, start, bool(beliefs))
    pieces: list[GameAnalysis] = []
    for n, seat in enumerate(seats):
        budget = work.piece_budget(decisions_end, clock(), sharing(seats, n, people))
        pieces.append(await run(work.analyse_seat, record, settings, seat, budget, units=len(decided[seat])))
    deductions: dict[int, work.SeatDeduction] = {}
    for n, (seat, steps) in enumerate(beliefs.items()):
        budget = work.piece_budget(end, clock(), sharing(list(beliefs), n, people))
        deductions[seat] = await run(work.deduce_seat, record, seat, steps, budget, units=len(steps))
    return work.result(work.merged(settings, pieces), kind or record["game"], deductions)


def people_first(seats: list[int], people: frozenset[int] | None) -> list[int]:
    """``seats`` with those people played first, each group in seat order."""
    return sorted(seats, key=lambda seat: (people is not None and seat not in people, seat))


def sharing(seats: list[int], n: int, people: frozenset[int] | None) -> int:
    """How many pieces share what is left of the time when piece ``n`` of ``seats`` (people's
    first) starts: the people's pieces left while one is, then the bots' pieces left."""
    if not people or all(seat in people for seat in seats):
        return len(seats) - n
    return sum(1 for seat in seats[n:] if (seat in people) == (seats[n] in people))


async def _quietly(statement: Any) -> list[dict[str, Any]]:
    """Await a store call whose failure only delays the job (its lease expires); no rows then."""
    try:
        rows: list[dict[str, Any]] = await statement
    except StoreError:
        return []
    return rows
