"""The kernel's optional hooks: interjections, seats that are out, ``after_apply``, decisions that
are never empty and chance nodes that prepare themselves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from shadowtable.core import IllegalActionError
from shadowtable.core.kernel import Automatic, Chance, Decision, Interjections, Kernel, Rulebook, Task, always

NOTE = 10
"""An interjection: write a note without answering the pending decision."""


@dataclass(frozen=True, slots=True)
class Ask(Task):
    seat: int


@dataclass(frozen=True, slots=True)
class Roll(Task):
    pass


@dataclass(frozen=True, slots=True)
class Finish(Task):
    pass


@dataclass
class Toy:
    stack: list[Task]
    answers: list[tuple[int, int]] = field(default_factory=list)
    notes: list[int] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)
    dice: int = 0
    steps: int = 0
    prepared: int = 0
    listed: int = 0
    over: bool = False
    legal: list[int] | None = None

    def copy(self) -> Toy:
        return Toy(
            self.stack[:],
            self.answers[:],
            self.notes[:],
            self.out[:],
            self.rolls[:],
            self.dice,
            self.steps,
            self.prepared,
            self.listed,
            self.over,
        )


def ask_legal(ctx: None, s: Toy, task: Ask) -> list[int]:
    s.listed += 1
    return [0, 1]


def answer(ctx: None, s: Toy, task: Ask, action: int) -> None:
    s.answers.append((task.seat, action))


def roll_outcomes(ctx: None, s: Toy, task: Roll) -> list[tuple[int, float]]:
    return [(k, 1 / s.dice) for k in range(s.dice)]


def prepare_roll(ctx: None, s: Toy, task: Roll) -> None:
    s.prepared += 1
    if s.dice == 0 and s.notes:
        s.dice = 2  # a die appears once somebody wrote a note


def finish(ctx: None, s: Toy, task: Finish) -> None:
    s.over = True


def note_legal(ctx: None, s: Toy, task: Ask) -> list[int]:
    return [NOTE] if task.seat == 0 else []


def note(ctx: None, s: Toy, task: Ask, action: int) -> bool:
    if action != NOTE:
        return False
    s.notes.append(task.seat)
    return True


def count_step(ctx: None, s: Toy) -> None:
    s.steps += 1


def kernel(*, ready: Callable[[None, Toy, Ask], bool] | None = None) -> Kernel[None, Toy]:
    rulebook = Rulebook(
        {
            Ask: Decision(lambda t: t.seat, ask_legal, answer, "Answer yes or no", ready=ready),
            Roll: Chance(roll_outcomes, lambda ctx, s, t, o: s.rolls.append(o), prepare=prepare_roll),
            Finish: Automatic(finish),
        }
    )
    return Kernel(
        rulebook,
        is_over=lambda s: s.over,
        interjections=Interjections(note_legal, note),
        seat_out=lambda s, seat: seat in s.out,
        after_apply=count_step,
    )


def test_interjections_join_the_legal_actions_and_leave_the_decision_pending() -> None:
    k = kernel()
    s = Toy([Finish(), Ask(1), Ask(0)])
    k.advance(None, s)
    assert k.legal_actions(None, s) == [0, 1, NOTE]
    after = k.apply(None, s, NOTE)
    assert after.notes == [0] and after.stack[-1] == Ask(0) and after.steps == 1
    assert s.notes == [] and s.steps == 0  # the caller's state is untouched
    after = k.apply(None, after, 1)
    assert after.answers == [(0, 1)] and k.legal_actions(None, after) == [0, 1]  # seat 1: no notes
    with pytest.raises(IllegalActionError):
        k.apply(None, after, NOTE)


def test_decisions_of_seats_that_are_out_are_skipped() -> None:
    k = kernel()
    s = Toy([Finish(), Ask(1), Ask(0)], out=[0])
    k.advance(None, s)
    assert k.current_player(s) == 1


def test_decisions_that_are_always_ready_are_not_listed_to_be_kept() -> None:
    s = Toy([Finish(), Ask(0)])
    kernel().advance(None, s)
    assert s.listed == 1
    s = Toy([Finish(), Ask(0)])
    kernel(ready=always).advance(None, s)
    assert s.listed == 0 and s.stack[-1] == Ask(0)


def test_chance_nodes_prepare_before_their_outcomes_are_listed() -> None:
    k = kernel()
    s = Toy([Finish(), Roll(), Ask(0)])
    k.advance(None, s)
    skipped = k.apply(None, s, 0)  # no note: no die, the roll is skipped
    assert skipped.prepared == 1 and skipped.rolls == [] and k.current_player(skipped) is None
    noted = k.apply(None, k.apply(None, s, NOTE), 1)
    assert noted.prepared == 1 and k.chance_outcomes(None, noted) == [(0, 0.5), (1, 0.5)]
    assert k.apply(None, noted, 1).rolls == [1]


def test_apply_caches_the_new_states_listing_once() -> None:
    k = kernel()
    s = Toy([Finish(), Ask(1), Ask(0)])
    k.prepare(None, s)
    assert s.legal == [0, 1, NOTE] and s.listed == 1
    new = k.apply(None, s, 0)
    assert new.listed == 2  # the listing advance made (to know Ask(1) is not empty) is reused
    assert new.legal == k.legal_actions(None, new) == k.list_legal(None, new) == [0, 1]
    assert new.listed == 3  # only list_legal listed again
    assert s.legal == [0, 1, NOTE], "the caller's state keeps its own listing"
    listing = k.legal_actions(None, new)
    listing.append(99)
    assert new.legal == [0, 1], "a caller's list is a copy"
    noted = k.apply(None, Toy([Finish(), Ask(0)]), NOTE)
    assert noted.legal == [0, 1, NOTE] and noted.notes == [0]
