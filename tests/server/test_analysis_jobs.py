"""The analyses of finished tables: queued in the database, run by worker processes, stored."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.conftest import config_for
from shadowtable.bots.registry import make_bot
from shadowtable.core.deduction import record_belief
from shadowtable.core.record import GameRecord, replay_states
from shadowtable.core.registry import make
from shadowtable.core.runner import play_game
from shadowtable.server import analysis_work as work
from shadowtable.server.analysis_jobs import AnalysisQueue
from shadowtable.server.app import create_app
from shadowtable.server.repository import analyses as sql

TINY = {
    "analysis_workers": 1,
    "analysis_rollouts": 2,
    "analysis_budget_s": 0.0,
    "analysis_policy": "random",
    "analysis_poll_s": 0.2,
    "rate_analysis_reads": "100000/second",  # the tests poll often; the rate's own test sets it
}
"""Analyses that take well under a second on a tiny game."""


def finished_table(client: TestClient, game: str = "tiny-showdown", players: int = 2) -> str:
    """A table of bots played to its end; its id."""
    made = client.post("/api/tables", json={"game": game, "players": players, "seats": ["bot:random"] * players})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over", 20)
    return table_id


def running_table(client: TestClient) -> str:
    """A table in play (a human seat nobody takes keeps it waiting for them)."""
    made = client.post(
        "/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["human", "bot:random"], "sit": True}
    )
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    client.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made.json()['token']}"})
    return table_id


def wait_for(condition: Callable[[], Any], seconds: float) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not reached within {seconds} s")


def analysis_done(client: TestClient, table_id: str, seconds: float = 60) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        answer: dict[str, Any] = client.get(f"/api/tables/{table_id}/analysis").json()
        assert answer["status"] != "failed", answer
        return answer if answer["status"] == "done" else None

    found: dict[str, Any] = wait_for(done, seconds)
    return found


def queue_of(client: TestClient) -> AnalysisQueue:
    analyses: AnalysisQueue = client.app.state.analyses  # type: ignore[attr-defined]
    return analyses


def test_a_finished_table_is_queued_run_and_stored_with_progress(serve: Callable[..., TestClient]) -> None:
    with serve(**TINY) as client:
        seen: list[tuple[str, float]] = []
        table_id = finished_table(client)
        queue_of(client).observers.append(changes_of(table_id, seen))
        assert client.get(f"/api/tables/{table_id}/analysis").json() == {
            "status": "none",
            "progress": 0.0,
            "error": None,
            "result": None,
        }
        asked = client.post(f"/api/tables/{table_id}/analysis")
        assert asked.status_code == 202
        assert asked.json()["status"] in {"queued", "running", "done"}
        answer = analysis_done(client, table_id)
        assert answer["progress"] == 1.0 and answer["error"] is None
        statuses = [status for status, _ in seen]
        assert statuses[0] == "queued" and statuses[-1] == "done"
        running = [progress for status, progress in seen if status == "running"]
        assert running[0] == 0.0 and any(0.0 < p < 1.0 for p in running), seen
        assert running == sorted(running)
        for pid in queue_of(client).worker_pids():  # the workers yield to everything else
            assert os.getpriority(os.PRIO_PROCESS, pid) == 19
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        again = client.post(f"/api/tables/{table_id}/analysis")
        assert again.json()["status"] == "done"  # asked again: nothing new is queued
        assert [s for s, _ in seen].count("queued") == 1

        record = client.get(f"/api/tables/{table_id}/record").json()
        result = answer["result"]
        assert result["format"] == "shadowtable-table-analysis/1"
        analysis = result["analysis"]
        assert analysis["settings"]["seat"] is None and analysis["game"] == "tiny-showdown"
        assert [s["seat"] for s in analysis["seats"]] == [0, 1]
        plies = [d["ply"] for d in analysis["decisions"]]
        assert plies == sorted(plies)
        actions = record["actions"]
        for decision in analysis["decisions"]:
            assert actions[decision["ply"]] == decision["action"]  # ply: the step the decision was taken at
        # tiny-showdown has no deduction model: the panel is empty, named by the game
        assert result["deduction"] == {
            "kind": "tiny-showdown",
            "seats": {},
            "unanalysed": 0,
            "unanalysed_by_seat": {},
            "complete": True,
        }


def test_the_deduction_panel_is_each_seats_belief_at_its_decisions_and_the_end() -> None:
    """The pieces a worker runs for the panel, on the first 80 steps of a game of Shadowlord!."""
    game = make("shadowlord", players=2)
    record = play_game(game, [make_bot("random"), make_bot("random")], 5, max_steps=80).to_json()
    decided = work.decision_steps(record)
    assert work.deduction_kind(record) == "shadowlord"
    replayed = GameRecord.from_json(record)
    for seat, steps in decided.items():
        assert steps and all(replayed_seat(replayed, step) == seat for step in steps)
        wanted = work.belief_steps(steps, len(record["actions"]))
        assert wanted[-1] == len(record["actions"]) and set(steps) <= set(wanted)
        deduced = work.deduce_seat(record, seat, wanted[::10] + [wanted[-1]])
        assert deduced.unanalysed == 0
        assert [e["step"] for e in deduced.entries] == wanted[::10] + [wanted[-1]]
        for entry in deduced.entries:
            assert entry["belief"] == record_belief(replayed, seat, upto=entry["step"])
    assert work.deduction_kind(finished_tiny_record()) is None


def replayed_seat(record: GameRecord, step: int) -> int:
    """The seat deciding after ``step`` actions of ``record``."""
    for index, (game, state) in enumerate(replay_states(record)):
        if index == step:
            return int(game.current_player(state))
    raise AssertionError(step)


def finished_tiny_record() -> dict[str, Any]:
    game = make("tiny-showdown", players=2)
    record: dict[str, Any] = play_game(game, [make_bot("random"), make_bot("random")], 1).to_json()
    return record


def test_a_table_in_play_or_unknown_has_no_analysis(serve: Callable[..., TestClient]) -> None:
    with serve(**TINY) as client:
        table_id = running_table(client)
        for answer in (client.post(f"/api/tables/{table_id}/analysis"), client.get(f"/api/tables/{table_id}/analysis")):
            assert answer.status_code == 409
            assert answer.json() == {"error": "an analysis is made once the game is over"}
        for answer in (client.post("/api/tables/nosuchtable/analysis"), client.get("/api/tables/nosuchtable/analysis")):
            assert answer.status_code == 404


def test_no_worker_means_no_analysis_offered(serve: Callable[..., TestClient]) -> None:
    with serve(**{**TINY, "analysis_workers": 0}) as client:
        table_id = finished_table(client)
        refused = client.post(f"/api/tables/{table_id}/analysis")
        assert refused.status_code == 503
        assert "does not analyse games" in refused.json()["error"]
        assert client.get(f"/api/tables/{table_id}/analysis").json()["status"] == "none"


SLOW = {**TINY, "analysis_rollouts": 100000, "analysis_budget_s": 3.0, "analysis_lease_s": 30.0}
"""Analyses bounded by their budget only: about three seconds each."""

KILLABLE = {**SLOW, "analysis_budget_s": 12.0}
"""Analyses of about twelve seconds: a worker killed once the first progress shows is sure to be
killed mid-job, even when a loaded machine lets the test see that progress seconds late."""


def test_a_killed_workers_job_is_retried_and_finishes(serve: Callable[..., TestClient]) -> None:
    with serve(**KILLABLE) as client:
        queue = queue_of(client)
        seen: list[tuple[str, float]] = []
        table_id = finished_table(client)
        queue.observers.append(changes_of(table_id, seen))
        client.post(f"/api/tables/{table_id}/analysis")
        wait_for(lambda: any(s == "running" and p > 0 for s, p in seen), 60)  # a seat's piece is under way
        (pid,) = queue.worker_pids()
        os.kill(pid, signal.SIGKILL)
        assert ("done", 1.0) not in seen, f"the job ended before its worker was killed: {seen}"
        answer = analysis_done(client, table_id, 90)
        assert ("queued", 0.0) in seen[seen.index(("running", 0.0)) + 1 :]
        assert pid not in queue.worker_pids()
        rows = client.portal.call(queue_store_rows, queue, table_id)  # type: ignore[union-attr]
        assert rows["attempts"] == 2 and rows["claimed_by"] is None
        assert len(answer["result"]["analysis"]["seats"]) == 2


def changes_of(table_id: str, seen: list[tuple[str, float]]) -> Callable[[str, str, float], None]:
    """An observer noting ``(status, progress)`` at each change of the job of ``table_id``."""

    def note(table: str, status: str, progress: float) -> None:
        if table == table_id:
            seen.append((status, progress))

    return note


def progress_since_queued(seen: list[tuple[str, float]]) -> bool:
    """Whether the job has reported running with some progress since it was last queued."""
    queued = [index for index, (status, _) in enumerate(seen) if status == "queued"]
    since = queued[-1] if queued else 0
    return any(status == "running" and progress > 0 for status, progress in seen[since:])


def starts_of(owner: str, started: list[tuple[str, str]]) -> Callable[[str, str, float], None]:
    """An observer noting ``(owner, table)`` each time ``owner`` starts a job."""

    def note(table_id: str, status: str, progress: float) -> None:
        if status == "running" and progress == 0.0:
            started.append((owner, table_id))

    return note


async def queue_store_rows(queue: AnalysisQueue, table_id: str) -> dict[str, Any]:
    assert queue.store is not None
    (row,) = await queue.store.fetch(sql.analysis_of(table_id))
    return row


def test_a_job_whose_workers_keep_dying_fails_with_a_clear_error(serve: Callable[..., TestClient]) -> None:
    with serve(**KILLABLE, analysis_attempts=2) as client:
        queue = queue_of(client)
        seen: list[tuple[str, float]] = []
        table_id = finished_table(client)
        queue.observers.append(changes_of(table_id, seen))
        client.post(f"/api/tables/{table_id}/analysis")
        for attempt in (1, 2):
            pids = wait_for(lambda: progress_since_queued(seen) and queue.worker_pids(), 60)
            os.kill(pids[0], signal.SIGKILL)
            wait_for(lambda n=attempt: [s for s, _ in seen].count("queued") > n, 30)
        answer = wait_for(lambda: client.get(f"/api/tables/{table_id}/analysis").json()["status"] == "failed", 30)
        assert answer
        body = client.get(f"/api/tables/{table_id}/analysis").json()
        assert "started 2 times" in body["error"] and body["result"] is None


def test_two_queues_on_one_database_never_run_one_job_twice(serve: Callable[..., TestClient]) -> None:
    with serve(**TINY) as client:
        first = queue_of(client)
        started: list[tuple[str, str]] = []
        table_ids = [finished_table(client) for _ in range(4)]

        async def both() -> None:
            assert first.store is not None
            second = AnalysisQueue(first.config, first.finished, owner="second-process")
            for queue in (first, second):
                queue.observers.append(starts_of(queue.owner, started))
            second.start(first.store)
            try:
                for table_id in table_ids:
                    await first.request(table_id)
                for _ in range(600):
                    statuses = [(await first.status(t))["status"] for t in table_ids]
                    if statuses == ["done"] * len(table_ids):
                        break
                    await asyncio.sleep(0.1)
            finally:
                await second.stop()

        client.portal.call(both)  # type: ignore[union-attr]
        # (on PostgreSQL the session's database may hold other tests' jobs: they are left out)
        assert sorted(table for _, table in started if table in table_ids) == sorted(table_ids), started


def test_claims_race_and_exactly_one_wins(serve: Callable[..., TestClient]) -> None:
    with serve(**{**TINY, "analysis_workers": 0}) as client:
        table_id = finished_table(client)
        queue = queue_of(client)

        async def race() -> list[list[dict[str, Any]]]:
            store = queue.store
            assert store is not None
            await store.execute(sql.enqueue(table_id, time.time(), is_sqlite=store.is_sqlite))
            now = time.time()
            return await asyncio.gather(
                *(store.execute(sql.claim(table_id, f"owner-{n}", now, 60.0)) for n in range(8))
            )

        answers = client.portal.call(race)  # type: ignore[union-attr]
        assert sum(1 for rows in answers if rows) == 1


def test_the_queue_cap_and_the_rate_refuse_clearly(sqlite_database: str) -> None:
    """On a database of its own (the cap counts every job in the database; the PostgreSQL database
    of a test session holds other tests' jobs)."""
    config = config_for(sqlite_database, **SLOW, analysis_queue_max=1, rate_analyses="3/minute")
    with TestClient(create_app(config)) as client:
        first, second = finished_table(client), finished_table(client)
        assert client.post(f"/api/tables/{first}/analysis").status_code == 202
        full = client.post(f"/api/tables/{second}/analysis")
        assert full.status_code == 503 and full.headers["Retry-After"] == "60"
        assert "1 games wait for their analysis already" in full.json()["error"]
        assert client.get(f"/api/tables/{second}/analysis").json()["status"] == "none"
        assert client.post(f"/api/tables/{first}/analysis").status_code == 202  # queued already: no room needed
        limited = client.post(f"/api/tables/{first}/analysis")
        assert limited.status_code == 429 and "too many analyses asked for" in limited.json()["error"]
        assert int(limited.headers["Retry-After"]) >= 1


def test_a_job_held_by_a_dead_process_is_taken_again_once_its_lease_expires(
    serve: Callable[..., TestClient],
) -> None:
    with serve(**{**TINY, "analysis_workers": 0}) as client:
        table_id = finished_table(client)
        queue = queue_of(client)

        async def held_by_the_dead(lease_until: float) -> None:
            store = queue.store
            assert store is not None
            await store.execute(sql.enqueue(table_id, time.time(), is_sqlite=store.is_sqlite))
            await store.execute(sql.claim(table_id, "dead-process", time.time(), 0.0))
            await store.execute(sql.report(table_id, "dead-process", 0.5, lease_until))

        client.portal.call(held_by_the_dead, time.time() + 3600)  # type: ignore[union-attr]
        taken = client.portal.call(taken_by, queue.store, "alive", table_id)  # type: ignore[union-attr]
        assert not taken  # its lease holds: nobody else takes it
        client.portal.call(held_by_the_dead, time.time() - 1)  # type: ignore[union-attr]
        taken = client.portal.call(taken_by, queue.store, "alive", table_id)  # type: ignore[union-attr]
        assert [row["table_id"] for row in taken] == [table_id] and taken[0]["attempts"] == 2
        status = client.get(f"/api/tables/{table_id}/analysis").json()
        assert status["status"] == "running" and status["progress"] == 0.0


async def taken_by(store: Any, owner: str, table_id: str) -> list[dict[str, Any]]:
    """Job ``table_id`` claimed by ``owner`` if it is among the jobs that may be taken now (other
    tests' jobs on a shared database are left alone)."""
    now = time.time()
    offered = {row["table_id"] for row in await store.fetch(sql.candidates(now, 1000))}
    if table_id not in offered:
        return []
    claimed: list[dict[str, Any]] = await store.execute(sql.claim(table_id, owner, now, 60.0))
    return claimed


def test_merged_pieces_carry_the_budget_fields_through() -> None:
    """Each seat's piece keeps its samples, cut_short and noise; the whole sums what was left."""
    from dataclasses import replace as changed

    from shadowtable.analysis import AnalysisSettings, GameAnalysis

    game = make("tiny-showdown", players=2)
    record = play_game(game, [make_bot("random"), make_bot("random")], 7)
    settings = AnalysisSettings(rollouts=8, policy="random")
    pieces = [work.analyse_seat(record.to_json(), settings, seat) for seat in range(2)]
    assert all(piece.complete and piece.unanalysed == 0 for piece in pieces)
    pieces[1] = changed(pieces[1], unanalysed=3, complete=False)
    whole = work.merged(settings, pieces)
    assert whole["unanalysed"] == 3 and whole["complete"] is False
    rebuilt = GameAnalysis.from_json(whole)
    assert rebuilt.to_json() == whole
    decisions = [d for piece in pieces for d in piece.decisions]
    assert decisions, "the game has decisions with a choice"
    assert sorted((d.ply, d.samples, d.cut_short, d.noise) for d in decisions) == sorted(
        (d.ply, d.samples, d.cut_short, d.noise) for d in rebuilt.decisions
    )
    assert work.merged(settings, [pieces[0], pieces[0]])["complete"] is True


def _a_game_with_a_seat_deciding_twice(client: TestClient) -> tuple[str, dict[int, list[int]]]:
    """A finished table where some seat took two decisions or more (the server's bots draw their
    chance from the operating system, and a random game may give every seat a single decision,
    which leaves a seat's piece no progress between its ends); its id and decisions by seat."""
    for _ in range(20):
        table_id = finished_table(client)
        decided = work.decision_steps(client.get(f"/api/tables/{table_id}/record").json())
        if any(len(steps) >= 2 for steps in decided.values()):
            return table_id, decided
    raise AssertionError("20 random games gave no seat a second decision")


@pytest.mark.flaky(reruns=2)  # a loaded machine may deliver a piece's answer before its last progress
def test_progress_moves_within_a_seats_piece_rises_and_reaches_one(serve: Callable[..., TestClient]) -> None:
    """Each seat's piece sends its progress after each decision, so the stored progress moves
    between the pieces' ends, never back, up to 1.0."""
    # twelve seconds, not three: the workers run at the lowest priority, and on a loaded machine a
    # three-second piece could send its decisions' progress in one burst with its answer
    with serve(**KILLABLE, analysis_progress_s=0.0) as client:
        seen: list[tuple[str, float]] = []
        table_id, decided = _a_game_with_a_seat_deciding_twice(client)
        queue_of(client).observers.append(changes_of(table_id, seen))
        client.post(f"/api/tables/{table_id}/analysis")
        answer = analysis_done(client, table_id, 60)
        assert answer["progress"] == 1.0
        running = [progress for status, progress in seen if status == "running"]
        assert running == sorted(running) and seen[-1] == ("done", 1.0)
        total = sum(len(steps) for steps in decided.values())
        ends = {0.0, 1.0} | {
            sum(len(decided[s]) for s in sorted(decided)[: n + 1]) / total for n in range(len(decided))
        }
        within = [p for p in running if all(abs(p - end) > 1e-9 for end in ends)]
        assert within, f"no progress between the ends of the pieces {sorted(ends)}: {running}"
