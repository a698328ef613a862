"""The engine loop: who acts, legal actions, applying decisions and chance outcomes.

``advance`` runs automatic steps until a decision or a chance node is reached.  A procedure
that needs an unknown top card sets ``state.fill``; the chance outcome (a card id) becomes the
next known top card and the same procedure resumes.
"""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.core.game import CHANCE, TERMINAL
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import cards_in, deck_rest, hand, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import phases, sections, turn
from shadowtable.games.shadow_planet.rules.endgame import (
    choose_identity,
    identity_choices,
    identity_seat,
    match_identities,
)
from shadowtable.games.shadow_planet.state import State

AUTO: dict[int, Callable[[Context, State], None]] = {
    M.ROUND_START: phases.round_start,
    M.DRAFT_REVEAL: phases.draft_reveal,
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
    M.MSG_START: phases.msg_start,
    M.MSG_REVEAL: phases.msg_reveal,
    M.MSG_APPLY: phases.msg_apply,
    M.END_GAME: match_identities,
}

CHANCE_MODES = frozenset({M.SETUP_REMOVE, M.SETUP_DEAL, M.SETUP_PROTAG, M.DRAFT_RANDOM})
STEP_TYPE = {M.STEP_MOVE: 0, M.STEP_SEARCH: 1, M.STEP_GET: 2, M.STEP_REPAIR: 3, M.STEP_ATTACK: 4}
STEP_NEXT = {M.STEP_MOVE: M.MOVE_END, M.STEP_SEARCH: M.SEARCH_LOOK, M.STEP_GET: M.GET_DRAWS,
             M.STEP_REPAIR: M.STEP_ATTACK, M.STEP_ATTACK: M.SECTION_END}  # fmt: skip


def advance(r: Context, s: State) -> None:
    """Run automatic procedures until a decision, a chance node or the end."""
    auto = AUTO
    while s.fill < 0:
        step = auto.get(s.mode)
        if step is None:
            return
        step(r, s)


def current_player(s: State) -> int:
    """Seat to act, CHANCE or TERMINAL."""
    mode = s.mode
    if s.fill >= 0 or mode in CHANCE_MODES:
        return CHANCE
    if mode == M.FINISHED:
        return TERMINAL
    if mode == M.DRAFT_PICK:
        return phases.draft_picker(s)
    if mode == M.MSG_DISCARD:
        return phases.msg_seat(s)
    if mode == M.RIDE_ASK:
        return s.controller[s.ask[0]]
    if mode == M.SCRAP_TAKE:
        return s.target
    if mode == M.IDENTITY:
        return identity_seat(s)
    return s.controller[s.active]


def chance_outcomes(r: Context, s: State) -> list[int]:
    """Outcome ids at a chance node (uniform over them)."""
    if s.fill >= 0:
        return sorted(deck_rest(s, s.fill))
    if s.mode in (M.SETUP_REMOVE, M.SETUP_DEAL):
        return phases.setup_outcomes(s)
    if s.mode == M.SETUP_PROTAG:
        return list(range(s.n))
    return list(range(6))  # DRAFT_RANDOM


def apply_chance(r: Context, s: State, outcome: int) -> None:
    """Apply a chance outcome to ``s`` (a copy), then advance."""
    if s.fill >= 0:
        s.top[s.fill].append(outcome)
        s.fill = -1
    elif s.mode == M.DRAFT_RANDOM:
        s.draft_random = outcome
        s.mode = M.DRAFT_PICK
    else:
        phases.apply_setup(r, s, outcome)
    advance(r, s)


def legal_actions(r: Context, s: State) -> list[int]:
    """Sorted legal decision ids (empty at chance nodes and at the end)."""
    if s.fill >= 0:
        return []
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
    M.DRAFT_PICK: lambda r, s: [A.PICK + c for c in phases.draft_received(s, s.draft_step)],
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
    M.MSG_DISCARD: lambda r, s: [A.DISCARD + c for c in hand(s, s.seat_char[phases.msg_seat(s)])],
    M.IDENTITY: lambda r, s: [A.IDENTITY + c for c in identity_choices(r, s, identity_seat(s))],
    M.REVEAL_PICK: lambda r, s: [A.CHOOSE + c for c in sections.reveal_choices(r, s)],
}


def apply_decision(r: Context, s: State, action: int) -> None:
    """Apply a legal decision to ``s`` (a copy), then advance."""
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
    advance(r, s)


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
    M.DRAFT_PICK: lambda r, s, a: phases.apply_pick(r, s, a - A.PICK),
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
    M.MSG_DISCARD: lambda r, s, a: phases.apply_discard(r, s, a - A.DISCARD),
    M.IDENTITY: lambda r, s, a: choose_identity(r, s, a - A.IDENTITY),
    M.REVEAL_PICK: lambda r, s, a: sections.reveal_card(r, s, a - A.CHOOSE),
}
