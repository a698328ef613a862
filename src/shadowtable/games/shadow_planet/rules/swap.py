"""Scrap Metal: swap a card of your hand with one of another player (the other player chooses
theirs; the cards change hands secretly)."""

from __future__ import annotations

from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import hand, move_secretly
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import secret
from shadowtable.games.shadow_planet.state import GEAR0, State
from shadowtable.games.shadow_planet.tasks import ChooseScrapTarget, GiveScrapCard, ReturnScrapCard


def swap_targets(s: State) -> list[int]:
    """Other seats holding at least one card in hand."""
    me = s.controller[s.active]
    return [seat for seat in range(s.n) if seat != me and hand(s, s.seat_char[seat])]


def target_options(ctx: Context, s: State, task: ChooseScrapTarget) -> list[int]:
    return [A.SEAT + seat for seat in swap_targets(s)]


def choose_target(ctx: Context, s: State, task: ChooseScrapTarget, action: int) -> None:
    s.stack.append(GiveScrapCard(task.seat, action - A.SEAT))


def give_options(ctx: Context, s: State, task: GiveScrapCard) -> list[int]:
    return [A.CHOOSE + card for card in hand(s, s.active)]


def choose_given(ctx: Context, s: State, task: GiveScrapCard, action: int) -> None:
    s.stack.append(ReturnScrapCard(task.target, task.seat, action - A.CHOOSE))


def take_options(ctx: Context, s: State, task: ReturnScrapCard) -> list[int]:
    return [A.CHOOSE + card for card in hand(s, s.seat_char[task.seat])]


def swap(ctx: Context, s: State, task: ReturnScrapCard, action: int) -> None:
    """The chosen card and the other player's card change hands."""
    me, other = task.giver, task.seat
    back = action - A.CHOOSE
    move_secretly(s, task.given, GEAR0 + s.seat_char[other], me, other)
    move_secretly(s, back, GEAR0 + s.active, me, other)
    if s.journal is not None:
        c = ctx.content
        head = f"seat {me} and seat {other} swap a card (Scrap Metal)"
        secret(
            s,
            "swap",
            (me, other),
            f"{head}: seat {me} gives {c.short(task.given)}, seat {other} gives {c.short(back)}",
            head,
            "repair",
            {
                "given": task.given,
                "taken": back,
                "given_name": c.card_name[task.given],
                "taken_name": c.card_name[back],
            },
            holders=[me, other],
            characters=[c.char_names[s.active], c.char_names[s.seat_char[other]]],
        )
