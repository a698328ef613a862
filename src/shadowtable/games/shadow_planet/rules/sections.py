"""End-of-turn Section effects: paying by revealing cards, the seven effects, Markers, expulsion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shadowtable.games.shadow_planet.board import (
    cards_in,
    ensure_top,
    forget,
    hand,
    move_card,
    move_secretly,
    set_countdown,
    set_repair,
    tell,
    tell_all,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.steps import draw_to_hand
from shadowtable.games.shadow_planet.rules.turn import controller_seat
from shadowtable.games.shadow_planet.state import (
    ACCOM_LOOK,
    ACCOM_REMOVE,
    BRIDGE_TAKE,
    DECOMP,
    EFFECT_NEXT,
    GEAR0,
    GRAVE_DECK,
    HIBER_SEAT,
    MESSAGES_DECK,
    MSG,
    REMOVED,
    REVEAL_PICK,
    SECTION_CHOICE,
    TEMPLE,
    TEMPLE_PICK,
    TURN_END,
    State,
)

if TYPE_CHECKING:
    from shadowtable.games.shadow_planet.content import Reveal


def payable(r: Context, s: State) -> list[int]:
    """Indices of the current Section's reveals the hand can pay."""
    section = s.char_section[s.active]
    counts = [0] * 5
    for card in hand(s, s.active):
        counts[r.ctype[card]] += 1
    reveals: tuple[Reveal, ...] = r.c.section_reveals[section]
    return [i for i, rv in enumerate(reveals) if all(counts[t] >= need for t, need in enumerate(rv.cost))]


def section_end(r: Context, s: State) -> None:
    """End of turn in a Section: offer the effect if it can be paid, else just expel."""
    if s.char_section[s.active] < 0:
        s.mode = TURN_END
    elif payable(r, s):
        s.mode = SECTION_CHOICE
    else:
        expel(s)


def expel(s: State) -> None:
    """The Character leaves the Section for its Location."""
    s.char_section[s.active] = -1
    s.mode = TURN_END


def resolve(r: Context, s: State, index: int) -> None:
    """Start paying reveal ``index``: forced cards are shown at once, the player picks the rest."""
    s.reveal, s.eff_index, s.look = index, 0, []
    _reveal_forced(r, s)


def reveal_needs(r: Context, s: State) -> list[int]:
    """Cards of each type still to be shown for the chosen reveal."""
    need = list(r.c.section_reveals[s.char_section[s.active]][s.reveal].cost)
    for card in s.look:
        need[r.ctype[card]] -= 1
    return need


def reveal_choices(r: Context, s: State) -> list[int]:
    """Hand cards the player may show next (types still needed, not shown yet)."""
    need = reveal_needs(r, s)
    return [c for c in hand(s, s.active) if need[r.ctype[c]] > 0 and c not in s.look]


def _reveal_forced(r: Context, s: State) -> None:
    need = reveal_needs(r, s)
    for t, count in enumerate(need):
        cards = [c for c in hand(s, s.active) if r.ctype[c] == t and c not in s.look]
        if count > 0 and len(cards) == count:
            for card in cards:
                reveal_card(r, s, card, forced=True)
    if any(n > 0 for n in reveal_needs(r, s)):
        s.mode = REVEAL_PICK
    else:
        s.look = []
        s.mode = EFFECT_NEXT


def reveal_card(r: Context, s: State, card: int, forced: bool = False) -> None:
    """Show ``card`` from hand to everyone (it stays in hand)."""
    s.look.append(card)
    tell_all(s, card)
    if not forced:
        _reveal_forced(r, s)


def effect_next(r: Context, s: State) -> None:
    """Run the next effect of the paid reveal; after the last, place the Marker and expel."""
    section = s.char_section[s.active]
    effects = r.c.section_reveals[section][s.reveal].effects
    while s.eff_index < len(effects):
        effect = effects[s.eff_index]
        s.eff_index += 1
        if _start_effect(r, s, effect):
            return
    colour = r.c.char_colour[s.active]
    if colour >= 0 and s.pool[colour] > 0 and not (s.section_markers[section] >> colour) & 1:
        s.pool[colour] -= 1
        s.section_markers[section] |= 1 << colour
    expel(s)


