"""Events with their causes: the words and numbers the rules note while they carry out an action
(:func:`shadowtable.core.events.note`; see docs/games/shadow-planet.md, "Events").

Every change of a public quantity is noted with its cause and its numbers; anything hidden is
noted twice, with the value to the seats that know it and without it to the others.  Callers
test ``s.journal is not None`` before building a text, so simulations pay one attribute test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shadowtable.core.events import note, others
from shadowtable.games.shadow_planet.board import set_countdown, set_repair, set_threat
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.effects import COLOURS, TYPES
from shadowtable.games.shadow_planet.state import END_COUNTDOWN, END_REPAIR, END_THREAT, State

TYPE_NAMES = tuple(t.capitalize() for t in TYPES)
"""Operation card types as the rulebook writes them (Move .. Attack)."""

SETTERS: dict[str, Callable[[Context, State, int], None]] = {
    "countdown": set_countdown,
    "repair": set_repair,
    "threat": set_threat,
}
END_BITS = ((END_THREAT, "threat"), (END_REPAIR, "repair"), (END_COUNTDOWN, "countdown"))
"""Latched end conditions in priority order, with the indicator behind each."""


def recording(s: State) -> bool:
    """Whether the kernel records events now (else building a text is wasted work)."""
    return s.journal is not None


def article(word: str) -> str:
    """``a`` or ``an`` before ``word``."""
    return "an" if word[:1] in "aeiou" else "a"


def cards(count: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} card{'s' if count != 1 else ''}"


def who(ctx: Context, s: State, ch: int) -> str:
    """A Character and the seat controlling it, e.g. ``John Vargo (seat 1)``."""
    seat = s.controller[ch]
    name = ctx.content.char_names[ch]
    return f"{name} (seat {seat})" if seat >= 0 else f"{name} (uncontrolled)"


def end_value(ctx: Context, name: str) -> int:
    """The position at which an indicator ends the game."""
    return ctx.content.threat_max if name == "threat" else 0


def move_indicator(ctx: Context, s: State, name: str, value: int, why: str, rule: str, **data: Any) -> None:
    """Set indicator ``name`` (``countdown``, ``repair``, ``threat``) to ``value`` (clamped) and
    note the change, ``"<Name> <before> -> <after>: <why>"`` with ``data``; an end condition it
    latches is noted too (kind ``latch``)."""
    before, latched = getattr(s, name), s.latched
    SETTERS[name](ctx, s, value)
    if s.journal is None:
        return
    after = getattr(s, name)
    label = name.capitalize()
    head = f"{label} {before} -> {after}" if after != before else f"{label} stays at {before}"
    if after != value:
        head += f" (clamped: {value} is off the track)"
    note(s, name, f"{head}: {why}", rule=rule, indicator=name, before=before, after=after, **data)
    newly = s.latched & ~latched if ctx.options["latched_end"] else 0
    for bit, indicator in END_BITS:
        if newly & bit:
            at = end_value(ctx, indicator)
            note(
                s,
                "latch",
                f"{indicator.capitalize()} is at {at}: the game ends at the end of this round",
                rule="messages",
                indicator=indicator,
                value=at,
                round=s.round,
            )


def compare(
    ctx: Context, s: State, name: str, up: int, up_type: int, down: int, down_type: int, rule: str = "messages"
) -> None:
    """One Messages consequence: ``up`` cards of ``up_type`` against ``down`` of ``down_type``
    move indicator ``name`` by the difference (``+`` when ``up`` outnumbers)."""
    up_name, down_name = TYPE_NAMES[up_type], TYPE_NAMES[down_type]
    why = ""
    if s.journal is not None:
        if up > down:
            why = f"{up_name} cards {up} outnumber {down_name} cards {down}"
        elif down > up:
            why = f"{down_name} cards {down} outnumber {up_name} cards {up}"
        else:
            why = f"{up_name} cards {up} and {down_name} cards {down} cancel out"
    counts = {TYPES[up_type]: up, TYPES[down_type]: down}
    move_indicator(ctx, s, name, getattr(s, name) + up - down, why, rule, cause="messages", **counts)


def marker(
    ctx: Context, s: State, seat: int, colour: int, why: str, rule: str, cause: str, *, taken: bool = True, **data: Any
) -> None:
    """Note a pool Marker of ``colour`` received by ``seat`` (or not: the pool is empty)."""
    if s.journal is None or colour < 0:
        return
    name = COLOURS[colour]
    if taken:
        text = f"seat {seat} receives {article(name)} {name} Marker ({s.sheets[seat * 5 + colour]} now): {why}"
    else:
        text = f"seat {seat} receives no {name} Marker (the pool has none left): {why}"
    note(
        s,
        "marker",
        text,
        rule=rule,
        seat=seat,
        colour=name,
        to="sheet",
        cause=cause,
        received=int(taken),
        total=s.sheets[seat * 5 + colour],
        pool=s.pool[colour],
        **data,
    )


def secret(
    s: State,
    kind: str,
    knowers: tuple[int, ...] | None,
    told: str,
    untold: str,
    rule: str,
    shown: dict[str, Any],
    **data: Any,
) -> None:
    """Note a hidden value: ``told`` (with ``shown`` added to ``data``) to ``knowers`` (seats
    below 0 are skipped), ``untold`` (``data`` only) to every other seat (and spectators when no
    seat knows it).  ``knowers`` ``None``: everyone knows it and is told ``told``."""
    if knowers is None:
        note(s, kind, told, rule=rule, **data, **shown)
        return
    seats = tuple(k for k in knowers if k >= 0)
    if seats:
        note(s, kind, told, rule=rule, seats=seats, **data, **shown)
    rest = others(s.n, *seats)
    if len(rest) == s.n:
        note(s, kind, untold, rule=rule, **data)  # nobody knows it: everyone is told the same
    elif rest:
        note(s, kind, untold, rule=rule, seats=rest, **data)
