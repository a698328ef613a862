"""The budget is a hard bound: no rollout starts once it is spent, and what it left is counted."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.analysis.helpers import FAST, tiny_record

from shadowtable.analysis import MIN_LABEL_SAMPLES, analyse_record, decision_points, estimate
from shadowtable.core.record import GameRecord


class FakeClock:
    """A clock that moves only when a rollout runs: each rollout takes ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        return self.now


def counted_rollouts(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> list[float]:
    """Patch the rollout so each one records the time it starts and advances ``clock``."""
    started: list[float] = []
    real = estimate.rollout_value

    def rollout(*args: Any) -> float:
        started.append(clock.now)
        clock.now += clock.step
        return real(*args)

    monkeypatch.setattr(estimate, "rollout_value", rollout)
    return started


def choices(record: GameRecord) -> int:
    """The record's decisions with more than one legal choice."""
    from shadowtable.core.record import game_for_record

    game = game_for_record(record)
    return sum(len(game.legal_actions(p.state)) > 1 for p in decision_points(record))


RECORD = tiny_record([3, 1, 4], [1, 0, 1, 0, 0, 1])


@pytest.mark.parametrize("budget", [0.5, 3.0, 7.0, 20.0, 55.0])
def test_no_rollout_starts_after_the_budget_and_the_unanalysed_are_counted(
    monkeypatch: pytest.MonkeyPatch, budget: float
) -> None:
    clock = FakeClock(step=1.0)
    started = counted_rollouts(monkeypatch, clock)
    analysis = analyse_record(RECORD, replace(FAST, rollouts=8, budget=budget), clock=clock)
    assert started, "the budget lets the first rollout start"
    assert sum(t >= budget for t in started) == 0
    total = choices(RECORD)
    assert analysis.unanalysed == total - len(analysis.decisions)
    assert sum(s.unanalysed for s in analysis.seats) == analysis.unanalysed
    # Each decision's rollouts: two alternatives per complete sample, at most one dropped sample's worth.
    assert sum(2 * d.samples for d in analysis.decisions) <= len(started)
    assert analysis.complete == (analysis.unanalysed == 0 and not any(d.cut_short for d in analysis.decisions))


def test_a_tiny_budget_leaves_decisions_unanalysed_and_unlabelled(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock(step=1.0)
    started = counted_rollouts(monkeypatch, clock)
    # Two choices a decision, 1 s a rollout, a 5 s budget shared by the decisions left: the first
    # two get one sample each (their share is spent after it), the third's sample is dropped
    # after one rollout, and the rest are never reached.
    analysis = analyse_record(RECORD, replace(FAST, rollouts=8, budget=5.0), clock=clock)
    assert started == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert [d.samples for d in analysis.decisions] == [1, 1]
    assert all(d.cut_short and d.label is None and d.noise is None for d in analysis.decisions)
    assert analysis.unanalysed == choices(RECORD) - 2 == 4 and not analysis.complete
    assert all(alt.samples == 1 for d in analysis.decisions for alt in d.alternatives)


def test_a_budget_large_enough_completes_every_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock(step=0.01)
    counted_rollouts(monkeypatch, clock)
    analysis = analyse_record(RECORD, replace(FAST, rollouts=MIN_LABEL_SAMPLES, budget=1000.0), clock=clock)
    assert analysis.complete and analysis.unanalysed == 0
    assert all(d.samples == MIN_LABEL_SAMPLES and not d.cut_short for d in analysis.decisions)
    unbounded = analyse_record(RECORD, replace(FAST, rollouts=MIN_LABEL_SAMPLES, budget=None))
    assert analysis.decisions == unbounded.decisions and analysis.seats == unbounded.seats