def _start_effect(r: Context, s: State, effect: dict[str, int | str | bool]) -> bool:
    """Apply an automatic effect (False) or switch to the mode that asks for a choice (True)."""
    kind = effect["kind"]
    seat = controller_seat(s)
    if kind == "repair_advance":
        set_repair(r, s, s.repair - int(effect["amount"]))
    elif kind == "vehicle_into_play":
        s.vehicle_loc[r.vehicle_index(str(effect["vehicle"]))] = s.char_loc[s.active]
    elif kind == "messages_look_remove" and zone_size(s, MSG) > 0:
        s.count, s.draws = int(effect["look"]), int(effect["remove"])
        s.mode = ACCOM_LOOK
        return True
    elif kind == "robot_gear_swap" and hand(s, r.robot) and hand(s, s.active) and s.active != r.robot:
        s.look = hand(s, r.robot)
        for card in s.look:
            tell(s, seat, card)
        s.mode = BRIDGE_TAKE
        return True
    elif kind == "countdown_adjust":
        s.count = int(effect["amount"])
        s.mode = DECOMP
        return True
    elif kind == "give_pool_markers" and any(s.pool):
        s.count = int(effect["count"])
        s.mode = HIBER_SEAT
        return True
    elif kind == "draw_any_location" and any(zone_size(s, d) for d in range(4)):
        s.count = int(effect["count"])
        s.mode = GRAVE_DECK
        return True
    elif kind == "temple_pile" and zone_size(s, MSG) > 0:
        s.count = min(int(effect["count"]), zone_size(s, MSG))
        for card in cards_in(s, MSG):
            tell(s, seat, card)
        s.mode = TEMPLE_PICK
        return True
    return False


def accom_look(r: Context, s: State) -> None:
    """Look at the top cards of the Messages pile (chance reveals unknown ones)."""
    if not ensure_top(s, MESSAGES_DECK, s.count):
        return
    s.look = s.top[MESSAGES_DECK][: s.count]
    for card in s.look:
        tell(s, controller_seat(s), card)
    s.mode = ACCOM_REMOVE


def accom_remove(s: State, card: int) -> None:
    """Remove a looked-at Messages card from the game."""
    move_card(s, card, REMOVED)
    forget(s, card)
    s.look.remove(card)
    s.draws -= 1
    if s.draws <= 0 or not s.look:
        s.look, s.draws = [], 0
        s.mode = EFFECT_NEXT


def bridge_swap(r: Context, s: State, given: int) -> None:
    """Swap the chosen Robot card with ``given`` from the active hand."""
    me, robot_seat = controller_seat(s), s.controller[r.robot]
    move_secretly(s, s.chosen, GEAR0 + s.active, me, robot_seat)
    move_secretly(s, given, GEAR0 + r.robot, me, robot_seat)
    for card in hand(s, r.robot):
        tell(s, me, card)
    s.chosen, s.look = -1, []
    s.mode = EFFECT_NEXT


def decomp(r: Context, s: State, advance: bool) -> None:
    """Advance or move back the Countdown Indicator."""
    set_countdown(r, s, s.countdown - s.count if advance else s.countdown + s.count)
    s.count = 0
    s.mode = EFFECT_NEXT


def give_colour(s: State, colour: int, back_to: int) -> None:
    """Give one pool Marker of ``colour`` to the chosen player; repeat while some are owed."""
    s.pool[colour] -= 1
    s.sheets[s.target * 5 + colour] += 1
    s.count -= 1
    if s.count <= 0 or not any(s.pool):
        s.count, s.target = 0, -1
        s.mode = back_to


def grave_draw(r: Context, s: State) -> None:
    """Take the top card of the chosen Location deck."""
    if zone_size(s, s.target) > 0:
        if not ensure_top(s, s.target, 1):
            return
        draw_to_hand(s, s.target)
    s.count -= 1
    s.target = -1
    s.mode = GRAVE_DECK if s.count > 0 and any(zone_size(s, d) for d in range(4)) else EFFECT_NEXT


def temple_pick(s: State, card: int) -> None:
    """Put a Messages card on the Temple pile (revealed first in the Messages phase)."""
    move_card(s, card, TEMPLE)
    forget(s, card)
    tell(s, controller_seat(s), card)
    s.temple.append(card)
    s.count -= 1
    if s.count <= 0 or zone_size(s, MSG) == 0:
        s.count = 0
        s.mode = EFFECT_NEXT
