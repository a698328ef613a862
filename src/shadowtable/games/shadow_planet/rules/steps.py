"""The five Action steps: playing Operation cards, and the consequences of Search and Get
(RB "2. Operations Phase" I-V).  Moving (step I's consequence) is in ``movement.py``."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import cards_of, forget, hand, move_openly, move_secretly, tell, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import cards, secret
from shadowtable.games.shadow_planet.rules.decks import top_known
from shadowtable.games.shadow_planet.rules.effects import TYPES
from shadowtable.games.shadow_planet.rules.messages import face_up_to_messages
from shadowtable.games.shadow_planet.rules.movement import move_end
from shadowtable.games.shadow_planet.rules.swap import swap_targets
from shadowtable.games.shadow_planet.rules.vehicles import declare_drive, drive_options
from shadowtable.games.shadow_planet.state import GEAR0, PLAYED0, State
from shadowtable.games.shadow_planet.tasks import (
    ChooseScrapTarget,
    DrawExtraCards,
    DrawMandatoryCard,
    PlayAttackCards,
    PlayGetCards,
    PlayMoveCards,
    PlayRepairCards,
    PlaySearchCards,
    Reorder,
    SearchDeck,
)

MOVE_T, SEARCH_T, GET_T, REPAIR_T, ATTACK_T = range(5)
LEFT_SHIFT = 5
"""``s.excl`` bits 0-4: types closed by an exclusive card this turn; bits 5-9 (``1 << LEFT_SHIFT``
up): types of cards played this turn that left the table at once (the Crawler card, discarded
to the Messages pile), which an exclusive card (Space Suit) counts as played (option
``crawler_is_move_card``)."""


# -- playing cards ------------------------------------------------------------------------------
def playable(ctx: Context, s: State, step_type: int) -> list[int]:
    """Cards of the step's type the active player may play now."""
    bit = 1 << step_type
    if s.forbid & bit or s.excl & bit:
        return []
    ch = s.active
    mask = s.zones[GEAR0 + ch] & ctx.type_mask[step_type]
    if not mask:
        return []
    if mask & ctx.excl_mask[step_type]:
        played_of_type = (s.zones[PLAYED0 + ch] & ctx.type_mask[step_type]) or (s.excl >> LEFT_SHIFT) & bit
        if played_of_type:  # an exclusive card may only be the step's first card of its type
            mask &= ~ctx.excl_mask[step_type]
    return cards_of(mask)


def play_card(ctx: Context, s: State, card: int) -> bool:
    """Play ``card`` face up and resolve its effect; True if its value counts for the step.
    A swap card (Scrap Metal) asks for the other player first (the step waits below)."""
    ch = s.active
    t = ctx.card_type[card]
    vplay = ctx.vehicle_play[card]
    counts = True
    if vplay is not None:
        vehicle, to_messages, counts = vplay
        before = s.vehicle_loc[vehicle]
        s.vehicle_loc[vehicle] = s.char_loc[ch]
        if s.journal is not None:
            note_vehicle(
                ctx,
                s,
                vehicle,
                before,
                f"{ctx.content.card_name[card]} played by {ctx.content.char_names[ch]}",
                "vehicle",
            )
        if to_messages:
            face_up_to_messages(ctx, s, card, "played to put a Vehicle into play", "vehicle")
            if ctx.options["crawler_is_move_card"]:
                s.excl |= (1 << t) << LEFT_SHIFT  # still a card of its type played this turn
        else:
            move_openly(s, card, PLAYED0 + ch)
    else:
        move_openly(s, card, PLAYED0 + ch)
    s.forbid |= ctx.forbid[card]
    s.excl |= ctx.excl[card]
    aura = ctx.aura[card]
    if aura is not None:
        s.auras.append([ch, aura[0], int(aura[1])])
    return counts


