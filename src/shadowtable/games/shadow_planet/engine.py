"""The bridge from the engine's modes to the kernel (removed with the last slice of the port).

The old engine kept its pending work in ``state.mode`` and dispatched on it.  Each mode not yet
ported (the Section effects) runs as a ``Legacy*`` task: its handler runs the old procedure and
:func:`resume` pushes the task for the mode it leads to.  A procedure that needs an unknown top
card sets ``state.fill``: :func:`resume` pushes it again under a ``RevealTop`` chance node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import cards_in, hand, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import sections
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    AbilityNext,
    CancelAbility,
    ChooseIdentity,
    ChooseProtagonist,
    DealObjective,
    DiscardMessage,
    DraftPick,
    DrawDraftCard,
    DriveFallback,
    EndRound,
    EndTurn,
    FreeMove,
    GetDraws,
    GetMandatory,
    GiveColour,
    GiveSeat,
    LegacyAuto,
    LegacyDecision,
    MatchIdentities,
    MovePoints,
    RemoveObjective,
    Reorder,
    RevealDraft,
    RevealMessages,
    RevealTop,
    RideAsk,
    ScrapGive,
    ScrapTake,
    ScrapTarget,
    SearchLook,
    ShuffleMessages,
    StartMessages,
    StartRound,
    StartTurn,
    StepAttack,
    StepGet,
    StepMove,
    StepRepair,
    StepSearch,
    UncontrolledDiscard,
)

AUTO: dict[int, Callable[[Context, State], None]] = {
    M.SECTION_END: sections.section_end,
    M.EFFECT_NEXT: sections.effect_next,
    M.ACCOM_LOOK: sections.accom_look,
    M.GRAVE_DRAW: sections.grave_draw,
}

PORTED: dict[int, type[Task]] = {
    M.SETUP_REMOVE: RemoveObjective,
    M.SETUP_DEAL: DealObjective,
    M.SETUP_PROTAG: ChooseProtagonist,
    M.ROUND_START: StartRound,
    M.DRAFT_RANDOM: DrawDraftCard,
    M.DRAFT_PICK: DraftPick,
    M.DRAFT_REVEAL: RevealDraft,
    M.TURN_START: StartTurn,
    M.ABILITY_NEXT: AbilityNext,
    M.ABILITY_CANCEL: CancelAbility,
    M.GIVE_SEAT: GiveSeat,
    M.GIVE_COLOUR: GiveColour,
    M.REED_FREE: FreeMove,
    M.UNC_DISCARD: UncontrolledDiscard,
    M.STEP_MOVE: StepMove,
    M.RIDE_ASK: RideAsk,
    M.MOVE_POINTS: MovePoints,
    M.DRIVE_FALLBACK: DriveFallback,
    M.STEP_SEARCH: StepSearch,
    M.SEARCH_LOOK: SearchLook,
    M.REORDER: Reorder,
    M.GET_MANDATORY: GetMandatory,
    M.STEP_GET: StepGet,
    M.GET_DRAWS: GetDraws,
    M.STEP_REPAIR: StepRepair,
    M.SCRAP_TARGET: ScrapTarget,
    M.SCRAP_GIVE: ScrapGive,
    M.SCRAP_TAKE: ScrapTake,
    M.STEP_ATTACK: StepAttack,
    M.TURN_END: EndTurn,
    M.MSG_START: StartMessages,
    M.MSG_DISCARD: DiscardMessage,
    M.MSG_REVEAL: RevealMessages,
    M.MSG_APPLY: EndRound,
    M.END_GAME: MatchIdentities,
    M.IDENTITY: ChooseIdentity,
}
"""Modes now handled by tasks: an old procedure that leads to one goes on with the stack."""
MODE_OF: dict[type[Task], int] = {task_type: mode for mode, task_type in PORTED.items()}
MODE_OF[ShuffleMessages] = M.MSG_REVEAL


def mode_of(s: State) -> int:
    """The old engine mode of the pending work (for readers not yet moved to tasks)."""
    if not s.stack:
        return M.FINISHED
    top = s.stack[-1]
    if isinstance(top, RevealTop) and len(s.stack) > 1:
        top = s.stack[-2]
    if isinstance(top, LegacyAuto | LegacyDecision):
        return top.mode
    return MODE_OF.get(type(top), M.FINISHED)


def fill_of(s: State) -> int:
    """The deck whose next unknown card chance reveals now, or -1."""
    top = s.stack[-1] if s.stack else None
    return top.deck if isinstance(top, RevealTop) else -1


def resume(s: State) -> None:
    """After an old step: push the task that goes on from ``s.mode``; a mode now handled by
    tasks goes on with the work below on the stack."""
    mode = s.mode
    if s.fill >= 0:
        s.stack.append(LegacyAuto(mode))  # the procedure resumes once chance reveals the card
        s.stack.append(RevealTop(s.fill))
    elif mode in AUTO:
        s.stack.append(LegacyAuto(mode))
    elif mode not in PORTED and mode != M.FINISHED:
        s.stack.append(LegacyDecision(mode, legacy_seat(s)))


def legacy_seat(s: State) -> int:
    """The seat deciding in an old mode (every Section decision: the active Character's)."""
    return s.controller[s.active]


# -- handlers of the bridge tasks -------------------------------------------------------------
def legacy_run(r: Context, s: State, task: LegacyAuto) -> None:
    s.mode = task.mode
    AUTO[task.mode](r, s)
    resume(s)


def legacy_legal(r: Context, s: State, task: LegacyDecision) -> list[int]:
    return LEGAL[s.mode](r, s)


def legacy_decide(r: Context, s: State, task: LegacyDecision, action: int) -> None:
    DECIDE[s.mode](r, s, action)
    resume(s)


def _others(s: State, seat: int) -> list[int]:
    return [A.SEAT + x for x in range(s.n) if x != seat]


def _colours(s: State) -> list[int]:
    return [A.COLOUR + col for col in range(5) if s.pool[col] > 0]


LEGAL: dict[int, Callable[[Context, State], list[int]]] = {
    M.HIBER_SEAT: lambda r, s: _others(s, s.controller[s.active]),
    M.HIBER_COLOUR: lambda r, s: _colours(s),
    M.SECTION_CHOICE: lambda r, s: [A.RESOLVE + i for i in sections.payable(r, s)] + [A.LEAVE],
    M.ACCOM_REMOVE: lambda r, s: sorted(A.CHOOSE + c for c in s.look),
    M.BRIDGE_TAKE: lambda r, s: sorted(A.CHOOSE + c for c in s.look),
    M.BRIDGE_GIVE: lambda r, s: [A.CHOOSE + c for c in hand(s, s.active)],
    M.DECOMP: lambda r, s: [A.ADVANCE, A.MOVE_BACK],
    M.GRAVE_DECK: lambda r, s: [A.DECK + d for d in range(4) if zone_size(s, d) > 0],
    M.TEMPLE_PICK: lambda r, s: [A.CHOOSE + c for c in cards_in(s, M.MSG)],
    M.REVEAL_PICK: lambda r, s: [A.CHOOSE + c for c in sections.reveal_choices(r, s)],
}


def _seat(r: Context, s: State, a: int) -> None:
    s.target = a - A.SEAT
    s.mode = M.HIBER_COLOUR


def _section(r: Context, s: State, a: int) -> None:
    if a == A.LEAVE:
        sections.expel(s)
    else:
        sections.resolve(r, s, a - A.RESOLVE)


def _bridge_take(r: Context, s: State, a: int) -> None:
    s.chosen = a - A.CHOOSE
    s.mode = M.BRIDGE_GIVE


def _deck(r: Context, s: State, a: int) -> None:
    s.target = a - A.DECK
    s.mode = M.GRAVE_DRAW


DECIDE: dict[int, Callable[[Context, State, int], None]] = {
    M.HIBER_SEAT: _seat,
    M.HIBER_COLOUR: lambda r, s, a: sections.give_colour(s, a - A.COLOUR, M.EFFECT_NEXT),
    M.SECTION_CHOICE: _section,
    M.ACCOM_REMOVE: lambda r, s, a: sections.accom_remove(s, a - A.CHOOSE),
    M.BRIDGE_TAKE: _bridge_take,
    M.BRIDGE_GIVE: lambda r, s, a: sections.bridge_swap(r, s, a - A.CHOOSE),
    M.DECOMP: lambda r, s, a: sections.decomp(r, s, a == A.ADVANCE),
    M.GRAVE_DECK: _deck,
    M.TEMPLE_PICK: lambda r, s, a: sections.temple_pick(s, a - A.CHOOSE),
    M.REVEAL_PICK: lambda r, s, a: sections.reveal_card(r, s, a - A.CHOOSE),
}


def turn_fields(s: State) -> dict[str, Any]:
    """The old per-turn state fields as the pending tasks now hold them (observation readers not
    yet moved to ``pending``): only the fields the top task (and a drive below it) knows."""
    if not s.stack:
        return {}
    top = s.stack[-1]
    below = s.stack[-2] if len(s.stack) > 1 else None
    out: dict[str, Any] = {}
    move = top if isinstance(top, StepMove) else below if isinstance(top, RideAsk) else None
    if isinstance(move, StepMove):
        out.update(move_total=move.total, move_cards=move.cards, drive=move.drive, dest=move.dest)
        out["passengers"] = list(move.passengers)
    if isinstance(top, RideAsk):
        out["ask"] = [top.rider, *top.waiting]
    elif isinstance(top, MovePoints | StepSearch):
        out["points"] = top.points
    elif isinstance(top, DriveFallback):
        out.update(points=top.points, drive=top.drive, passengers=list(top.passengers))
    elif isinstance(top, StepGet):
        out["draws"] = top.draws
    elif isinstance(top, GiveSeat):
        out["count"] = top.count
    elif isinstance(top, GiveColour):
        out.update(target=top.target, count=top.count)
    elif isinstance(top, FreeMove):
        out["target"] = top.section
    elif isinstance(top, ScrapGive):
        out["target"] = top.target
    elif isinstance(top, ScrapTake):
        out.update(target=top.seat, chosen=top.given)
    elif isinstance(top, Reorder):
        look = s.top[top.deck][: top.size]
        out.update(look=look, placed=look[: top.placed])
    return out
