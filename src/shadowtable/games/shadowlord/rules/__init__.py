"""The rules of Shadowlord!, one concept per module, and the one table that ties every task to
its rule: :data:`RULEBOOK`.  :func:`make_kernel` builds the engine loop on it, with the
game's interjections (free actions, offers, revocations), the skipping of decisions of seats
out of the game, what every seat reads of each decision and the per-turn step limit."""

from __future__ import annotations

from shadowtable.core.kernel import Handler, Interjections, Kernel, Rulebook, Task
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import (
    announcement,
    battle,
    cards,
    duel,
    events,
    interjections,
    movement,
    negotiation,
    recruit,
    shift,
    turn,
    voting,
)
from shadowtable.games.shadowlord.state import State


def gathered(*tables: dict[type[Task], Handler]) -> dict[type[Task], Handler]:
    """The rules modules' tables as one (a task type declared twice is an error)."""
    out: dict[type[Task], Handler] = {}
    for table in tables:
        for task_type, handler in table.items():
            if task_type in out:
                raise ValueError(f"two rules for {task_type.__name__}")
            out[task_type] = handler
    return out


RULEBOOK = Rulebook(
    gathered(
        turn.RULES,
        cards.RULES,
        events.RULES,
        voting.RULES,
        recruit.RULES,
        shift.RULES,
        movement.RULES,
        battle.RULES,
        duel.RULES,
        negotiation.RULES,
    )
)
"""Every task type and the rule that handles it."""

INTERJECTIONS: Interjections[Context, State] = Interjections(
    interjections.legal_interjections, interjections.apply_interjection
)


def is_over(s: State) -> bool:
    return bool(s.end)


def seat_out(s: State, seat: int) -> bool:
    """A seat whose every Alliance has left the game decides nothing more."""
    return bool(s.seat_out[seat])


def make_kernel(rulebook: Rulebook = RULEBOOK) -> Kernel[Context, State]:
    """The engine loop of Shadowlord! on ``rulebook`` (tests extend :data:`RULEBOOK`)."""
    return Kernel(
        rulebook,
        is_over,
        interjections=INTERJECTIONS,
        seat_out=seat_out,
        before_apply=announcement.announce,
        after_apply=turn.count_step,
    )


KERNEL = make_kernel()
