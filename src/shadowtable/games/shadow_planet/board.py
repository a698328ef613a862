"""Low-level state edits: moving cards between zones, knowledge bits, indicators, Markers."""

from __future__ import annotations

from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import (
    END_COUNTDOWN,
    END_REPAIR,
    END_THREAT,
    GEAR0,
    MSG,
    TEMPLE,
    State,
)

WORD_BITS = 62
"""Bits taken from a mask at a time: a word this size stays a small int (fast when compiled)."""
WORD = (1 << WORD_BITS) - 1


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, by id."""
    out = []
    base = 0
    while mask:
        word = mask & WORD
        while word:
            low = word & -word
            out.append(base + low.bit_length() - 1)
            word ^= low
        mask >>= WORD_BITS
        base += WORD_BITS
    return out


def cards_in(s: State, zone: int) -> list[int]:
    """Cards in ``zone``, by id."""
    return cards_of(s.zones[zone])


def zone_size(s: State, zone: int) -> int:
    """Number of cards in ``zone``."""
    return s.zones[zone].bit_count()


def hand(s: State, ch: int) -> list[int]:
    """The unplayed Gear of Character ``ch`` (its controller's hand)."""
    return cards_in(s, GEAR0 + ch)


def move_card(s: State, card: int, zone: int) -> None:
    """Move ``card`` to ``zone`` (leaving any known top or the Temple pile)."""
    old = s.where[card]
    if old <= MSG and card in s.top[old]:
        s.top[old].remove(card)
    elif old == TEMPLE:
        s.temple.remove(card)
    s.where[card] = zone
    bit = 1 << card
    s.zones[old] &= ~bit
    s.zones[zone] |= bit


def forget(s: State, card: int) -> None:
    """Nobody knows where ``card`` is any more (it moved out of sight)."""
    bit = 1 << card
    if s.public & bit:
        s.public ^= bit
    known = s.known
    for seat in range(len(known)):
        if known[seat] & bit:
            known[seat] ^= bit


def tell(s: State, seat: int, card: int) -> None:
    """``seat`` now knows where ``card`` is."""
    s.known[seat] |= 1 << card


def tell_all(s: State, card: int) -> None:
    """Everyone knows where ``card`` is (it is face up)."""
    s.public |= 1 << card


def move_secretly(s: State, card: int, zone: int, *seats: int) -> None:
    """Move ``card`` where only ``seats`` see it."""
    move_card(s, card, zone)
    forget(s, card)
    for seat in seats:
        if seat >= 0:
            tell(s, seat, card)


def move_openly(s: State, card: int, zone: int) -> None:
    """Move ``card`` face up, in everyone's sight."""
    move_card(s, card, zone)
    forget(s, card)
    tell_all(s, card)


def set_threat(r: Context, s: State, value: int) -> None:
    """Move the Threat Indicator (clamped); reaching the end latches the game end."""
    s.threat = max(0, min(r.content.threat_max, value))
    if s.threat >= r.content.threat_max:
        s.latched |= END_THREAT


def set_repair(r: Context, s: State, value: int) -> None:
    """Move the Repair Indicator (clamped); 0 latches the game end."""
    s.repair = max(0, min(r.content.repair_max, value))
    if s.repair == 0:
        s.latched |= END_REPAIR


def set_countdown(r: Context, s: State, value: int) -> None:
    """Move the Countdown Indicator (clamped); 0 latches the game end."""
    s.countdown = max(0, min(r.content.countdown_max, value))
    if s.countdown == 0:
        s.latched |= END_COUNTDOWN


def take_marker(s: State, seat: int, colour: int) -> bool:
    """Move one Marker of ``colour`` from the pool to ``seat``'s sheet (none if the pool is empty)."""
    if colour < 0 or s.pool[colour] == 0:
        return False
    s.pool[colour] -= 1
    s.sheets[seat * 5 + colour] += 1
    return True


def seat_of(s: State, ch: int) -> int:
    """The seat controlling Character ``ch`` (-1 if uncontrolled)."""
    return s.controller[ch]
