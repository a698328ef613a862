"""Board queries: who is where, who controls a galaxy, friends and enemies, retreat targets."""

from __future__ import annotations

from collections import deque
from typing import Any

from shadowtable.games.shadowlord.content import DIPLOMAT, MAX_GALAXIES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, NOBODY, State


def friendly(ctx: Context, a: int, b: int) -> bool:
    """Same Alliance, or two Alliances of one player (2-player game: permanent Truce)."""
    if a == b:
        return True
    if a >= BLACK or b >= BLACK or a < 0 or b < 0:
        return False
    return ctx.config.seat_of[a] == ctx.config.seat_of[b]


def occupancy(loc: list[int], galaxies: int) -> list[int]:
    """For each galaxy, the bitmask of the figures whose location it is."""
    at = [0] * galaxies
    for f in range(len(loc)):
        g = loc[f]
        if g >= 0:
            at[g] |= 1 << f
    return at


def figs_at(s: State, g: int) -> list[int]:
    """Active (not captive) figures in galaxy ``g``, by id (only active figures have a location)."""
    at = s.at
    if at is None:
        at = s.at = occupancy(s.loc, MAX_GALAXIES)
    mask = at[g]
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def place(s: State, f: int, g: int) -> None:
    """Put figure ``f`` in galaxy ``g`` (``NOBODY``: off the board), keeping the occupancy index."""
    at = s.at
    if at is not None:
        old = s.loc[f]
        if old >= 0:
            at[old] &= ~(1 << f)
        if g >= 0:
            at[g] |= 1 << f
    s.loc[f] = g


def control(ctx: Context, s: State, g: int) -> int:
    """The colour controlling ``g`` (4 = shadows) or ``NOBODY``.

    Rings control; with several ring colours the loose Space Ships decide; a Home Planet is its
    owner's unless an enemy ring or loose ship is there.
    """
    owner = s.owner
    cols = {owner[f] for f in figs_at(s, g)}
    loose = s.loose_col[g] if s.loose_n[g] > 0 else NOBODY
    home_owner = ctx.home_owner[g]
    if (
        home_owner != NOBODY
        and s.alive[home_owner]
        and all(friendly(ctx, x, home_owner) for x in cols)
        and (loose == NOBODY or friendly(ctx, loose, home_owner))
    ):
        if len(cols) == 1:
            return next(iter(cols))
        return loose if loose != NOBODY else home_owner
    if len(cols) == 1:
        return next(iter(cols))
    if cols:
        return loose if loose in cols else NOBODY
    return loose


def controls(ctx: Context, s: State, g: int, a: int) -> bool:
    """Whether ``a`` (or a friendly Alliance of the same player) controls ``g``."""
    owner = control(ctx, s, g)
    return owner != NOBODY and friendly(ctx, owner, a)


def enemy_present(ctx: Context, s: State, g: int, a: int) -> bool:
    """An enemy ring (shadows included) is in ``g``."""
    return any(not friendly(ctx, s.owner[f], a) for f in figs_at(s, g))


def enemy_loose(ctx: Context, s: State, g: int, a: int) -> bool:
    return s.loose_n[g] > 0 and not friendly(ctx, s.loose_col[g], a)


def diplomat_of(ctx: Context, s: State, g: int, pred: Any) -> bool:
    """Some active Diplomat in ``g`` whose colour satisfies ``pred``."""
    kind = ctx.content.fig_kind
    return any(kind[f] == DIPLOMAT and pred(s.owner[f]) for f in figs_at(s, g))


def protected_against(ctx: Context, s: State, g: int, a: int) -> bool:
    """``g`` holds a Diplomat that is an enemy of ``a`` and keeps his Diplomatic Immunity.

    "The Diplomats cancel each other's Diplomatic Immunity": a Diplomat sharing ``g`` with a
    Diplomat hostile to him protects nobody there, so the other characters may come in and
    Battle while the Diplomats talk."""
    kind = ctx.content.fig_kind
    owner = s.owner
    dips = [owner[f] for f in figs_at(s, g) if kind[f] == DIPLOMAT]
    return any(not friendly(ctx, d, a) and all(friendly(ctx, d, e) for e in dips) for d in dips)


def alliance_figs(s: State, a: int, *, captives: bool = False) -> list[int]:
    """Figures of colour ``a`` that are active (and captive, if asked)."""
    owner, status = s.owner, s.status
    out: list[int] = []
    for f in range(len(owner)):
        if owner[f] == a and (status[f] == ACTIVE or captives and status[f] == CAPTIVE):
            out.append(f)
    return out


def range_of(s: State, f: int) -> int:
    """Movement range and duel bonus: Space Ships plus the Power Stone."""
    return s.ships[f] + (1 if s.stone == f else 0)


def room(ctx: Context, s: State, f: int) -> int:
    """Free slots in ``f``'s Power Ring (the Power Stone takes one)."""
    return ctx.content.supplies["ring_capacity"] - range_of(s, f)


def nearest_friendly(ctx: Context, s: State, g: int, a: int) -> int:
    """The nearest galaxy controlled by ``a`` (ties: lowest id); its Home Planet if none."""
    seen = {g}
    queue = deque([g])
    while queue:
        here = queue.popleft()
        for n in sorted(ctx.content.neighbours[here]):
            if n in seen:
                continue
            seen.add(n)
            if controls(ctx, s, n, a) and not enemy_present(ctx, s, n, a):
                return n
            queue.append(n)
    return ctx.content.home_of[a]


def alliance_size(s: State, a: int) -> int:
    """Characters in the Alliance, captives included (the seven-character limit)."""
    return len(alliance_figs(s, a, captives=True))


def add_loose(ctx: Context, s: State, g: int, colour: int, n: int) -> int:
    """Leave up to ``n`` ships of ``colour`` loose in ``g``; returns how many could not be left."""
    if n <= 0:
        return 0
    lord = ctx.lord
    if colour == BLACK or (g == ctx.content.fortress and s.status[lord] == ACTIVE):
        return n
    if s.loose_n[g] > 0 and s.loose_col[g] != colour:
        return n
    s.loose_col[g] = colour
    s.loose_n[g] += n
    return 0