def note_vehicle(ctx: Context, s: State, vehicle: int, before: int, why: str, rule: str) -> None:
    """Note a Vehicle tile put into play (or moved there from another Location)."""
    c = ctx.content
    name, at = c.vehicle_names[vehicle], s.vehicle_loc[vehicle]
    moved = f" (its tile moves from {c.location_names[before]})" if before >= 0 and before != at else ""
    note(
        s,
        "vehicle",
        f"the {name} is put into play in {c.location_names[at]}{moved}: {why}",
        rule=rule,
        vehicle=name,
        to=c.location_names[at],
        origin=c.location_names[before] if before >= 0 else None,
        cause=why,
    )


def _after_play(ctx: Context, s: State, card: int, seat: int) -> None:
    if ctx.swap[card] and hand(s, s.active) and swap_targets(s):
        s.stack.append(ChooseScrapTarget(seat))


def _cards(ctx: Context, s: State, step_type: int) -> list[int]:
    return [A.PLAY + card for card in playable(ctx, s, step_type)]


# -- step I: Move -------------------------------------------------------------------------------
def move_options(ctx: Context, s: State, task: PlayMoveCards) -> list[int]:
    out = _cards(ctx, s, MOVE_T)
    out.extend(A.DRIVE + v * 4 + d for v, d in drive_options(ctx, s, task))
    out.append(A.DONE)
    return sorted(out)


