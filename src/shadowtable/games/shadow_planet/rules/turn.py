"""The Operations phase's turns: Characters act in Initiative order (RB "2. Operations Phase").

A controlled Character resolves its ability, then the five Action steps, then its Section's
effect; an uncontrolled one applies its automatic ability and discards the top card of its
Location deck.  Turn facts every step reads stay on the state: ``forbid`` and ``excl`` (types
closed this turn) and ``bonus`` (the Search bonus of abilities).
"""

from __future__ import annotations

from functools import cache

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet.board import move_openly, move_secretly, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.abilities import auto_ability
from shadowtable.games.shadow_planet.rules.decks import top_known
from shadowtable.games.shadow_planet.rules.messages import face_up_to_messages
from shadowtable.games.shadow_planet.state import DISCARD, MSG, PLAYED0, State
from shadowtable.games.shadow_planet.tasks import (
    AbilityNext,
    EndTurn,
    GetMandatory,
    SectionEnd,
    StartTurn,
    StepAttack,
    StepGet,
    StepMove,
    StepRepair,
    StepSearch,
    UncontrolledDiscard,
)


def controller_seat(s: State) -> int:
    """Seat controlling the active Character."""
    return s.controller[s.active]


def reset_turn(s: State) -> None:
    """A new turn: no type is closed or forbidden, no Search bonus yet."""
    s.forbid, s.excl, s.bonus = 0, 0, 0


def start_turn(ctx: Context, s: State, task: StartTurn) -> None:
    """Begin the next Character's turn (after the sixth, the Messages phase below goes on)."""
    reset_turn(s)
    ch = s.active
    if ch >= 6:
        return
    seat = s.controller[ch]
    if seat < 0:
        if ch != s.cancelled:
            for effect in ctx.c.char_uncontrolled[ch]:
                auto_ability(s, ch, effect)
        s.stack.append(UncontrolledDiscard())
        return
    s.stack += _turn_tasks(seat)


def uncontrolled_discard(ctx: Context, s: State, task: UncontrolledDiscard) -> None:
    """An uncontrolled Character discards the top card of its Location deck face up."""
    deck = s.char_loc[s.active]
    if zone_size(s, deck) > 0:
        if not top_known(s, deck, 1, task):
            return
        move_openly(s, s.top[deck][0], DISCARD)
    s.active += 1
    s.stack.append(START_TURN)


def end_turn(ctx: Context, s: State, task: EndTurn) -> None:
    """End-of-turn card effects (Crying), expulsion, and the next Character."""
    ch = s.active
    for card in ctx.eot_cards:
        if s.where[card] == PLAYED0 + ch:
            if ctx.eot[card]:
                face_up_to_messages(s, card)
            else:
                move_secretly(s, card, MSG, controller_seat(s))
    s.char_section[ch] = -1
    s.active += 1
    s.stack.append(START_TURN)


START_TURN = StartTurn()


@cache
def _turn_tasks(seat: int) -> tuple[Task, ...]:
    """A controlled turn's work, bottom of the stack first (tasks are values: built once)."""
    return (
        EndTurn(),
        SectionEnd(),
        StepAttack(seat),
        StepRepair(seat),
        StepGet(seat),
        GetMandatory(),
        StepSearch(seat),
        StepMove(seat),
        AbilityNext(0),
    )
