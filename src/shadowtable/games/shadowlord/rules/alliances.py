"""Alliance membership: joining, changing sides, captives, leaving the game, Diplomat retreats,
the seven-character limit (Dismissing) and the end of the game."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.board import (
    alliance_figs,
    alliance_size,
    control,
    figs_at,
    friendly,
    nearest_friendly,
    place,
    room,
)
from shadowtable.games.shadowlord.content import CARD_VALUES, DIPLOMAT, MASTER
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, MUST_LEAVE, NOBODY, REMOVED, State

NV = CARD_VALUES


def lord(ctx: Context) -> int:
    """The Shadowlord's figure id."""
    return ctx.lord


def where(s: State, f: int) -> int:
    """The galaxy of a figure; a captive is where its captor is."""
    seen = 0
    while s.status[f] == CAPTIVE and seen < 40:
        f = s.captor[f]
        seen += 1
    return s.loc[f] if s.status[f] == ACTIVE else NOBODY


def alive_seats(s: State) -> list[int]:
    return [k for k in range(len(s.seat_out)) if not s.seat_out[k]]


def recolour(ctx: Context, s: State, f: int, colour: int) -> None:
    """Switch ``f`` to a Power Ring of ``colour``, replacing its Space Ships (supply permitting)."""
    old = s.owner[f]
    n = s.ships[f]
    if old >= 0:
        s.supply[old] += n
    got = min(n, s.supply[colour])
    s.supply[colour] -= got
    s.ships[f] = got
    s.owner[f] = colour


def recolour_loose(ctx: Context, s: State, g: int, colour: int) -> None:
    """Replace the loose Space Ships in ``g`` with ``colour`` (supply permitting)."""
    n = s.loose_n[g]
    if n == 0 or s.loose_col[g] == colour:
        return
    s.supply[s.loose_col[g]] += n
    got = min(n, s.supply[colour])
    s.supply[colour] -= got
    s.loose_n[g] = got
    s.loose_col[g] = colour if got else NOBODY


def release(ctx: Context, s: State, f: int) -> None:
    """Free a captive: it teleports to its Star Master's galaxy with no Space Ships."""
    colour = s.owner[f]
    if colour >= BLACK or not s.alive[colour]:
        remove_figure(ctx, s, f, NOBODY)
        return
    s.status[f] = ACTIVE
    s.captor[f] = NOBODY
    place(s, f, where(s, colour))
    s.ships[f] = 0


def pass_captives(ctx: Context, s: State, loser: int, winner: int) -> None:
    """Captives held by ``loser`` pass to ``winner``; those of the winner's Alliance go free."""
    for c in range(len(s.captor)):
        if s.status[c] == CAPTIVE and s.captor[c] == loser:
            s.captor[c] = winner
            if s.owner[winner] < BLACK and friendly(ctx, s.owner[c], s.owner[winner]):
                release(ctx, s, c)


def colour_word(ctx: Context, colour: int) -> str:
    """A colour in words: an Alliance's colour, or "the shadows" for black."""
    return ctx.content.colours[colour] if 0 <= colour < BLACK else "the shadows"


def remove_figure(ctx: Context, s: State, f: int, card_seat: int) -> None:
    """``f`` leaves the game; its portrait cards go to ``card_seat`` (or the discard pile)."""
    for v in range(NV):
        n = s.pcards[f * NV + v]
        if n:
            if card_seat >= 0:
                s.hand[card_seat * NV + v] += n
            else:
                s.discard[v] += n
            s.pcards[f * NV + v] = 0
    colour = s.owner[f]
    if colour >= 0:
        s.supply[colour] += s.ships[f]
    s.ships[f] = 0
    holder_galaxy = where(s, f)
    s.status[f] = REMOVED
    place(s, f, NOBODY)
    s.captor[f] = NOBODY
    if s.stone == f:
        _rehome_stone(ctx, s, f, holder_galaxy)
    for c in range(len(s.captor)):
        if s.status[c] == CAPTIVE and s.captor[c] == f:
            release(ctx, s, c)


def _rehome_stone(ctx: Context, s: State, f: int, g: int) -> None:
    """The Power Stone is never destroyed: it passes to a friend in the galaxy, else to the
    Shadowlord (REC)."""
    colour = s.owner[f]
    for other in figs_at(s, g) if g >= 0 else []:
        if other != f and s.owner[other] == colour and room(ctx, s, other) > 0:
            s.stone = other
            return
    lf = lord(ctx)
    s.stone = lf if s.status[lf] == ACTIVE else NOBODY


