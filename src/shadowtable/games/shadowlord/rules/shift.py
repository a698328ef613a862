"""Shifting Space Ships between rings of one colour in one galaxy: redistributing before a
Battle, and rearranging ships between shadows that meet (Step 5).  Each shift is two small
decisions (from which ring, to which ring); ``budget`` bounds the shifts."""

from __future__ import annotations

from shadowtable.core.kernel import Decision, Handler, Task
from shadowtable.games.shadowlord.actions import DONE, FIGURE0
from shadowtable.games.shadowlord.board import figs_at, room
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import ShiftFrom, ShiftTo, decider

SHIFT_BUDGET = 6


def rings(s: State, g: int, colour: int) -> list[int]:
    return [f for f in figs_at(s, g) if s.owner[f] == colour]


def can_shift(ctx: Context, s: State, g: int, colour: int) -> bool:
    here = rings(s, g, colour)
    return any(s.ships[f] for f in here) and sum(1 for f in here if room(ctx, s, f) > 0) >= 1 and len(here) >= 2


def offer_shift(ctx: Context, s: State, seat: int, g: int, colour: int) -> None:
    """Let ``seat`` shift ships among ``colour``'s rings in ``g`` (if there is anything to shift)."""
    if seat >= 0 and can_shift(ctx, s, g, colour):
        s.stack.append(ShiftFrom(seat, g, colour, SHIFT_BUDGET))


def shift_from_legal(ctx: Context, s: State, task: ShiftFrom) -> list[int]:
    here = rings(s, task.galaxy, task.colour)
    sources = [f for f in here if s.ships[f] and any(t != f and room(ctx, s, t) > 0 for t in here)]
    return [DONE, *(FIGURE0 + f for f in sources)]


def shift_from(ctx: Context, s: State, task: ShiftFrom, action: int) -> None:
    """Choose the ring giving a Space Ship (``done``: no more shifting)."""
    if action == DONE:
        return
    s.stack.append(ShiftTo(task.seat, task.galaxy, task.colour, task.budget, action - FIGURE0))


def shift_to_legal(ctx: Context, s: State, task: ShiftTo) -> list[int]:
    src = task.source
    return [FIGURE0 + t for t in rings(s, task.galaxy, task.colour) if t != src and room(ctx, s, t) > 0]


def shift_to(ctx: Context, s: State, task: ShiftTo, action: int) -> None:
    """Move the Space Ship into the chosen ring."""
    src = task.source
    if s.ships[src]:
        s.ships[src] -= 1
        s.ships[action - FIGURE0] += 1
    if task.budget > 1:
        s.stack.append(ShiftFrom(task.seat, task.galaxy, task.colour, task.budget - 1))


RULES: dict[type[Task], Handler] = {
    ShiftFrom: Decision(
        decider,
        shift_from_legal,
        shift_from,
        "Shift Space Ships between your rings here: choose the ring that gives one, or stop shifting",
        rule="shift",
        shown=("galaxy", "colour", "budget"),
    ),
    ShiftTo: Decision(
        decider,
        shift_to_legal,
        shift_to,
        "Shift a Space Ship: choose the ring that takes it",
        rule="shift",
        shown=("galaxy", "colour", "budget", "source"),
    ),
}
"""The rules of shifting Space Ships, by task type (gathered into ``RULEBOOK``)."""
