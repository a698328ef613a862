"""The bridge from the engine's modes to the kernel (removed with the last slice of the port).

The old engine kept its pending work in ``state.mode`` and dispatched on it.  Each mode not yet
ported runs as a ``Legacy*`` task: its handler runs the old procedure and :func:`resume` pushes
the task for the mode it leads to.  A procedure that needs an unknown top card sets
``state.fill``: :func:`resume` pushes the procedure again under a ``RevealTop`` chance node.
"""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import cards_in, hand, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import sections, turn
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    ChooseIdentity,
    ChooseProtagonist,
    DealObjective,
    DiscardMessage,
    DraftPick,
    DrawDraftCard,
    EndRound,
    LegacyAuto,
    LegacyDecision,
    MatchIdentities,
    RemoveObjective,
    RevealDraft,
    RevealMessages,
    RevealTop,
    ShuffleMessages,
    StartMessages,
    StartRound,
)

AUTO: dict[int, Callable[[Context, State], None]] = {
    M.TURN_START: turn.turn_start,
    M.ABILITY_NEXT: turn.ability_next,
    M.UNC_DISCARD: turn.unc_discard,
    M.MOVE_END: turn.move_end,
    M.SEARCH_LOOK: turn.search_look,
    M.GET_MANDATORY: turn.get_mandatory,
    M.GET_DRAWS: turn.get_draws,
    M.SECTION_END: sections.section_end,
    M.EFFECT_NEXT: sections.effect_next,
    M.ACCOM_LOOK: sections.accom_look,
    M.GRAVE_DRAW: sections.grave_draw,
    M.TURN_END: turn.turn_end,
}

STEP_TYPE = {M.STEP_MOVE: 0, M.STEP_SEARCH: 1, M.STEP_GET: 2, M.STEP_REPAIR: 3, M.STEP_ATTACK: 4}
STEP_NEXT = {M.STEP_MOVE: M.MOVE_END, M.STEP_SEARCH: M.SEARCH_LOOK, M.STEP_GET: M.GET_DRAWS,
             M.STEP_REPAIR: M.STEP_ATTACK, M.STEP_ATTACK: M.SECTION_END}  # fmt: skip


PORTED = {
    M.SETUP_REMOVE: RemoveObjective,
    M.SETUP_DEAL: DealObjective,
    M.SETUP_PROTAG: ChooseProtagonist,
    M.ROUND_START: StartRound,
    M.DRAFT_RANDOM: DrawDraftCard,
    M.DRAFT_PICK: DraftPick,
    M.DRAFT_REVEAL: RevealDraft,
    M.MSG_START: StartMessages,
    M.MSG_DISCARD: DiscardMessage,
    M.MSG_REVEAL: RevealMessages,
    M.MSG_APPLY: EndRound,
    M.END_GAME: MatchIdentities,
    M.IDENTITY: ChooseIdentity,
}
"""Modes now handled by tasks: an old procedure that leads to one returns to the stack."""
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
    """The seat deciding in mode ``s.mode``."""
    mode = s.mode
    if mode == M.RIDE_ASK:
        return s.controller[s.ask[0]]
    if mode == M.SCRAP_TAKE:
        return s.target
    return s.controller[s.active]


# -- handlers of the bridge tasks -------------------------------------------------------------
def legacy_run(r: Context, s: State, task: LegacyAuto) -> None:
    s.mode = task.mode
    AUTO[task.mode](r, s)
    resume(s)


def legacy_legal(r: Context, s: State, task: LegacyDecision) -> list[int]:
    return legal_actions(r, s)


def legacy_decide(r: Context, s: State, task: LegacyDecision, action: int) -> None:
    apply_decision(r, s, action)
    resume(s)


def legal_actions(r: Context, s: State) -> list[int]:
    """Sorted legal decision ids of the old decision mode ``s.mode``."""
    mode = s.mode
    if mode in STEP_TYPE:
        out = [A.PLAY + c for c in turn.playable(r, s, STEP_TYPE[mode])]
        if mode == M.STEP_MOVE:
            out.extend(A.DRIVE + v * 4 + d for v, d in turn.drive_options(r, s))
        out.append(A.DONE)
        return sorted(out)
    fn = LEGAL.get(mode)
    return fn(r, s) if fn is not None else []


def _others(s: State, seat: int) -> list[int]:
    return [A.SEAT + x for x in range(s.n) if x != seat]


def _colours(s: State) -> list[int]:
    return [A.COLOUR + col for col in range(5) if s.pool[col] > 0]


def _walk(r: Context, s: State) -> list[int]:
    opts = turn.walk_options(r, s)
    return sorted([A.GOTO + x if kind == "goto" else A.ENTER + x for kind, x in opts] + [A.DONE])


