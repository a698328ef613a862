"""The Operations phase: uncontrolled turns, abilities, the five steps, Vehicles and movement."""

from __future__ import annotations

from typing import Any

from shadowtable.games.shadow_planet.board import (
    cards_in,
    ensure_top,
    forget,
    hand,
    move_openly,
    move_secretly,
    tell,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.messages import face_up_to_messages
from shadowtable.games.shadow_planet.rules.phases import reset_turn
from shadowtable.games.shadow_planet.state import (
    ABILITY_CANCEL,
    ABILITY_NEXT,
    DISCARD,
    DRIVE_FALLBACK,
    GEAR0,
    GET_MANDATORY,
    GIVE_SEAT,
    MOVE_POINTS,
    MSG,
    MSG_START,
    PLAYED0,
    REED_FREE,
    REORDER,
    SCRAP_TARGET,
    STEP_GET,
    STEP_MOVE,
    STEP_REPAIR,
    STEP_SEARCH,
    TURN_START,
    UNC_DISCARD,
    State,
)

MOVE_T, SEARCH_T, GET_T = 0, 1, 2
LEFT_SHIFT = 5
"""``s.excl`` bits 0-4: types closed by an exclusive card this turn; bits 5-9 (``1 << LEFT_SHIFT``
up): types of cards played this turn that left the table at once (the Crawler card, discarded
to the Messages pile), which an exclusive card (Space Suit) counts as played (option
``crawler_is_move_card``)."""


def controller_seat(s: State) -> int:
    """Seat controlling the active Character."""
    return s.controller[s.active]


def turn_start(r: Context, s: State) -> None:
    """Begin the next Character's turn (or the Messages phase after the sixth)."""
    reset_turn(s)
    if s.active >= 6:
        s.mode = MSG_START
        return
    ch = s.active
    if s.controller[ch] < 0:
        if ch != s.cancelled:
            for effect in r.c.char_uncontrolled[ch]:
                _auto_ability(s, ch, effect)
        s.mode = UNC_DISCARD
    else:
        s.mode = ABILITY_NEXT


def _auto_ability(s: State, ch: int, effect: dict[str, Any]) -> bool:
    """Apply an ability needing no decision; False if it needs one."""
    kind = effect["kind"]
    if kind == "aura_search":
        s.auras.append([ch, effect["amount"], int(effect["include_self"])])
    elif kind == "search_bonus":
        s.bonus += effect["amount"]
    elif kind == "take_protagonist":
        if s.controller[ch] >= 0:
            s.protagonist = s.controller[ch]
    else:
        return False
    return True


def unc_discard(r: Context, s: State) -> None:
    """An uncontrolled Character discards the top card of its Location deck face up."""
    deck = s.char_loc[s.active]
    if zone_size(s, deck) > 0:
        if not ensure_top(s, deck, 1):
            return
        move_openly(s, s.top[deck][0], DISCARD)
    s.active += 1
    s.mode = TURN_START


def ability_next(r: Context, s: State) -> None:
    """Resolve the controlled ability effects in order; stop at the first that needs a choice."""
    ch = s.active
    effects = r.c.char_controlled[ch] if ch != s.cancelled else ()
    while s.ability_index < len(effects):
        effect = effects[s.ability_index]
        s.ability_index += 1
        if _auto_ability(s, ch, effect):
            continue
        kind = effect["kind"]
        if kind == "cancel_ability":
            s.mode = ABILITY_CANCEL
            return
        if kind in ("give_pool_marker", "give_pool_markers") and any(s.pool):
            s.count = effect["count"]
            s.mode = GIVE_SEAT
            return
        if kind == "free_move_to_section":
            section = r.section_index(effect["section"])
            # a free move, but along Links: none that only Vehicles may use (the Caves)
            if can_enter(r, s, ch, section) and r.walk_reach[s.char_loc[ch]][r.c.section_location[section]]:
                s.target = section
                s.mode = REED_FREE
                return
    s.mode = STEP_MOVE


def can_enter(r: Context, s: State, ch: int, section: int) -> bool:
    """A Character may enter a Section unless it is the Robot, or its Marker is there."""
    colour = r.c.char_colour[ch]
    return colour >= 0 and not (s.section_markers[section] >> colour) & 1 and s.char_section[ch] != section


# -- playing cards ------------------------------------------------------------------------------
def playable(r: Context, s: State, step_type: int) -> list[int]:
    """Cards of the step's type the active player may play now."""
    bit = 1 << step_type
    if s.forbid & bit or s.excl & bit:
        return []
    ch = s.active
    gear = GEAR0 + ch
    out = []
    played_of_type = -1
    ctype, excl = r.ctype, r.excl
    for card, z in enumerate(s.where):
        if z == gear and ctype[card] == step_type:
            if excl[card] & bit:
                if played_of_type < 0:
                    played_of_type = sum(1 for c in cards_in(s, PLAYED0 + ch) if ctype[c] == step_type)
                    played_of_type += (s.excl >> LEFT_SHIFT) & bit
                if played_of_type:
                    continue
            out.append(card)
    return out


def play_card(r: Context, s: State, card: int) -> None:
    """Play ``card`` face up: resolve its effect, then add its value to the step's total."""
    ch = s.active
    t = r.ctype[card]
    vplay = r.vplay[card]
    counts = True
    if vplay is not None:
        vehicle, to_messages, counts = vplay
        s.vehicle_loc[vehicle] = s.char_loc[ch]
        if to_messages:
            face_up_to_messages(s, card)
            if r.options["crawler_is_move_card"]:
                s.excl |= (1 << t) << LEFT_SHIFT  # still a card of its type played this turn
        else:
            move_openly(s, card, PLAYED0 + ch)
    else:
        move_openly(s, card, PLAYED0 + ch)
    s.forbid |= r.forbid[card]
    s.excl |= r.excl[card]
    aura = r.aura[card]
    if aura is not None:
        s.auras.append([ch, aura[0], int(aura[1])])
    if counts:
        value = r.cvalue[card]
        if t == MOVE_T:
            s.move_total += value
            s.move_cards += 1
        elif t == SEARCH_T:
            s.points += value
        elif t == GET_T:
            s.draws += value
    if r.swap[card] and hand(s, ch) and swap_targets(s):
        s.mode = SCRAP_TARGET


def swap_targets(s: State) -> list[int]:
    """Other seats holding at least one card in hand."""
    me = controller_seat(s)
    return [seat for seat in range(s.n) if seat != me and hand(s, s.seat_char[seat])]


# -- moving -------------------------------------------------------------------------------------
def drive_options(r: Context, s: State) -> list[tuple[int, int]]:
    """(vehicle, destination) pairs the active Character may declare now."""
    ch = s.active
    if s.drive >= 0 or s.move_cards or s.char_section[ch] >= 0:
        return []
    here = s.char_loc[ch]
    return [
        (v, dest)
        for v, at in enumerate(s.vehicle_loc)
        if at == here
        for dest in range(4)
        if dest != here and r.drive_dist[here][dest] < 10**6
    ]


def declare_drive(r: Context, s: State, vehicle: int, dest: int) -> None:
    """Take the Vehicle card, declare the destination; controlled Characters here may ride."""
    ch = s.active
    s.drive, s.dest = vehicle, dest
    here = s.char_loc[ch]
    s.ask = [
        x for x in range(6) if x != ch and s.controller[x] >= 0 and s.char_loc[x] == here and s.char_section[x] < 0
    ]
    if r.c.vehicle_capacity[vehicle] <= 1:
        s.ask = []
    s.passengers = []


def answer_ride(r: Context, s: State, ride: bool) -> None:
    """The asked player accepts or refuses; asking stops when the Vehicle is full."""
    ch = s.ask.pop(0)
    if ride:
        s.passengers.append(ch)
        if len(s.passengers) + 1 >= r.c.vehicle_capacity[s.drive]:
            s.ask = []


def drive_total(r: Context, s: State) -> int:
    """Move value with the Vehicle bonus (Moonette: add then multiply; Crawler: +1 per card)."""
    kind, amount = r.c.vehicle_bonus[s.drive]
    if kind == "multiply_total":
        return s.move_total * amount
    return s.move_total + amount * s.move_cards


def move_end(r: Context, s: State) -> None:
    """Step I's consequence: drive the declared Vehicle, or spend points on Links and Sections."""
    here = s.char_loc[s.active]
    if s.drive >= 0:
        s.points = drive_total(r, s)
        if r.drive_dist[here][s.dest] <= s.points:
            drive_to(s, s.dest)
            s.points = 0
            begin_search(s)
        elif r.options["vehicle_fallback"] and fallback_destinations(r, s):
            s.mode = DRIVE_FALLBACK
        else:
            begin_search(s)
        return
    s.points = s.move_total
    if walk_options(r, s):
        s.mode = MOVE_POINTS
    else:
        begin_search(s)


def drive_to(s: State, dest: int) -> None:
    """Driver, passengers and the Vehicle tile arrive at ``dest``."""
    for ch in [s.active, *s.passengers]:
        s.char_loc[ch] = dest
        s.char_section[ch] = -1
    s.vehicle_loc[s.drive] = dest


def fallback_destinations(r: Context, s: State) -> list[int]:
    """Other destinations within the driver's total (the Crawler example)."""
    here = s.char_loc[s.active]
    return [d for d in range(4) if d != here and r.drive_dist[here][d] <= s.points]


def walk_options(r: Context, s: State) -> list[tuple[str, int]]:
    """("goto", Location) and ("enter", Section) moves affordable with the remaining points."""
    ch = s.active
    here = s.char_loc[ch]
    cost = r.c.link_cost[here]
    out = [("goto", dest) for dest in range(4) if r.walk_ok[here][dest] and cost[dest] <= s.points]
    if s.char_section[ch] < 0:
        for sec, loc in enumerate(r.c.section_location):
            if loc == here and r.c.section_entry[sec] <= s.points and can_enter(r, s, ch, sec):
                out.append(("enter", sec))
    return out


def walk(r: Context, s: State, dest: int) -> None:
    """Move along a Link (leaving any Section)."""
    ch = s.active
    s.points -= r.c.link_cost[s.char_loc[ch]][dest]
    s.char_loc[ch], s.char_section[ch] = dest, -1
    if not walk_options(r, s):
        begin_search(s)


def enter(r: Context, s: State, section: int) -> None:
    """Move into a Section of the current Location; movement ends."""
    s.points -= r.c.section_entry[section]
    s.char_section[s.active] = section
    begin_search(s)


def begin_search(s: State) -> None:
    """Unused Move points are lost; step II starts."""
    s.points = 0
    s.mode = STEP_SEARCH


# -- search and get -----------------------------------------------------------------------------
def search_total(r: Context, s: State) -> int:
    """Search value: cards + ability bonus + auras of Characters now in the same Location."""
    ch = s.active
    total = s.points + s.bonus
    if not r.options["search_bonus_without_cards"] and s.points == 0:
        return 0
    here = s.char_loc[ch]
    for source, amount, include_self in s.auras:
        if (source != ch or include_self) and s.char_loc[source] == here:
            total += amount
    return total


def search_look(r: Context, s: State) -> None:
    """Look at the top cards of the Location deck (chance reveals unknown ones), then reorder."""
    deck = s.char_loc[s.active]
    wanted = search_total(r, s)
    if wanted <= 0 or zone_size(s, deck) == 0:
        s.mode = GET_MANDATORY
        return
    if not ensure_top(s, deck, wanted):
        return
    look = s.top[deck][:wanted]
    seat = controller_seat(s)
    for card in look:
        forget(s, card)
        tell(s, seat, card)
    if len(look) >= 2:
        s.look, s.placed = look, []
        s.mode = REORDER
    else:
        s.mode = GET_MANDATORY


def place(s: State, card: int) -> None:
    """Put ``card`` next from the top; the last one goes below without a choice."""
    s.placed.append(card)
    if len(s.placed) == len(s.look) - 1:
        s.placed.extend(c for c in s.look if c not in s.placed)
    if len(s.placed) == len(s.look):
        deck = s.char_loc[s.active]
        s.top[deck] = s.placed + s.top[deck][len(s.look) :]
        s.look, s.placed = [], []
        s.mode = GET_MANDATORY


def draw_to_hand(s: State, deck: int) -> None:
    """The top card of ``deck`` (already known to the state) goes secretly to the active hand."""
    card = s.top[deck][0]
    move_secretly(s, card, GEAR0 + s.active, controller_seat(s))


def get_mandatory(r: Context, s: State) -> None:
    """Step III: the mandatory draw of the top card of the Location deck."""
    deck = s.char_loc[s.active]
    if zone_size(s, deck) > 0:
        if not ensure_top(s, deck, 1):
            return
        draw_to_hand(s, deck)
    s.mode = STEP_GET


def get_draws(r: Context, s: State) -> None:
    """Step III's consequence: one more card per point of Get value."""
    deck = s.char_loc[s.active]
    while s.draws > 0 and zone_size(s, deck) > 0:
        if not ensure_top(s, deck, 1):
            return
        draw_to_hand(s, deck)
        s.draws -= 1
    s.draws = 0
    s.mode = STEP_REPAIR


def scrap_swap(s: State, taken: int) -> None:
    """Scrap Metal: the chosen card and the other player's card change hands."""
    me, other = controller_seat(s), s.target
    move_secretly(s, s.chosen, GEAR0 + s.seat_char[other], me, other)
    move_secretly(s, taken, GEAR0 + s.active, me, other)
    s.chosen, s.target = -1, -1
    s.mode = STEP_REPAIR


def turn_end(r: Context, s: State) -> None:
    """End-of-turn card effects (Crying), expulsion, and the next Character."""
    ch = s.active
    for card in cards_in(s, PLAYED0 + ch):
        face_up = r.eot[card]
        if face_up is not None:
            if face_up:
                face_up_to_messages(s, card)
            else:
                move_secretly(s, card, MSG, controller_seat(s))
    s.char_section[ch] = -1
    s.active += 1
    s.mode = TURN_START
