"""Trading and Negotiation: an offer is built item by item by the player who has a decision
pending (Power Cards from the Attack Hand, characters, releasing a captive, permission to pass,
a Truce), then the other player accepts or refuses; an accepted offer is executed at once.
Promises are not modelled (they are not enforced).  At most ``max_offers_per_turn`` offers per
turn and ``MAX_ITEMS`` items per offer keep random play finite.
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.events import note
from shadowtable.core.kernel import Decision, Handler, Task, always
from shadowtable.core.wording import listed
from shadowtable.games.shadowlord.actions import (
    DONE,
    GALAXY0,
    OFFER_CHARACTER0,
    OFFER_GIVE0,
    OFFER_PERMISSION_GIVE,
    OFFER_PERMISSION_WANT,
    OFFER_RELEASE0,
    OFFER_SEND,
    OFFER_SHIP0,
    OFFER_TO0,
    OFFER_TRUCE0,
    OFFER_WANT0,
    REVOKE_PERMISSION0,
    REVOKE_TRUCE0,
    YES,
)
from shadowtable.games.shadowlord.board import add_loose, alliance_size, control, figs_at, place, room
from shadowtable.games.shadowlord.content import CARD_VALUES, MASTER
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats, recolour, release, resolve_diplomats
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, NOBODY, STARTED, STOPPED, Offer, State, new_offer
from shadowtable.games.shadowlord.tasks import (
    AnswerOffer,
    BuildOffer,
    Commit,
    DiscardStormShip,
    Fight,
    Move,
    PlaceTraded,
    SeatDecision,
    Vote,
    decider,
)

NV = CARD_VALUES
MAX_ITEMS = 4
MAX_WANT_PER_VALUE = 2
NO_OFFER_TASKS: frozenset[type[SeatDecision]] = frozenset({BuildOffer, AnswerOffer, Vote, Commit, DiscardStormShip})
"""Decisions during which no negotiation offer may be started nor anything revoked (offers
"can occur at any time": the ``PlacePortraitCards`` decision after the fight allows them too)."""


def offer_starts(ctx: Context, s: State, task: SeatDecision) -> list[int]:
    """``offer to seat k`` actions available at this decision point."""
    if s.offer is not None or type(task) in NO_OFFER_TASKS or s.offers >= ctx.options["max_offers_per_turn"]:
        return []
    return [OFFER_TO0 + k for k in alive_seats(s) if k != task.seat]


def revocations(ctx: Context, s: State, task: SeatDecision) -> list[int]:
    """Truces and permissions the deciding seat may revoke now ("at any time"): a Truce in a
    galaxy where he has characters, before this turn's Battles are planned; a permission he
    gave."""
    if not s.truce and not any(s.perm) or type(task) in NO_OFFER_TASKS:
        return []
    seat = task.seat
    out: list[int] = []
    if s.truce and any(type(t) is Fight for t in s.stack):
        mine = ctx.seat_alliances[seat]
        for g in range(ctx.content.num_galaxies):
            if s.truce >> g & 1 and any(s.owner[f] in mine for f in figs_at(s, g)):
                out.append(REVOKE_TRUCE0 + g)
    granted = 0
    for a in ctx.seat_alliances[seat]:
        granted |= s.perm[a]
    for k in range(ctx.players):
        if k != seat and any(granted >> b & 1 for b in ctx.seat_alliances[k]):
            out.append(REVOKE_PERMISSION0 + k)
    return out


def revoke(ctx: Context, s: State, seat: int, action: int) -> None:
    """Revoke a Truce (a Battle follows in Step 6) or a permission; then the Diplomatic
    Immunity retreat clauses."""
    if action >= REVOKE_PERMISSION0:
        k = action - REVOKE_PERMISSION0
        bits = 0
        for b in ctx.seat_alliances[k]:
            bits |= 1 << b
        for a in ctx.seat_alliances[seat]:
            s.perm[a] &= ~bits
        note(s, "revoke", f"seat {seat} revokes the permission of seat {k}", rule="trade", seat=seat, of=k)
    else:
        g = action - REVOKE_TRUCE0
        s.truce &= ~(1 << g)
        note(
            s,
            "revoke",
            f"seat {seat} revokes the Truce in {ctx.content.galaxy_name(g)}: a Battle follows there",
            rule="truce",
            seat=seat,
            galaxy=g,
        )
    before = any(type(t) is Move for t in s.stack)
    resolve_diplomats(ctx, s, exempt=s.cur if before else NOBODY)


def start_offer(ctx: Context, s: State, seat: int, target: int) -> None:
    s.offers += 1
    s.offer = new_offer(seat, target, NV)
    s.stack.append(BuildOffer(seat))
    note(
        s, "offer", f"seat {seat} starts an offer to seat {target}", rule="trade", made_by=seat, to=target, step="start"
    )


def tradable_chars(ctx: Context, s: State, seat: int) -> list[int]:
    kinds = ctx.content.fig_kind
    colours = ctx.seat_alliances[seat]
    owner, status = s.owner, s.status
    return [f for f in range(len(owner)) if status[f] == ACTIVE and owner[f] in colours and kinds[f] != MASTER]


def releasable(ctx: Context, s: State, holder_seat: int, owner_seat: int) -> list[int]:
    """Captives of ``owner_seat`` held under rings of ``holder_seat``."""
    owner, status, captor = s.owner, s.status, s.captor
    if CAPTIVE not in status:
        return []
    holders = ctx.seat_alliances[holder_seat]
    owners = ctx.seat_alliances[owner_seat]
    return [f for f in range(len(owner)) if status[f] == CAPTIVE and owner[f] in owners and owner[captor[f]] in holders]


def shared_galaxies(ctx: Context, s: State, a: int, b: int) -> list[int]:
    """Galaxies where characters of seats ``a`` and ``b`` are both present."""
    loc, owner = s.loc, s.owner
    seat_of = ctx.config.seat_of
    here_a: set[int] = set()
    here_b: set[int] = set()
    for f in range(len(loc)):
        g = loc[f]
        colour = owner[f]
        if g < 0 or not 0 <= colour < BLACK:
            continue
        seat = seat_of[colour]
        if seat == a:
            here_a.add(g)
        if seat == b:
            here_b.add(g)
    return sorted(here_a & here_b)


def battles_started(s: State) -> bool:
    """The first Battle of this turn has started."""
    return s.battle is not None and any(entry.status == 2 for entry in s.battle.plan)


def build_legal(ctx: Context, s: State, task: BuildOffer) -> list[int]:
    o = s.offer
    if o is None:
        return []
    me: int = o.made_by
    you: int = o.to
    items: int = o.items
    legal = [DONE]
    if items:
        legal.append(OFFER_SEND)
    if items >= MAX_ITEMS:
        return sorted(legal)
    hand = s.hand
    want: list[int] = o.want
    legal += [OFFER_GIVE0 + v for v in range(NV) if hand[me * NV + v]]
    legal += [OFFER_WANT0 + v for v in range(NV) if want[v] < MAX_WANT_PER_VALUE]
    fighting = battles_started(s)  # then nobody may change sides: no characters or ships change hands
    if not fighting:
        offered: list[int] = o.characters
        legal += [
            OFFER_CHARACTER0 + f for f in tradable_chars(ctx, s, me) + tradable_chars(ctx, s, you) if f not in offered
        ]
    released: list[int] = o.release
    legal += [
        OFFER_RELEASE0 + f for f in releasable(ctx, s, me, you) + releasable(ctx, s, you, me) if f not in released
    ]
    if not o.permission_give:
        legal.append(OFFER_PERMISSION_GIVE)
    if not o.permission_want:
        legal.append(OFFER_PERMISSION_WANT)
    truce: list[int] = o.truce
    legal += [OFFER_TRUCE0 + g for g in shared_galaxies(ctx, s, me, you) if g not in truce]
    if not fighting:
        ships: list[int] = o.ships
        have = s.ships
        legal += [
            OFFER_SHIP0 + f for f in ship_sources(ctx, s, me) + ship_sources(ctx, s, you) if ships.count(f) < have[f]
        ]
    return sorted(legal)


def build_offer(ctx: Context, s: State, task: BuildOffer, action: int) -> None:
    """Add one item, send the offer (``offer``), or withdraw it (``done``)."""
    o = s.offer
    if o is None:
        return
    if action == DONE:
        return_escrow(s, o)
        s.offer = None
        note(
            s,
            "offer",
            f"seat {o.made_by} withdraws the offer to seat {o.to}",
            rule="trade",
            made_by=o.made_by,
            to=o.to,
            step="withdrawn",
        )
        return
    if action == OFFER_SEND:
        s.stack.append(AnswerOffer(o.to))
        if s.journal is not None:
            note(
                s,
                "offer",
                f"seat {o.made_by} offers seat {o.to}: {terms(ctx, o)}",
                rule="trade",
                made_by=o.made_by,
                to=o.to,
                step="sent",
                terms=terms_data(ctx, s, o),
            )
        return
    o.items += 1
    if action >= OFFER_SHIP0:
        o.ships.append(action - OFFER_SHIP0)
    elif action >= OFFER_TRUCE0:
        o.truce.append(action - OFFER_TRUCE0)
    elif action == OFFER_PERMISSION_WANT:
        o.permission_want = 1
    elif action == OFFER_PERMISSION_GIVE:
        o.permission_give = 1
    elif action >= OFFER_RELEASE0:
        o.release.append(action - OFFER_RELEASE0)
    elif action >= OFFER_CHARACTER0:
        o.characters.append(action - OFFER_CHARACTER0)
    elif action >= OFFER_WANT0:
        o.want[action - OFFER_WANT0] += 1
    else:
        v = action - OFFER_GIVE0
        o.give[v] += 1
        s.hand[o.made_by * NV + v] -= 1  # offered cards are shown and held aside
    s.stack.append(task)


def terms_data(ctx: Context, s: State, o: Offer) -> dict[str, Any]:
    """An offer's terms as data (card values, figures, galaxies; all public to the table)."""
    values = ctx.content.card_values
    return {
        "give": [values[v] for v in range(NV) for _ in range(o.give[v])],
        "want": [values[v] for v in range(NV) for _ in range(o.want[v])],
        "characters": list(o.characters),
        "release": list(o.release),
        "ships_from": list(o.ships),
        "permission_given": bool(o.permission_give),
        "permission_wanted": bool(o.permission_want),
        "truces": list(o.truce),
    }