def move_step(ctx: Context, s: State, task: PlayMoveCards, action: int) -> None:
    """Play a Move card, declare a drive, or stop: then the Character moves."""
    if action == A.DONE:
        move_end(ctx, s, task)
    elif action >= A.DRIVE:
        declare_drive(ctx, s, task, (action - A.DRIVE) // 4, (action - A.DRIVE) % 4)
    else:
        card = action - A.PLAY
        counts = play_card(ctx, s, card)
        value = ctx.card_value[card] if counts else 0
        s.stack.append(
            PlayMoveCards(
                task.seat, task.total + value, task.cards + int(counts), task.drive, task.dest, task.passengers
            )
        )
        _after_play(ctx, s, card, task.seat)


# -- step II: Search ----------------------------------------------------------------------------
def search_options(ctx: Context, s: State, task: PlaySearchCards) -> list[int]:
    return [*_cards(ctx, s, SEARCH_T), A.DONE]


def search_step(ctx: Context, s: State, task: PlaySearchCards, action: int) -> None:
    """Play a Search card, or stop: then the Character looks at the top of its Location deck."""
    if action == A.DONE:
        s.stack.append(SearchDeck(task.points))
        return
    card = action - A.PLAY
    value = ctx.card_value[card] if play_card(ctx, s, card) else 0
    s.stack.append(PlaySearchCards(task.seat, task.points + value))
    _after_play(ctx, s, card, task.seat)


def search_total(ctx: Context, s: State, points: int) -> int:
    """Search value: cards + ability bonus + auras of Characters now in the same Location."""
    ch = s.active
    total = points + s.bonus
    if not ctx.options["search_bonus_without_cards"] and points == 0:
        return 0
    here = s.char_loc[ch]
    for source, amount, include_self in s.auras:
        if (source != ch or include_self) and s.char_loc[source] == here:
            total += amount
    return total


def search_deck(ctx: Context, s: State, task: SearchDeck) -> None:
    """Look at the top cards of the Location deck (chance reveals unknown ones), then reorder."""
    deck = s.char_loc[s.active]
    wanted = search_total(ctx, s, task.points)
    if wanted <= 0 or zone_size(s, deck) == 0:
        return
    if not top_known(s, deck, wanted, task):
        return
    look = s.top[deck][:wanted]
    seat = s.controller[s.active]
    for card in look:
        forget(s, card)
        tell(s, seat, card)
    if s.journal is not None:
        name, place = ctx.content.char_names[s.active], ctx.content.location_names[deck]
        head = f"seat {seat} ({name}) looks at the top {cards(len(look))} of the {place} deck (Search {wanted})"
        secret(
            s,
            "search",
            (seat,),
            f"{head}: {', '.join(ctx.content.short(card) for card in look)}",
            head,
            "search",
            {"cards": look, "names": [ctx.content.card_name[card] for card in look]},
            seat=seat,
            character=name,
            deck=place,
            total=wanted,
            looked=len(look),
        )
    if len(look) >= 2:
        s.stack.append(Reorder(seat, deck, len(look)))


def reorder_options(ctx: Context, s: State, task: Reorder) -> list[int]:
    return sorted(A.PLACE + card for card in s.top[task.deck][task.placed : task.size])


def place(ctx: Context, s: State, task: Reorder, action: int) -> None:
    """Put the card next from the top; the last one goes below without a choice."""
    top = s.top[task.deck]
    top.remove(action - A.PLACE)
    top.insert(task.placed, action - A.PLACE)
    if task.placed + 1 < task.size - 1:
        s.stack.append(Reorder(task.seat, task.deck, task.size, task.placed + 1))


# -- step III: Get ------------------------------------------------------------------------------
def draw_to_hand(ctx: Context, s: State, deck: int, why: str, rule: str) -> None:
    """The top card of ``deck`` (already known to the state) goes secretly to the active hand."""
    card = s.top[deck][0]
    seat = s.controller[s.active]
    move_secretly(s, card, GEAR0 + s.active, seat)
    if s.journal is not None:
        name, place = ctx.content.char_names[s.active], ctx.content.location_names[deck]
        head = f"seat {seat} ({name}) takes the top card of the {place} deck ({why})"
        secret(
            s,
            "draw",
            (seat,),
            f"{head}: {ctx.content.short(card)}",
            head,
            rule,
            {"card": card, "name": ctx.content.card_name[card], "type": TYPES[ctx.card_type[card]]},
            seat=seat,
            character=name,
            deck=place,
            left=zone_size(s, deck),
            cause=why,
        )


def draw_mandatory_card(ctx: Context, s: State, task: DrawMandatoryCard) -> None:
    """Step III: the mandatory draw of the top card of the Location deck."""
    deck = s.char_loc[s.active]
    if zone_size(s, deck) > 0:
        if not top_known(s, deck, 1, task):
            return
        draw_to_hand(ctx, s, deck, "the mandatory Get", "get")


def get_options(ctx: Context, s: State, task: PlayGetCards) -> list[int]:
    return [*_cards(ctx, s, GET_T), A.DONE]


def get_step(ctx: Context, s: State, task: PlayGetCards, action: int) -> None:
    """Play a Get card, or stop: then one more card per point of Get value."""
    if action == A.DONE:
        s.stack.append(DrawExtraCards(task.draws))
        return
    card = action - A.PLAY
    value = ctx.card_value[card] if play_card(ctx, s, card) else 0
    s.stack.append(PlayGetCards(task.seat, task.draws + value))
    _after_play(ctx, s, card, task.seat)


def draw_extra_cards(ctx: Context, s: State, task: DrawExtraCards) -> None:
    """Step III's consequence: one more card per point of Get value."""
    deck = s.char_loc[s.active]
    draws = task.draws
    while draws > 0 and zone_size(s, deck) > 0:
        if not top_known(s, deck, 1, DrawExtraCards(draws)):
            return
        draw_to_hand(ctx, s, deck, "a Get draw", "get")
        draws -= 1


# -- steps IV and V: Repair and Attack ----------------------------------------------------------
def repair_options(ctx: Context, s: State, task: PlayRepairCards) -> list[int]:
    return [*_cards(ctx, s, REPAIR_T), A.DONE]


def repair_step(ctx: Context, s: State, task: PlayRepairCards, action: int) -> None:
    """Play a Repair card (its effect only: Repair cards count at the end), or stop."""
    if action != A.DONE:
        card = action - A.PLAY
        play_card(ctx, s, card)
        s.stack.append(task)
        _after_play(ctx, s, card, task.seat)


def attack_options(ctx: Context, s: State, task: PlayAttackCards) -> list[int]:
    return [*_cards(ctx, s, ATTACK_T), A.DONE]


def attack_step(ctx: Context, s: State, task: PlayAttackCards, action: int) -> None:
    """Play an Attack card (its effect only), or stop."""
    if action != A.DONE:
        card = action - A.PLAY
        play_card(ctx, s, card)
        s.stack.append(task)
        _after_play(ctx, s, card, task.seat)
