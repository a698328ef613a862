"""One budget bounds a table's whole analysis: decisions, then the deduction with its share.

Time is a fake clock that moves only when a rollout or a belief runs, so the bounds are checked
exactly, not against the wall clock."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from shadowtable.analysis import AnalysisSettings, estimate
from shadowtable.bots.registry import make_bot
from shadowtable.core import deduction
from shadowtable.core.registry import make
from shadowtable.core.runner import play_game
from shadowtable.server import analysis_work as work
from shadowtable.server.analysis_jobs import _Progress, run_job

ROLLOUT_S = 0.25
BELIEF_S = 0.0625
"""Binary fractions, so the fake clock adds them up exactly."""


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """100 steps of a 2-player game of Shadowlord! (it has a deduction model)."""
    game = make("shadowlord", players=2)
    played: dict[str, Any] = play_game(game, [make_bot("random"), make_bot("random")], 11, max_steps=100).to_json()
    return played


def costly(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> dict[str, list[float]]:
    """Rollouts (a loss each) and beliefs that take ``ROLLOUT_S`` and ``BELIEF_S`` on ``clock``;
    the times each started."""
    started: dict[str, list[float]] = {"rollout": [], "belief": []}
    real_belief = deduction.belief

    def rollout(*args: Any) -> float:
        started["rollout"].append(clock.now)
        clock.now += ROLLOUT_S
        return 0.0

    def belief(*args: Any, **options: Any) -> dict[str, Any]:
        started["belief"].append(clock.now)
        clock.now += BELIEF_S
        answer: dict[str, Any] = real_belief(*args, **options)
        return answer

    monkeypatch.setattr(estimate, "rollout_value", rollout)
    monkeypatch.setattr(deduction, "belief", belief)
    return started


def in_process(clock: FakeClock) -> Any:
    """A runner of a job's pieces in this process, on ``clock``, noting each piece's progress."""
    shares: list[float] = []

    async def run(function: Any, *args: Any, units: int = 0) -> Any:
        if not units:
            return function(*args)
        return function(*args, shares.append, clock=clock)

    run.shares = shares  # type: ignore[attr-defined]
    return run


@pytest.mark.parametrize("budget", [0.2, 1.0, 2.0])
def test_the_deduction_stops_when_its_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch, record: dict[str, Any], budget: float
) -> None:
    clock = FakeClock()
    started = costly(monkeypatch, clock)
    steps = work.belief_steps(work.decision_steps(record)[0], len(record["actions"]))
    begin = clock.now
    deduced = work.deduce_seat(record, 0, steps, budget, clock=clock)
    assert all(t < begin + budget for t in started["belief"]), "no belief starts once the budget is spent"
    assert clock.now <= begin + budget + BELIEF_S, "overrun by one belief at most"
    assert len(steps) > 2.0 / BELIEF_S, "the budgets leave some steps without a belief"
    assert len(deduced.entries) == len(started["belief"]) == math.ceil(budget / BELIEF_S)
    assert deduced.unanalysed == len(steps) - len(deduced.entries)
    assert [e["step"] for e in deduced.entries] == steps[: len(deduced.entries)], "the first steps, in order"
    assert work.deduce_seat(record, 0, steps, 0.0, clock=clock).entries == [], "nothing left: nothing starts"


@pytest.mark.parametrize("budget", [2.0, 5.0, 12.0])
def test_a_whole_job_honours_one_budget_and_the_deduction_gets_its_share(
    monkeypatch: pytest.MonkeyPatch, record: dict[str, Any], budget: float
) -> None:
    clock = FakeClock()
    started = costly(monkeypatch, clock)
    settings = AnalysisSettings(rollouts=64, policy="random", budget=budget)
    progress = _Progress()
    begin = clock.now
    result = asyncio.run(run_job(record, settings, in_process(clock), progress, clock))
    assert clock.now <= begin + budget + max(ROLLOUT_S, BELIEF_S), "overrun by one rollout or belief at most"
    assert all(t < begin + budget * (1 - work.DEDUCTION_SHARE) for t in started["rollout"])
    assert all(t < begin + budget for t in started["belief"])
    assert started["belief"], "the deduction got its share"
    assert min(started["belief"]) >= max(started["rollout"]), "the decisions first"
    deduced = result["deduction"]
    assert deduced["complete"] is False and deduced["unanalysed"] > 0
    assert deduced["unanalysed"] == sum(deduced["unanalysed_by_seat"].values())
    entries = sum(len(e) for e in deduced["seats"].values())
    assert entries == len(started["belief"])
    assert result["analysis"]["complete"] is False, "64 rollouts a decision do not fit"


def test_without_a_budget_the_deduction_is_whole(monkeypatch: pytest.MonkeyPatch, record: dict[str, Any]) -> None:
    clock = FakeClock()
    costly(monkeypatch, clock)
    settings = AnalysisSettings(rollouts=1, policy="random")
    result = asyncio.run(run_job(record, settings, in_process(clock), _Progress(), clock))
    deduced = result["deduction"]
    assert deduced["complete"] is True and deduced["unanalysed"] == 0
    decided = work.decision_steps(record)
    for seat, steps in decided.items():
        wanted = work.belief_steps(steps, len(record["actions"]))
        assert [e["step"] for e in deduced["seats"][str(seat)]] == wanted


def test_a_seat_piece_reports_progress_after_its_decisions() -> None:
    game = make("shadowlord", players=2)
    record: dict[str, Any] = play_game(game, [make_bot("random"), make_bot("random")], 11, max_steps=40).to_json()
    shares: list[float] = []
    analysis = work.analyse_seat(record, AnalysisSettings(rollouts=1, policy="random"), 0, None, shares.append)
    assert len(analysis.decisions) > 5, "seat 0 had choices"
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert len([s for s in shares if 0.0 < s < 1.0]) == len(analysis.decisions) - 1, "after each decision"
    beliefs: list[float] = []
    steps = work.belief_steps(work.decision_steps(record)[0], len(record["actions"]))
    work.deduce_seat(record, 0, steps, None, beliefs.append)
    assert beliefs == [(n + 1) / len(steps) for n in range(len(steps))]


def test_a_pieces_progress_is_sent_at_most_once_per_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, float]] = []

    class Pipe:
        def send(self, message: tuple[str, float]) -> None:
            sent.append(message)

    now = [0.0]
    monkeypatch.setattr(work, "_messages", Pipe())
    monkeypatch.setattr(work, "perf_counter", lambda: now[0])
    report = work.PipeProgress("job:1", every_s=1.0)
    for n in range(30):
        now[0] = n * 0.25
        report(n / 30)
    assert sent == [("job:1", n / 30) for n in range(0, 30, 4)]


def test_the_seats_people_played_get_the_time_first(monkeypatch: pytest.MonkeyPatch, record: dict[str, Any]) -> None:
    """Seat 1 played by a person, seat 0 by a bot: seat 1's piece runs first and may take all of the
    decisions' time; the bot's seat gets what it leaves (here nothing), and then the deductions
    go the same way."""
    settings = AnalysisSettings(rollouts=64, policy="random", budget=20.0)
    analysed: dict[str, dict[int, int]] = {}
    for label, people in (("alike", None), ("person", frozenset({1}))):
        clock = FakeClock()
        costly(monkeypatch, clock)
        result = asyncio.run(run_job(record, settings, in_process(clock), _Progress(), clock, people))
        analysed[label] = {s["seat"]: s["decisions"] for s in result["analysis"]["seats"]}
        if people:
            assert result["deduction"]["unanalysed_by_seat"]["1"] <= result["deduction"]["unanalysed_by_seat"]["0"]
    assert analysed["person"][1] > analysed["alike"][1], "the person's seat had more of the time"
    assert analysed["person"][0] == 0 < analysed["alike"][0], "the bot's seat got only what was left: nothing"


def test_pieces_share_the_time_within_their_group() -> None:
    from shadowtable.server.analysis_jobs import people_first, sharing

    seats = people_first([0, 1, 2, 3], frozenset({2}))
    assert seats == [2, 0, 1, 3]
    assert [sharing(seats, n, frozenset({2})) for n in range(4)] == [1, 3, 2, 1]
    assert [sharing([0, 1, 2], n, None) for n in range(3)] == [3, 2, 1]
    assert [sharing([0, 1], n, frozenset({0, 1})) for n in range(2)] == [2, 1]