def terms(ctx: Context, o: Offer) -> str:
    """An offer's terms in words, from the offering seat's side."""
    values, names, me, you = ctx.content.card_values, ctx.content.fig_name, o.made_by, o.to
    parts = []
    give = [str(values[v]) for v in range(NV) for _ in range(o.give[v])]
    want = [str(values[v]) for v in range(NV) for _ in range(o.want[v])]
    if give:
        parts.append(f"seat {me} gives {'Power Card' if len(give) == 1 else 'Power Cards'} {listed(give)}")
    if want:
        parts.append(f"seat {you} gives {'Power Card' if len(want) == 1 else 'Power Cards'} {listed(want)}")
    if o.characters:
        parts.append(f"characters change hands: {', '.join(names[f] for f in o.characters)}")
    if o.release:
        parts.append(f"captives released: {', '.join(names[f] for f in o.release)}")
    if o.ships:
        parts.append(f"Space Ships change hands from: {', '.join(names[f] for f in o.ships)}")
    if o.permission_give:
        parts.append(f"seat {me} lets seat {you} pass this turn")
    if o.permission_want:
        parts.append(f"seat {you} lets seat {me} pass this turn")
    if o.truce:
        parts.append(f"Truce in {', '.join(ctx.content.galaxy_name(g) for g in o.truce)}")
    return "; ".join(parts) or "nothing"


