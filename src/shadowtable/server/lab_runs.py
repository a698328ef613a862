"""The designer's lab on the server: each allowed account's runs, played in chunks by the worker
pool the analyses use, their rows and figures stored in the database.

A run is created from a specification checked whole first (:func:`shadowtable.lab.spec.check_spec`:
a refused one names its field and nothing is stored).  Each job a slot of the worker pool takes is
one piece: a chunk of :attr:`ServerConfig.lab_chunk` games of one arm played in a worker process
(:func:`shadowtable.server.lab_work.play_chunk`), whose rows are stored with the run's new counts
in one transaction; the run is then let go, so the analyses and other runs take their turn.  Once
every arm has its games, the figures are computed in a worker too and stored with the status
``done``.  Stop marks the run stopped (a chunk under way still stores its games); Resume queues it
again and it plays only the games it lacks, with the same seeds: the figures equal an
uninterrupted run's.  Odd games are played again on demand and stored as finished, unlisted
tables (:mod:`shadowtable.server.lab_replays`), so the replay page shows them with the reveal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Iterator, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from shadowtable.lab.run import arms
from shadowtable.lab.spec import MAX_GAMES, LabSpec, LabSpecError, check_spec
from shadowtable.saves import data_dir
from shadowtable.server import lab_work
from shadowtable.server.accounts import Account
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import Conflict, Forbidden, NotFound, ServiceError, Unavailable
from shadowtable.server.repository import lab as sql
from shadowtable.server.store import Store, StoreError
from shadowtable.server.worker_pool import WorkerPool

log = logging.getLogger("shadowtable.server.lab")

CANDIDATES = 8
"""Runs read at once when looking for one to take a piece of."""
ROWS_PAGE = 2000
"""Rows read per statement when the figures are computed."""
RUN_ID_CHARS = 12
NOT_ALLOWED = (
    "the designer's lab is open only to the accounts this server's operator allows"
    " (shadowtable serve --lab-account NAME)"
)


ONE_ACTIVE = "you have a lab run queued or running already: stop it or wait for its end"


@contextlib.contextmanager
def one_active_run() -> Iterator[None]:
    """Turn the database's refusal of a second queued or running run of one account (its unique
    index, which holds for two requests at once too) into :data:`ONE_ACTIVE` (409)."""
    try:
        yield
    except StoreError as exc:
        if isinstance(exc.__cause__, sa.exc.IntegrityError):
            raise Conflict(ONE_ACTIVE) from exc
        raise


class LabRefused(Forbidden):
    """The account may not use the lab here (403, saying who may)."""


class SpecRefused(ServiceError):
    """A specification that does not pass the lab's check (or this server's limits); ``field``
    names the bad value (422)."""

    status = 422

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class Piece:
    """One claimed chunk: games ``start`` to ``stop - 1`` of ``arm`` of run ``run_id``."""

    run_id: str
    spec: dict[str, Any]
    done: list[int]
    games: int
    arm: int | None
    start: int
    stop: int


def next_chunk(done: list[int], games: int, chunk: int) -> tuple[int, int, int] | None:
    """The next ``(arm, start, stop)`` to play (``None``: every arm has all its games)."""
    for arm, count in enumerate(done):
        if count < games:
            return arm, count, min(games, count + chunk)
    return None


def allowed(config: ServerConfig, account: Account | None) -> bool:
    """Whether ``account`` (``None``: a guest) may use the lab on this server."""
    return account is not None and config.lab_allows(account.name)


class LabRuns:
    """The lab's runs of this process (``app.state.lab``): the routes' :meth:`create`, :meth:`runs`,
    :meth:`run`, :meth:`stop`, :meth:`resume`, :meth:`delete`, :meth:`rows`; and, as a job source
    of the worker pool, :meth:`take` and :meth:`work`."""

    name = "lab"

    def __init__(self, config: ServerConfig, workers: WorkerPool, owner: str | None = None) -> None:
        self.config = config
        self.workers = workers
        self.owner = owner or config.process_id
        self.store: Store | None = None
        self.content_folder = str(data_dir() / "lab-content")
        workers.add(self)

    def open(self, store: Store) -> None:
        self.store = store

    def database(self) -> Store:
        if self.store is None:
            raise Unavailable("the server is starting: try again in a moment")
        return self.store

    # -- the routes' side ---------------------------------------------------------------------
    def check_allowed(self, account: Account | None) -> Account:
        """``account`` if it may use the lab; :class:`LabRefused` otherwise."""
        if account is None or not allowed(self.config, account):
            raise LabRefused(NOT_ALLOWED if account is not None else f"sign in first: {NOT_ALLOWED}")
        return account

    def max_games(self) -> int:
        """Games per arm a run may ask for on this server."""
        return max(1, min(MAX_GAMES, self.config.lab_max_games))

    async def check(self, data: Mapping[str, Any]) -> LabSpec:
        """``data`` checked whole (in a thread: an edited content is checked by building the game);
        :class:`SpecRefused` naming the field."""
        try:
            spec = await asyncio.to_thread(check_spec, data)
        except LabSpecError as exc:
            raise SpecRefused(exc.field, exc.message) from exc
        if spec.games > self.max_games():
            raise SpecRefused("games", f"this server plays at most {self.max_games()} games per arm")
        return spec

    async def create(self, account: Account, data: Mapping[str, Any]) -> str:
        """Check ``data`` and queue it as a new run of ``account``; its id.  Nothing is stored for
        a refused specification, nor past the account's limits (409)."""
        if self.workers.size <= 0:
            raise Unavailable("this server plays no lab runs (it runs no background worker)")
        spec = await self.check(data)
        store = self.database()
        runs, active = await self._counts(account.id)
        if runs >= self.config.lab_max_runs:
            raise Conflict(f"you keep {runs} lab runs already (the most allowed): delete one first")
        if active:
            raise Conflict(ONE_ACTIVE)
        run_id = secrets.token_urlsafe(9)[:RUN_ID_CHARS]
        count = len(arms(spec))
        with one_active_run():
            await store.execute(sql.insert_run(run_id, account.id, spec.to_json(), count, spec.games, time.time()))
        log.info("lab run queued", extra={"event": "lab_queued", "run": run_id, "game": spec.game})
        self.workers.wake()
        return run_id

    async def _counts(self, account_id: str) -> tuple[int, int]:
        rows = await self.database().fetch(sql.count_of(account_id))
        return (int(rows[0]["runs"] or 0), int(rows[0]["active"] or 0)) if rows else (0, 0)

    async def runs(self, account: Account) -> list[dict[str, Any]]:
        """``account``'s runs, newest first (without specs and figures)."""
        rows = await self.database().fetch(sql.runs_of(account.id, self.config.lab_max_runs + 5))
        return [run_summary(row) for row in rows]

    async def run(self, account: Account, run_id: str) -> dict[str, Any]:
        """Run ``run_id`` of ``account`` whole (404 for another's or an unknown one)."""
        rows = await self.database().fetch(sql.run_of(run_id))
        if not rows or rows[0]["owner"] != account.id:
            raise NotFound("no such lab run")
        row = rows[0]
        answer = run_summary(row)
        answer["spec"] = json.loads(row["spec"])
        answer["result"] = json.loads(row["figures"]) if row["figures"] else None
        answer["replays"] = json.loads(row["replays"]) if row["replays"] else {}
        return answer

    async def status(self, account: Account, run_id: str) -> dict[str, Any]:
        """Where run ``run_id`` of ``account`` stands (the page polls it)."""
        rows = await self.database().fetch(sql.status_of(run_id))
        if not rows or rows[0]["owner"] != account.id:
            raise NotFound("no such lab run")
        return run_summary(rows[0])

    async def stop(self, account: Account, run_id: str) -> dict[str, Any]:
        """Stop the run (a chunk under way still stores its games); 409 unless queued or running."""
        if not await self.database().execute(sql.stop(run_id, account.id)):
            await self.status(account, run_id)  # 404 for another's
            raise Conflict("only a queued or running lab run can be stopped")
        return await self.status(account, run_id)

    async def resume(self, account: Account, run_id: str) -> dict[str, Any]:
        """Queue a stopped or failed run again (it plays only the games it lacks)."""
        await self.status(account, run_id)
        _, active = await self._counts(account.id)
        if active:
            raise Conflict(ONE_ACTIVE)
        with one_active_run():
            resumed = await self.database().execute(sql.resume(run_id, account.id))
        if not resumed:
            raise Conflict("only a stopped or failed lab run can be resumed")
        self.workers.wake()
        return await self.status(account, run_id)

    async def delete(self, account: Account, run_id: str) -> None:
        """Delete a run that is not queued nor running, with its rows."""
        status = await self.status(account, run_id)
        if status["status"] in sql.ACTIVE or status["claimed"]:
            raise Conflict("stop the lab run before deleting it")
        guard = sql.mark_deleting(run_id, account.id)
        if not await self.database().execute_guarded(guard, sql.delete_rows(run_id), sql.delete_run(run_id)):
            raise Conflict("stop the lab run before deleting it")

    async def rows(self, run_id: str, count: list[int]) -> dict[int, list[str]]:
        """The stored rows (JSON text) of every arm, read a page at a time."""
        store = self.database()
        out: dict[int, list[str]] = {}
        for arm, wanted in enumerate(count):
            got: list[str] = []
            after = -1
            while len(got) < wanted:
                page = await store.fetch(sql.rows_page(run_id, arm, after, ROWS_PAGE))
                if not page:
                    break
                got.extend(row["row"] for row in page)
                after = page[-1]["idx"]
            out[arm] = got
        return out

    # -- the worker pool's side -----------------------------------------------------------------
    async def take(self) -> Piece | None:
        """Claim a piece of the run let go longest ago (giving up runs whose piece died too often)."""
        if self.store is None:
            return None
        store = self.store
        now = time.time()
        for row in await store.fetch(sql.candidates(now, CANDIDATES)):
            run_id = row["id"]
            if row["attempts"] >= self.config.analysis_attempts:
                error = (
                    f"a piece of the run was started {row['attempts']} times and its worker stopped each"
                    " time before the end; resume it to try again"
                )
                await store.execute(sql.give_up(run_id, now, error))
                continue
            claimed = await store.execute(sql.claim(run_id, self.owner, now, self.config.analysis_lease_s))
            if claimed:
                found = claimed[0]
                done = [int(n) for n in json.loads(found["done"])]
                chunk = next_chunk(done, int(found["games"]), max(1, self.config.lab_chunk))
                arm, start, stop = chunk if chunk is not None else (None, 0, 0)
                return Piece(run_id, json.loads(found["spec"]), done, int(found["games"]), arm, start, stop)
        return None

    async def work(self, job: Piece) -> None:
        """Play the claimed piece and store it, or compute and store the figures once all is played."""
        store = self.database()
        renewer = asyncio.create_task(self._renew(job.run_id), name=f"lab-lease-{job.run_id}")
        try:
            if job.arm is None:
                await self._finish(job)
            else:
                await self._play(job)
        except BrokenProcessPool:
            log.warning("lab worker died", extra={"event": "lab_worker_died", "run": job.run_id})
            self.workers.replace_broken()
            await _quietly(store.execute(sql.release(job.run_id, self.owner)))
        except asyncio.CancelledError:
            await _quietly(store.execute(sql.release(job.run_id, self.owner)))
            raise
        except StoreError as exc:  # the lease expires and the piece is taken again
            log.warning("lab piece not stored", extra={"event": "lab_store", "reason": str(exc)})
        except Exception as exc:  # noqa: BLE001 - the games themselves failed: say why, once
            log.exception("lab run failed", extra={"event": "lab_failed", "run": job.run_id})
            error = f"the lab run failed: {exc}" if str(exc) else f"the lab run failed ({type(exc).__name__})"
            await _quietly(store.execute(sql.fail(job.run_id, self.owner, error, time.time())))
        finally:
            renewer.cancel()
            await asyncio.gather(renewer, return_exceptions=True)

    async def _play(self, job: Piece) -> None:
        assert job.arm is not None
        rows = await self.workers.run(lab_work.play_chunk, job.spec, job.arm, job.start, job.stop, self.content_folder)
        done = list(job.done)
        done[job.arm] = job.stop
        store = self.database()
        numbered = list(enumerate(rows, job.start))
        await store.execute_guarded(
            sql.store_chunk(job.run_id, self.owner, json.dumps(done)), sql.insert_rows(job.run_id, job.arm, numbered)
        )
        await store.execute(sql.release(job.run_id, self.owner))
        if next_chunk(done, job.games, 1) is None:
            self.workers.wake()  # the figures next

    async def _finish(self, job: Piece) -> None:
        rows = await self.rows(job.run_id, job.done)
        figures = await self.workers.run(lab_work.figures_of, job.spec, rows)
        if await self.database().execute(sql.finish(job.run_id, self.owner, figures, time.time())):
            log.info("lab run done", extra={"event": "lab_done", "run": job.run_id})

    async def _renew(self, run_id: str) -> None:
        """Renew the claim every third of the lease while a piece runs."""
        while True:
            await asyncio.sleep(self.config.analysis_lease_s / 3)
            with contextlib.suppress(StoreError):
                await self.database().execute(sql.renew(run_id, self.owner, time.time() + self.config.analysis_lease_s))


def run_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """A run as its list and its page's progress show it."""
    done = [int(n) for n in json.loads(row["done"])]
    games = int(row["games"])
    total = games * len(done)
    return {
        "id": row["id"],
        "game": row["game"],
        "players": row["players"],
        "status": row["status"],
        "claimed": row["claimed_by"] is not None,
        "games": games,
        "done": done,
        "progress": sum(done) / total if total else 0.0,
        "error": row["error"],
        "created_at": row["created_at"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
    }


async def _quietly(statement: Any) -> list[dict[str, Any]]:
    """Await a store call whose failure only delays the run (its lease expires); no rows then."""
    try:
        rows: list[dict[str, Any]] = await statement
    except StoreError:
        return []
    return rows
