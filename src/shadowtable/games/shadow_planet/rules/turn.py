"""The Operations phase's turns: Characters act in Initiative order (RB "2. Operations Phase").

A controlled Character resolves its ability, then the five Action steps, then its Section's
effect; an uncontrolled one applies its automatic ability and discards the top card of its
Location deck.  Turn facts every step reads stay on the state: ``forbid`` and ``excl`` (types
closed this turn) and ``bonus`` (the Search bonus of abilities).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from shadowtable.core.events import note
from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet.board import move_openly, move_secretly, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.abilities import auto_ability
from shadowtable.games.shadow_planet.rules.decks import top_known
from shadowtable.games.shadow_planet.rules.effects import TYPES
from shadowtable.games.shadow_planet.rules.messages import face_up_to_messages
from shadowtable.games.shadow_planet.state import DISCARD, MSG, PLAYED0, State
from shadowtable.games.shadow_planet.tasks import (
    ApplyAbility,
    DiscardUncontrolled,
    DrawMandatoryCard,
    EndInSection,
    EndTurn,
    PlayAttackCards,
    PlayGetCards,
    PlayMoveCards,
    PlayRepairCards,
    PlaySearchCards,
    StartTurn,
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
            for effect in ctx.content.char_uncontrolled[ch]:
                auto_ability(ctx, s, ch, effect)
        s.stack.append(DiscardUncontrolled())
        return
    s.stack += _turn_tasks(seat)


def discard_uncontrolled(ctx: Context, s: State, task: DiscardUncontrolled) -> None:
    """An uncontrolled Character discards the top card of its Location deck face up."""
    deck = s.char_loc[s.active]
    if zone_size(s, deck) > 0:
        if not top_known(s, deck, 1, task):
            return
        card = s.top[deck][0]
        # who knew the card on top: the Discarded area shows which cards are there, not which
        # Character discarded which, so a reader that did not know the top is told its name by
        # the chance outcome that turned it up (its log line) or not at all; who else knew it is
        # no business of that reader (nor of spectators), so it is told the same either way
        bit = 1 << card
        was_public = s.public & bit
        knew = [seat for seat in range(s.n) if s.known[seat] & bit] if s.journal is not None else []
        move_openly(s, card, DISCARD)
        if s.journal is not None:
            name, place = ctx.content.char_names[s.active], ctx.content.location_names[deck]
            head = f"{name} (uncontrolled) discards the top card of the {place} deck face up"
            facts: dict[str, Any] = {
                "character": name,
                "deck": place,
                "to": "discard",
                "face_up": True,
                "left": zone_size(s, deck),
            }
            shown: dict[str, Any] = {
                "card": card,
                "name": ctx.content.card_name[card],
                "type": TYPES[ctx.card_type[card]],
            }
            if was_public:
                note(s, "discard", f"{head}: {ctx.content.short(card)}", rule="uncontrolled", **facts, **shown)
            else:
                note(s, "discard", head, rule="uncontrolled", **facts)
                if knew:
                    told = f"{head}: it is {ctx.content.short(card)}, the top card you knew"
                    note(s, "discard", told, rule="uncontrolled", seats=knew, **facts, **shown)
    s.active += 1
    s.stack.append(START_TURN)


def end_turn(ctx: Context, s: State, task: EndTurn) -> None:
    """End-of-turn card effects (Crying), expulsion, and the next Character."""
    ch = s.active
    for card in ctx.end_of_turn_cards:
        if s.where[card] == PLAYED0 + ch:
            if ctx.end_of_turn[card]:
                face_up_to_messages(ctx, s, card, "its end-of-turn effect", "ability")
            else:
                move_secretly(s, card, MSG, controller_seat(s))
                if s.journal is not None:  # it was face up on the table: its name is no secret
                    note(
                        s,
                        "discard",
                        f"{ctx.content.short(card)} goes face down to the Messages pile (its end-of-turn effect)",
                        rule="ability",
                        card=card,
                        name=ctx.content.card_name[card],
                        type=TYPES[ctx.card_type[card]],
                        to="messages",
                        face_up=False,
                    )
    s.char_section[ch] = -1
    s.active += 1
    s.stack.append(START_TURN)


START_TURN = StartTurn()


@cache
def _turn_tasks(seat: int) -> tuple[Task, ...]:
    """A controlled turn's work, bottom of the stack first (tasks are values: built once)."""
    return (
        EndTurn(),
        EndInSection(),
        PlayAttackCards(seat),
        PlayRepairCards(seat),
        PlayGetCards(seat),
        DrawMandatoryCard(),
        PlaySearchCards(seat),
        PlayMoveCards(seat),
        ApplyAbility(0),
    )