LEGAL: dict[int, Callable[[Context, State], list[int]]] = {
    M.ABILITY_CANCEL: lambda r, s: [A.CANCEL + c for c in range(6) if c != s.active],
    M.GIVE_SEAT: lambda r, s: _others(s, s.controller[s.active]),
    M.HIBER_SEAT: lambda r, s: _others(s, s.controller[s.active]),
    M.GIVE_COLOUR: lambda r, s: _colours(s),
    M.HIBER_COLOUR: lambda r, s: _colours(s),
    M.REED_FREE: lambda r, s: [A.USE, A.SKIP],
    M.RIDE_ASK: lambda r, s: [A.RIDE, A.STAY],
    M.MOVE_POINTS: _walk,
    M.DRIVE_FALLBACK: lambda r, s: sorted([A.GOTO + d for d in turn.fallback_destinations(r, s)] + [A.DONE]),
    M.REORDER: lambda r, s: sorted(A.PLACE + c for c in s.look if c not in s.placed),
    M.SCRAP_TARGET: lambda r, s: [A.SEAT + x for x in turn.swap_targets(s)],
    M.SCRAP_GIVE: lambda r, s: [A.CHOOSE + c for c in hand(s, s.active)],
    M.SCRAP_TAKE: lambda r, s: [A.CHOOSE + c for c in hand(s, s.seat_char[s.target])],
    M.SECTION_CHOICE: lambda r, s: [A.RESOLVE + i for i in sections.payable(r, s)] + [A.LEAVE],
    M.ACCOM_REMOVE: lambda r, s: sorted(A.CHOOSE + c for c in s.look),
    M.BRIDGE_TAKE: lambda r, s: sorted(A.CHOOSE + c for c in s.look),
    M.BRIDGE_GIVE: lambda r, s: [A.CHOOSE + c for c in hand(s, s.active)],
    M.DECOMP: lambda r, s: [A.ADVANCE, A.MOVE_BACK],
    M.GRAVE_DECK: lambda r, s: [A.DECK + d for d in range(4) if zone_size(s, d) > 0],
    M.TEMPLE_PICK: lambda r, s: [A.CHOOSE + c for c in cards_in(s, M.MSG)],
    M.REVEAL_PICK: lambda r, s: [A.CHOOSE + c for c in sections.reveal_choices(r, s)],
}


def apply_decision(r: Context, s: State, action: int) -> None:
    """Apply a legal decision of the old mode ``s.mode`` to ``s`` (a copy)."""
    mode = s.mode
    if mode in STEP_TYPE:
        if action == A.DONE:
            s.mode = STEP_NEXT[mode]
        elif action >= A.DRIVE:
            turn.declare_drive(r, s, (action - A.DRIVE) // 4, (action - A.DRIVE) % 4)
            if s.ask:
                s.mode = M.RIDE_ASK
        else:
            turn.play_card(r, s, action - A.PLAY)
    else:
        DECIDE[mode](r, s, action)


def _cancel(r: Context, s: State, a: int) -> None:
    s.cancelled = a - A.CANCEL
    s.mode = M.ABILITY_NEXT


def _seat(back: int) -> Callable[[Context, State, int], None]:
    def choose(r: Context, s: State, a: int) -> None:
        s.target = a - A.SEAT
        s.mode = back

    return choose


def _colour(back: int) -> Callable[[Context, State, int], None]:
    def choose(r: Context, s: State, a: int) -> None:
        sections.give_colour(s, a - A.COLOUR, back)

    return choose


def _reed(r: Context, s: State, a: int) -> None:
    if a == A.USE:
        s.char_loc[s.active] = r.c.section_location[s.target]
        s.char_section[s.active] = s.target
    s.target = -1
    s.mode = M.ABILITY_NEXT


def _ride(r: Context, s: State, a: int) -> None:
    turn.answer_ride(r, s, a == A.RIDE)
    if not s.ask:
        s.mode = M.STEP_MOVE


def _walk_decide(r: Context, s: State, a: int) -> None:
    if a == A.DONE:
        turn.begin_search(s)
    elif a >= A.ENTER:
        turn.enter(r, s, a - A.ENTER)
    else:
        turn.walk(r, s, a - A.GOTO)


def _fallback(r: Context, s: State, a: int) -> None:
    if a != A.DONE:
        turn.drive_to(s, a - A.GOTO)
    turn.begin_search(s)


def _scrap_give(r: Context, s: State, a: int) -> None:
    s.chosen = a - A.CHOOSE
    s.mode = M.SCRAP_TAKE


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


def _scrap_seat(r: Context, s: State, a: int) -> None:
    s.target = a - A.SEAT
    s.mode = M.SCRAP_GIVE


def _give_seat(r: Context, s: State, a: int) -> None:
    s.target = a - A.SEAT
    s.mode = M.GIVE_COLOUR


DECIDE: dict[int, Callable[[Context, State, int], None]] = {
    M.ABILITY_CANCEL: _cancel,
    M.GIVE_SEAT: _give_seat,
    M.GIVE_COLOUR: _colour(M.ABILITY_NEXT),
    M.HIBER_SEAT: _seat(M.HIBER_COLOUR),
    M.HIBER_COLOUR: _colour(M.EFFECT_NEXT),
    M.REED_FREE: _reed,
    M.RIDE_ASK: _ride,
    M.MOVE_POINTS: _walk_decide,
    M.DRIVE_FALLBACK: _fallback,
    M.REORDER: lambda r, s, a: turn.place(s, a - A.PLACE),
    M.SCRAP_TARGET: _scrap_seat,
    M.SCRAP_GIVE: _scrap_give,
    M.SCRAP_TAKE: lambda r, s, a: turn.scrap_swap(s, a - A.CHOOSE),
    M.SECTION_CHOICE: _section,
    M.ACCOM_REMOVE: lambda r, s, a: sections.accom_remove(s, a - A.CHOOSE),
    M.BRIDGE_TAKE: _bridge_take,
    M.BRIDGE_GIVE: lambda r, s, a: sections.bridge_swap(r, s, a - A.CHOOSE),
    M.DECOMP: lambda r, s, a: sections.decomp(r, s, a == A.ADVANCE),
    M.GRAVE_DECK: _deck,
    M.TEMPLE_PICK: lambda r, s, a: sections.temple_pick(s, a - A.CHOOSE),
    M.REVEAL_PICK: lambda r, s, a: sections.reveal_card(r, s, a - A.CHOOSE),
}