def eliminate(ctx: Context, s: State, colour: int, captor: int, reason: str) -> None:
    """An Alliance leaves the game (its Star Master was captured, or it surrendered)."""
    seat = ctx.seat_of(colour)
    gainer = ctx.seat_of(s.owner[captor]) if captor >= 0 and s.owner[captor] < BLACK else NOBODY
    members = alliance_figs(s, colour, captives=True)
    portrait_cards = sum(sum(s.pcards[f * NV : f * NV + NV]) for f in members)
    if captor >= 0 and s.stone in alliance_figs(s, colour, captives=True) and s.stone != captor:
        s.stone = captor
    for f in alliance_figs(s, colour, captives=True):
        remove_figure(ctx, s, f, gainer)
    for g in range(len(s.loose_n)):
        if s.loose_n[g] and s.loose_col[g] == colour:
            s.boxed[colour] += s.loose_n[g]
            s.loose_n[g] = 0
            s.loose_col[g] = NOBODY
    s.boxed[colour] += s.supply[colour]
    s.supply[colour] = 0
    s.alive[colour] = 0
    seat_leaves = not any(s.alive[a] for a in ctx.seat_alliances[seat])
    hand_cards = sum(s.hand[seat * NV : seat * NV + NV]) if seat_leaves else 0
    to_gainer = gainer >= 0 and not len(ctx.seat_alliances[seat]) > 1
    if s.journal is not None:
        name = ctx.content.colours[colour]
        why = f"its Star Master was captured by {ctx.content.fig_name[captor]}" if captor >= 0 else reason
        cards = f"{counted(portrait_cards, 'Power Card')} from its portraits"
        if seat_leaves:
            cards += f" and {hand_cards} from the Attack Hand of seat {seat}"
        whither = (
            f"go to seat {gainer}" if to_gainer and seat_leaves or gainer >= 0 and not seat_leaves else "are discarded"
        )
        if not seat_leaves and gainer >= 0:
            whither = f"go to seat {gainer} (portraits)"
        note(
            s,
            "leave",
            f"{name} leaves the game: {why}; {counted(len(members), 'character')} removed; {cards} {whither}",
            rule="capture_master" if captor >= 0 else "surrender",
            colour=colour,
            seat=seat,
            reason="captured" if captor >= 0 else reason,
            captor=captor,
            gainer=gainer,
            characters=members,
            portrait_cards=portrait_cards,
            hand_cards=hand_cards,
            seat_out=seat_leaves,
        )
    if seat_leaves:
        s.seat_out[seat] = 1
        two_alliances = len(ctx.seat_alliances[seat]) > 1
        for v in range(NV):
            n = s.hand[seat * NV + v]
            s.hand[seat * NV + v] = 0
            if gainer >= 0 and not two_alliances:
                s.hand[gainer * NV + v] += n
            else:
                s.discard[v] += n
    check_end(ctx, s)


def lord_defeated(ctx: Context, s: State) -> bool:
    return s.status[lord(ctx)] == REMOVED


def check_end(ctx: Context, s: State) -> None:
    """Master of the Universe: the Shadowlord and every other Star Master defeated."""
    if s.end:
        return
    seats = alive_seats(s)
    if not seats:
        s.end = "shadowlord_wins"
        s.winner = NOBODY
        note(
            s,
            "end",
            "no Alliance is left: the Shadowlord is Master of the Universe and every player loses",
            rule="surrender",
            end=s.end,
            winner=NOBODY,
        )
    elif len(seats) == 1 and lord_defeated(ctx, s):
        s.end = "master_of_universe"
        s.winner = seats[0]
        note(
            s,
            "end",
            f"seat {seats[0]} is Master of the Universe: the Shadowlord and every other Star Master are defeated",
            rule="surrender",
            end=s.end,
            winner=seats[0],
        )


def battle_in(ctx: Context, s: State, g: int) -> bool:
    """Fighters (non-Diplomats) of two hostile sides share ``g`` with no Truce."""
    if s.truce >> g & 1:
        return False
    kind = ctx.content.fig_kind
    cols = {s.owner[f] for f in figs_at(s, g) if kind[f] != DIPLOMAT}
    return any(not friendly(ctx, a, b) for a in cols for b in cols)


def resolve_diplomats(ctx: Context, s: State, exempt: int = NOBODY) -> None:
    """The Diplomatic Immunity retreat clauses, for every colour except ``exempt``."""
    kind = ctx.content.fig_kind
    loc = s.loc
    with_diplomats = sorted({loc[f] for f in ctx.diplomats if loc[f] >= 0})
    for g in with_diplomats:
        here = figs_at(s, g)
        dips = [f for f in here if kind[f] == DIPLOMAT]
        if not dips or exempt >= 0 and any(s.flags[f] & MUST_LEAVE for f in here):
            continue
        colours = {s.owner[f] for f in dips}
        escorted = {c for c in colours if any(s.owner[f] == c and kind[f] != DIPLOMAT for f in here)}
        owner = control(ctx, s, g)
        leaving: set[int] = set()
        for c in colours:
            enemy_dips = any(not friendly(ctx, c, d) for d in colours)
            if c in escorted:
                if battle_in(ctx, s, g) and not enemy_dips:
                    leaving.add(c)
            elif enemy_dips and not any(not friendly(ctx, c, e) for e in escorted):
                loose = s.loose_col[g] if s.loose_n[g] else NOBODY
                if loose == NOBODY or not friendly(ctx, loose, c):
                    leaving.add(c)
            elif (
                owner != NOBODY
                and not friendly(ctx, owner, c)
                or any(kind[f] != DIPLOMAT and not friendly(ctx, s.owner[f], c) for f in here)
            ):
                leaving.add(c)
        for c in sorted(leaving):
            if c == exempt:
                continue
            target = nearest_friendly(ctx, s, g, c)
            if target == g:
                continue  # no friendly galaxy and already on their Home Planet: they stay
            retreating = [f for f in dips if s.owner[f] == c]
            for f in retreating:
                place(s, f, target)
            who = "Diplomat retreats" if len(retreating) == 1 else "Diplomats retreat"
            note(
                s,
                "retreat",
                f"{ctx.content.colours[c]} {who} from {ctx.content.galaxy_name(g)} to "
                f"{ctx.content.galaxy_name(target)} (Diplomatic Immunity)",
                rule="immunity",
                colour=c,
                galaxy=g,
                to=target,
            )


def can_join(s: State, ctx: Context, colour: int) -> bool:
    return alliance_size(s, colour) < ctx.content.supplies["alliance_limit"]


def dismissable(ctx: Context, s: State, colour: int) -> list[int]:
    """Members that may be Dismissed: active (not captive), not the Star Master."""
    return [f for f in alliance_figs(s, colour) if ctx.content.fig_kind[f] != MASTER]
