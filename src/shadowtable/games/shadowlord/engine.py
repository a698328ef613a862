"""The engine: run automatic tasks until a decision or chance node, list legal actions (with the
free actions of the current player and negotiation offers), and apply an action to a copy."""

from __future__ import annotations

from shadowtable.games.shadowlord.actions import BRIBE0, BUY0, NF, OFFER_TO0, PLACE0, REVOKE_T0, bribe_id, place_id
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import (  # noqa: F401  (importing registers the rules)
    battle,
    duel,
    events,
    movement,
    negotiation,
    recruit,
    shift,
    turn,
    voting,
)
from shadowtable.games.shadowlord.rules.cards import needs_card, portrait_figs
from shadowtable.games.shadowlord.rules.recruit import bribable, start_bribe
from shadowtable.games.shadowlord.rules.registry import AUTO, CHANCE, DECISION, MAIN_KINDS, log
from shadowtable.games.shadowlord.rules.turn import TURN_STEP_LIMIT
from shadowtable.games.shadowlord.state import SLState, Task

NV = CARD_VALUES
ALWAYS_ANSWERABLE = frozenset(
    {
        "build",
        "move",
        "shadow_move",
        "event",
        "vote",
        "truce_q",
        "truce_a",
        "challenge_q",
        "want",
        "enlist",
        "surrender",
        "blast",
        "offer_build",
    }
)
"""Decisions whose legal actions always include ``done`` (or a fixed pair): no need to list them
just to know whether the decision can be answered."""


def advance(ctx: Context, s: SLState) -> None:
    """Run automatic work until a seat must decide, chance must act, or the game is over."""
    stack = s.stack
    budget = 100_000
    while stack and not s.end:
        budget -= 1
        if budget < 0:
            raise RuntimeError(f"shadowlord engine loop at {stack[-3:]}")
        top = stack[-1]
        kind = top[0]
        auto = AUTO.get(kind)
        if auto is not None:
            stack.pop()
            auto(ctx, s, top)
            stack = s.stack
            continue
        if kind in CHANCE:
            if kind == "draw" and not needs_card(ctx, s) or not CHANCE[kind][0](ctx, s, top):
                stack.pop()
                continue
            return
        if s.seat_out[top[1]] or kind not in ALWAYS_ANSWERABLE and not _answerable(ctx, s, top):
            stack.pop()
            continue
        return
    if not s.end and not stack:
        s.end = "truncated"


def _answerable(ctx: Context, s: SLState, top: Task) -> bool:
    s.occ = []  # built on first use
    try:
        return bool(DECISION[top[0]][0](ctx, s, top))
    finally:
        s.occ = None


def is_chance(s: SLState) -> bool:
    return bool(s.stack) and s.stack[-1][0] in CHANCE


def free_actions(ctx: Context, s: SLState, seat: int) -> list[int]:
    """Anytime during his turn: cards from the Attack Hand under a portrait; one Bribery."""
    out: list[int] = []
    base = seat * NV
    if not any(s.hand[base : base + NV]):
        return out
    mine = portrait_figs(ctx, s, seat)
    for v in range(NV):
        n = s.hand[base + v]
        if not n:
            continue
        out += [place_id(v, f) for f in mine]
        if n >= 4 and not s.bribed:
            out += [bribe_id(v, f) for f in range(NF) if bribable(ctx, s, f, s.cur)]
    return out


def legal_actions(ctx: Context, s: SLState) -> list[int]:
    """The sorted legal actions (the figures-per-galaxy index is built once for the listing)."""
    if s.end or not s.stack:
        return []
    if s.legal is not None:
        return s.legal[:]
    top = s.stack[-1]
    if top[0] in CHANCE:
        return [o for o, _ in CHANCE[top[0]][0](ctx, s, top)]
    s.occ = []  # built on first use
    try:
        s.legal = _legal_actions(ctx, s)
    finally:
        s.occ = None
    return s.legal[:]


def _legal_actions(ctx: Context, s: SLState) -> list[int]:
    top = s.stack[-1]
    kind = top[0]
    if kind in CHANCE:
        return [o for o, _ in CHANCE[kind][0](ctx, s, top)]
    legal = DECISION[kind][0](ctx, s, top)
    seat = top[1]
    extra: list[int] = []
    if kind in MAIN_KINDS and seat == ctx.seat_of(s.cur):
        extra += free_actions(ctx, s, seat)
    extra += negotiation.offer_starts(ctx, s, kind, seat)
    extra += negotiation.revocations(ctx, s, kind, seat)
    return sorted(set(legal + extra)) if extra else sorted(legal)


def apply_action(ctx: Context, s: SLState, action: int) -> SLState:
    """A new state: ``action`` applied to a copy of ``s`` (legality checked by the caller)."""
    new = s.copy()
    top = new.stack[-1]
    kind = top[0]
    if kind in CHANCE:
        new.stack.pop()
        CHANCE[kind][1](ctx, new, top, action)
    elif PLACE0 <= action < BUY0:
        apply_free(ctx, new, top[1], action)
    elif OFFER_TO0 <= action < OFFER_TO0 + 4 and kind != "offer_build":
        negotiation.start_offer(ctx, new, top[1], action - OFFER_TO0)
    elif action >= REVOKE_T0:
        negotiation.revoke(ctx, new, top[1], action)
    else:
        new.stack.pop()
        DECISION[kind][1](ctx, new, top, action)
    new.steps_turn += 1
    if new.steps_turn > TURN_STEP_LIMIT:
        new.end = "truncated"
        log(new, "turn step limit reached: the game is truncated")
    advance(ctx, new)
    return new


def apply_free(ctx: Context, s: SLState, seat: int, action: int) -> None:
    if action < BRIBE0:
        v, f = divmod(action - PLACE0, NF)
        s.hand[seat * NV + v] -= 1
        s.pcards[f * NV + v] += 1
        log(s, f"{ctx.content.colours[s.cur]} places a card under {ctx.content.fig_name[f]}")
    else:
        v, f = divmod(action - BRIBE0, NF)
        start_bribe(ctx, s, seat, v, f)