def return_escrow(s: State, o: Offer) -> None:
    """Cards offered but not traded go back to the offering player's Attack Hand."""
    for v in range(NV):
        s.hand[o.made_by * NV + v] += o.give[v]
        o.give[v] = 0


def ship_sources(ctx: Context, s: State, seat: int) -> list[int]:
    """Rings of ``seat`` that hold Space Ships (a ship may be traded from them)."""
    colours = ctx.seat_alliances[seat]
    owner, status, ships = s.owner, s.status, s.ships
    return [f for f in range(len(owner)) if ships[f] and status[f] == ACTIVE and owner[f] in colours]


def trade_ship(ctx: Context, s: State, f: int, seat: int) -> None:
    """One Space Ship from ring ``f`` changes hands: replaced by the receiver's colour and left in
    its current space (in a ring of the receiver there, else loose; lost if neither is possible)."""
    if not s.ships[f]:
        return
    colour = next((a for a in ctx.seat_alliances[seat] if s.alive[a]), NOBODY)
    s.ships[f] -= 1
    s.supply[s.owner[f]] += 1
    if s.flags[f] & STARTED:
        s.flags[f] |= STOPPED  # trading ships after moving ends the move
    if colour == NOBODY or not s.supply[colour]:
        return
    g = s.loc[f]
    s.supply[colour] -= 1
    ring = next((x for x in figs_at(s, g) if s.owner[x] == colour and room(ctx, s, x) > 0), NOBODY)
    if ring != NOBODY:
        s.ships[ring] += 1
    elif add_loose(ctx, s, g, colour, 1):
        s.supply[colour] += 1


def receiving(ctx: Context, s: State, seat: int, extra: int) -> int:
    """The Alliance of ``seat`` that can take ``extra`` more characters, or ``NOBODY``."""
    for a in ctx.seat_alliances[seat]:
        if s.alive[a] and alliance_size(s, a) + extra <= ctx.content.supplies["alliance_limit"]:
            return a
    return NOBODY


def feasible(ctx: Context, s: State) -> bool:
    o = s.offer
    if o is None:
        return False
    me, you = o.made_by, o.to
    if any(s.hand[you * NV + v] < o.want[v] for v in range(NV)):
        return False
    mine = set(tradable_chars(ctx, s, me))
    yours = set(tradable_chars(ctx, s, you))
    if any(f not in mine and f not in yours for f in o.characters):
        return False
    if any(o.ships.count(f) > s.ships[f] for f in o.ships):
        return False
    to_you = sum(1 for f in o.characters if f in mine)
    to_me = len(o.characters) - to_you
    return (not to_you or receiving(ctx, s, you, to_you) != NOBODY) and (
        not to_me or receiving(ctx, s, me, to_me) != NOBODY
    )


