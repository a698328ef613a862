"""The Section effects that ask for choices: the Accommodation's look at the Messages pile, the
Bridge's swap with the Robot, the Decompression Chamber, the Hibernation Chamber's Markers, the
Graveyard's draws and the Temple pile (RB "Sections"; each effect kind is data in the content)."""

from __future__ import annotations

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import (
    cards_in,
    forget,
    hand,
    move_card,
    move_secretly,
    tell,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import cards, move_indicator, secret
from shadowtable.games.shadow_planet.rules.decks import top_known
from shadowtable.games.shadow_planet.rules.effects import TYPES
from shadowtable.games.shadow_planet.rules.steps import draw_to_hand, note_vehicle
from shadowtable.games.shadow_planet.state import GEAR0, MESSAGES_DECK, MSG, REMOVED, TEMPLE, State
from shadowtable.games.shadow_planet.tasks import (
    AdjustCountdown,
    ChooseDeck,
    ChooseSectionMarkerSeat,
    DrawFromDeck,
    GiveRobotCard,
    LookMessages,
    PickTempleCard,
    RemoveMessage,
    TakeRobotCard,
)


def section_name(ctx: Context, s: State) -> str:
    """The Section the active Character occupies (whose effect is being carried out)."""
    section = s.char_section[s.active]
    return ctx.content.section_names[section] if section >= 0 else "Section"


def start_effect(ctx: Context, s: State, effect: dict[str, int | str | bool], rest: Task) -> bool:
    """Apply an automatic effect (False), or push ``rest`` (the effects after this one) and the
    task that carries this one out (True)."""
    kind = effect["kind"]
    seat = s.controller[s.active]
    task: Task | None = None
    if kind == "repair_advance":
        amount = int(effect["amount"])
        why = f"the {section_name(ctx, s)} effect (advances {amount})" if s.journal is not None else ""
        move_indicator(ctx, s, "repair", s.repair - amount, why, "section", cause="section", amount=amount)
    elif kind == "vehicle_into_play":
        vehicle = ctx.vehicle_index(str(effect["vehicle"]))
        before = s.vehicle_loc[vehicle]
        s.vehicle_loc[vehicle] = s.char_loc[s.active]
        if s.journal is not None:
            note_vehicle(ctx, s, vehicle, before, f"the {section_name(ctx, s)} effect", "section")
    elif kind == "messages_look_remove" and zone_size(s, MSG) > 0:
        task = LookMessages(seat, int(effect["look"]), int(effect["remove"]))
    elif kind == "robot_gear_swap" and hand(s, ctx.robot) and hand(s, s.active) and s.active != ctx.robot:
        for card in hand(s, ctx.robot):
            tell(s, seat, card)
        task = TakeRobotCard(seat)
    elif kind == "countdown_adjust":
        task = AdjustCountdown(seat, int(effect["amount"]))
    elif kind == "give_pool_markers" and any(s.pool):
        task = ChooseSectionMarkerSeat(seat, int(effect["count"]))
    elif kind == "draw_any_location" and any(zone_size(s, d) for d in range(4)):
        task = ChooseDeck(seat, int(effect["count"]))
    elif kind == "temple_pile" and zone_size(s, MSG) > 0:
        for card in cards_in(s, MSG):
            tell(s, seat, card)
        task = PickTempleCard(seat, min(int(effect["count"]), zone_size(s, MSG)))
    if task is None:
        return False
    s.stack.append(rest)
    s.stack.append(task)
    return True


# -- Accommodation: look at the top of the Messages pile, remove some ---------------------------
def look_messages(ctx: Context, s: State, task: LookMessages) -> None:
    """Look at the top cards of the Messages pile (chance reveals unknown ones)."""
    if not top_known(s, MESSAGES_DECK, task.look, task):
        return
    looked = s.top[MESSAGES_DECK][: task.look]
    for card in looked:
        tell(s, task.seat, card)
    if s.journal is not None:
        head = f"seat {task.seat} looks at the top {cards(len(looked))} of the Messages pile ({section_name(ctx, s)})"
        secret(
            s,
            "look",
            (task.seat,),
            f"{head}: {', '.join(ctx.content.short(card) for card in looked)}",
            head,
            "section",
            {"cards": looked, "names": [ctx.content.card_name[card] for card in looked]},
            seat=task.seat,
            deck="messages",
            looked=len(looked),
        )
    s.stack.append(RemoveMessage(task.seat, len(looked), task.remove))


def remove_options(ctx: Context, s: State, task: RemoveMessage) -> list[int]:
    return sorted(A.CHOOSE + card for card in s.top[MESSAGES_DECK][: task.looked])


def remove_message(ctx: Context, s: State, task: RemoveMessage, action: int) -> None:
    """Remove a looked-at Messages card from the game; ask again while removals are left."""
    card = action - A.CHOOSE
    move_card(s, card, REMOVED)
    forget(s, card)
    if s.journal is not None:
        head = f"seat {task.seat} removes a card of the Messages pile from the game"
        secret(
            s,
            "remove",
            (task.seat,),
            f"{head}: {ctx.content.short(card)}",
            f"{head}, unseen",
            "section",
            {"card": card, "name": ctx.content.card_name[card], "type": TYPES[ctx.card_type[card]]},
            seat=task.seat,
            pile=zone_size(s, MSG),
        )
    if task.remove > 1 and task.looked > 1:
        s.stack.append(RemoveMessage(task.seat, task.looked - 1, task.remove - 1))


# -- Bridge: swap a card with the Robot's Gear ---------------------------------------------------
def robot_cards(ctx: Context, s: State, task: TakeRobotCard) -> list[int]:
    return [A.CHOOSE + card for card in hand(s, ctx.robot)]


def take_robot_card(ctx: Context, s: State, task: TakeRobotCard, action: int) -> None:
    s.stack.append(GiveRobotCard(task.seat, action - A.CHOOSE))


def own_cards(ctx: Context, s: State, task: GiveRobotCard) -> list[int]:
    return [A.CHOOSE + card for card in hand(s, s.active)]


def give_robot_card(ctx: Context, s: State, task: GiveRobotCard, action: int) -> None:
    """Swap the chosen Robot card with a card of the active hand."""
    me, robot_seat = task.seat, s.controller[ctx.robot]
    given = action - A.CHOOSE
    move_secretly(s, task.taken, GEAR0 + s.active, me, robot_seat)
    move_secretly(s, given, GEAR0 + ctx.robot, me, robot_seat)
    if s.journal is not None:
        c = ctx.content
        name, robot = c.char_names[s.active], c.char_names[ctx.robot]
        head = f"seat {me} ({name}) swaps a card with the {robot}'s Gear ({section_name(ctx, s)})"
        secret(
            s,
            "swap",
            (me, robot_seat),
            f"{head}: takes {c.short(task.taken)}, gives {c.short(given)}",
            head,
            "section",
            {
                "taken": task.taken,
                "given": given,
                "taken_name": c.card_name[task.taken],
                "given_name": c.card_name[given],
            },
            holders=[me, robot_seat] if robot_seat >= 0 else [me],
            characters=[name, robot],
        )
    for card in hand(s, ctx.robot):
        tell(s, me, card)


# -- Decompression Chamber: the Countdown either way ---------------------------------------------
def countdown_options(ctx: Context, s: State, task: AdjustCountdown) -> list[int]:
    return [A.ADVANCE, A.MOVE_BACK]


def adjust_countdown(ctx: Context, s: State, task: AdjustCountdown, action: int) -> None:
    """Advance or move back the Countdown Indicator."""
    step = task.amount if action == A.ADVANCE else -task.amount
    why = ""
    if s.journal is not None:
        verb = "advances" if action == A.ADVANCE else "moves back"
        why = f"the {section_name(ctx, s)} effect ({verb} {task.amount}, chosen by seat {task.seat})"
    move_indicator(ctx, s, "countdown", s.countdown - step, why, "section", cause="section", amount=-step)


# -- Graveyard: the top card of any Location deck ------------------------------------------------
def deck_options(ctx: Context, s: State, task: ChooseDeck) -> list[int]:
    return [A.DECK + d for d in range(4) if zone_size(s, d) > 0]


def choose_deck(ctx: Context, s: State, task: ChooseDeck, action: int) -> None:
    s.stack.append(DrawFromDeck(task.seat, action - A.DECK, task.count))


def draw_from_deck(ctx: Context, s: State, task: DrawFromDeck) -> None:
    """Take the top card of the chosen Location deck; choose again while draws are left."""
    if zone_size(s, task.deck) > 0:
        if not top_known(s, task.deck, 1, task):
            return
        draw_to_hand(ctx, s, task.deck, f"the {section_name(ctx, s)} effect", "section")
    if task.count > 1 and any(zone_size(s, d) for d in range(4)):
        s.stack.append(ChooseDeck(task.seat, task.count - 1))


# -- Temple: Messages cards onto the Temple pile -------------------------------------------------
def temple_options(ctx: Context, s: State, task: PickTempleCard) -> list[int]:
    return [A.CHOOSE + card for card in cards_in(s, MSG)]


def pick_temple_card(ctx: Context, s: State, task: PickTempleCard, action: int) -> None:
    """Put a Messages card on the Temple pile (revealed first in the Messages phase)."""
    card = action - A.CHOOSE
    move_card(s, card, TEMPLE)
    forget(s, card)
    tell(s, task.seat, card)
    s.temple.append(card)
    if s.journal is not None:
        head = f"seat {task.seat} puts a Messages card on the Temple pile ({len(s.temple)} there, revealed first)"
        secret(
            s,
            "temple",
            (task.seat,),
            f"{head}: {ctx.content.short(card)}",
            head,
            "section",
            {"card": card, "name": ctx.content.card_name[card], "type": TYPES[ctx.card_type[card]]},
            seat=task.seat,
            temple=len(s.temple),
        )
    if task.count > 1 and zone_size(s, MSG) > 0:
        s.stack.append(PickTempleCard(task.seat, task.count - 1))
