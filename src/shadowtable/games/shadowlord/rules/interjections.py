"""Actions that do not answer the pending decision (the decision stays pending):

- the current player's free actions during his main decisions (``ChooseEventTarget``, ``Build``, ``Move``,
  ``MoveShadow``): placing a card of his Attack Hand under a portrait, and one Bribery a turn
  ("anytime during your turn");
- at his ``PlacePortraitCards`` decision after the fight: the Bribery too, unless a Battle was fought
  this turn ("Once the first Battle starts ... characters cannot be Bribed");
- at most decisions, starting a negotiation offer and revoking a Truce or a permission (see
  :mod:`.negotiation`).

The ``PlacePortraitCards`` decision lists card placements as its own actions; they are carried out
here too, so that it stays pending until ``end turn``.
"""

from __future__ import annotations

from shadowtable.games.shadowlord.actions import BRIBE0, BUY0, NF, OFFER_TO0, PLACE0, REVOKE_TRUCE0, bribe_id, place_id
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.cards import place_card, portrait_figs
from shadowtable.games.shadowlord.rules.negotiation import (
    battles_started,
    offer_starts,
    revocations,
    revoke,
    start_offer,
)
from shadowtable.games.shadowlord.rules.recruit import bribable, start_bribe
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import (
    Build,
    BuildOffer,
    ChooseEventTarget,
    Move,
    MoveShadow,
    PlacePortraitCards,
    SeatDecision,
)

NV = CARD_VALUES
MAIN_TASKS: frozenset[type[SeatDecision]] = frozenset({ChooseEventTarget, Build, Move, MoveShadow})
"""Decisions of the current player during which free actions (cards under portraits, Bribery)
may be taken."""


def free_actions(ctx: Context, s: State, seat: int) -> list[int]:
    """Anytime during his turn: cards from the Attack Hand under a portrait; one Bribery."""
    out: list[int] = []
    base = seat * NV
    if not any(s.hand[base : base + NV]):
        return out
    mine = portrait_figs(ctx, s, seat)
    for v in range(NV):
        if s.hand[base + v]:
            out += [place_id(v, f) for f in mine]
    return sorted(out + bribe_actions(ctx, s, seat))


def bribe_actions(ctx: Context, s: State, seat: int) -> list[int]:
    """ "Once anytime during your turn": four matching cards of the Attack Hand and a target
    that can be Bribed, if no Bribery was tried this turn."""
    out: list[int] = []
    if s.bribed:
        return out
    base = seat * NV
    for v in range(NV):
        if s.hand[base + v] >= 4:
            out += [bribe_id(v, f) for f in range(NF) if bribable(ctx, s, f, s.cur)]
    return out


def legal_interjections(ctx: Context, s: State, task: SeatDecision) -> list[int]:
    """The interjections at decision ``task``: free actions (only the current player's main
    decisions), offers and revocations."""
    extra: list[int] = []
    if task.seat == ctx.seat_of(s.cur):
        if type(task) in MAIN_TASKS:
            extra += free_actions(ctx, s, task.seat)
        elif type(task) is PlacePortraitCards and not battles_started(s):
            extra += bribe_actions(ctx, s, task.seat)
    extra += offer_starts(ctx, s, task)
    extra += revocations(ctx, s, task)
    return extra


def apply_interjection(ctx: Context, s: State, task: SeatDecision, action: int) -> bool:
    """Carry out ``action`` if it is an interjection (``True``); else leave it to the decision."""
    if action < PLACE0:
        return False
    if action < BUY0:
        apply_free(ctx, s, task.seat, action)
        return True
    if OFFER_TO0 <= action < OFFER_TO0 + 4 and not isinstance(task, BuildOffer):
        start_offer(ctx, s, task.seat, action - OFFER_TO0)
        return True
    if action >= REVOKE_TRUCE0:
        revoke(ctx, s, task.seat, action)
        return True
    return False


def apply_free(ctx: Context, s: State, seat: int, action: int) -> None:
    """Place a card under a portrait, or start a Bribery."""
    if action < BRIBE0:
        v, f = divmod(action - PLACE0, NF)
        place_card(ctx, s, seat, v, f)
    else:
        v, f = divmod(action - BRIBE0, NF)
        start_bribe(ctx, s, seat, v, f)