def reply_legal(ctx: Context, s: State, task: AnswerOffer) -> list[int]:
    if s.offer is None:
        return []
    return [DONE, YES] if feasible(ctx, s) else [DONE]


def reply(ctx: Context, s: State, task: AnswerOffer, action: int) -> None:
    """Accept (``yes``: executed at once) or refuse (``done``)."""
    o = s.offer
    s.offer = None
    if o is None:
        return
    if action != YES:
        return_escrow(s, o)
        note(
            s,
            "offer",
            f"seat {o.to} refuses the offer of seat {o.made_by}: nothing changes hands",
            rule="trade",
            made_by=o.made_by,
            to=o.to,
            step="refused",
        )
        return
    if s.journal is not None:
        note(
            s,
            "offer",
            f"seat {o.to} accepts the offer of seat {o.made_by}; carried out: {terms(ctx, o)}",
            rule="trade",
            made_by=o.made_by,
            to=o.to,
            step="accepted",
            terms=terms_data(ctx, s, o),
        )
    execute(ctx, s, o)


def execute(ctx: Context, s: State, o: Offer) -> None:
    """Carry out an accepted offer: cards, characters (recoloured, left where they are),
    captives released, permission to pass this turn, Truces this turn."""
    me, you = int(o.made_by), int(o.to)
    give, want = o.give, o.want
    assert isinstance(give, list) and isinstance(want, list)
    for v in range(NV):
        s.hand[you * NV + v] += give[v]
        s.hand[you * NV + v] -= want[v]
        s.hand[me * NV + v] += want[v]
    mine = set(tradable_chars(ctx, s, me))
    chars = o.characters
    assert isinstance(chars, list)
    for f in chars:
        receiver = you if f in mine else me
        recolour(ctx, s, f, receiving(ctx, s, receiver, 1))
        s.stack.append(PlaceTraded(receiver, f))
    sources = set(ship_sources(ctx, s, me))
    for f in o.ships:
        trade_ship(ctx, s, f, you if f in sources else me)
    released = o.release
    assert isinstance(released, list)
    for f in released:
        if s.status[f] == CAPTIVE:
            release(ctx, s, f)
    if o.permission_give:
        _permit(ctx, s, me, you)
    if o.permission_want:
        _permit(ctx, s, you, me)
    truces = o.truce
    assert isinstance(truces, list)
    for g in truces:
        s.truce |= 1 << g
    before = any(type(t) is Move for t in s.stack)
    resolve_diplomats(ctx, s, exempt=s.cur if before else NOBODY)


def place_traded_legal(ctx: Context, s: State, task: PlaceTraded) -> list[int]:
    f = task.figure
    if s.status[f] != ACTIVE:
        return []
    here = s.loc[f]
    return sorted(
        {GALAXY0 + here, *(GALAXY0 + g for g in range(ctx.content.num_galaxies) if control(ctx, s, g) == s.owner[f])}
    )


def place_traded(ctx: Context, s: State, task: PlaceTraded, action: int) -> None:
    """A traded character stays where he is or goes to a galaxy his new owner controls."""
    f, g = task.figure, action - GALAXY0
    if g != s.loc[f]:
        place(s, f, g)
        note(
            s,
            "trade",
            f"the traded {ctx.content.fig_name[f]} moves to {ctx.content.galaxy_name(g)}",
            rule="trade",
            figure=f,
            galaxy=g,
        )


def _permit(ctx: Context, s: State, granter: int, grantee: int) -> None:
    bits = 0
    for a in ctx.seat_alliances[grantee]:
        bits |= 1 << a
    for a in ctx.seat_alliances[granter]:
        s.perm[a] |= bits


RULES: dict[type[Task], Handler] = {
    BuildOffer: Decision(
        decider,
        build_legal,
        build_offer,
        f"Your offer: add an item (up to {MAX_ITEMS}), send it, or withdraw it",
        rule="trade",
        ready=always,
    ),
    AnswerOffer: Decision(
        decider,
        reply_legal,
        reply,
        "An offer is made to you: accept it, or refuse it",
        rule="trade",
    ),
    PlaceTraded: Decision(
        decider,
        place_traded_legal,
        place_traded,
        "A character is traded to you: leave him where he is, or move him to a galaxy you control",
        rule="trade",
        shown=("figure",),
    ),
}
"""The rules of Trading and Negotiation, by task type (gathered into ``RULEBOOK``)."""
