"""Step 4, Movement (with Diplomatic Immunity and Searching for Allies) and Step 5, moving a
shadow.  A ring moves one galaxy per action; its range is its Space Ships plus the Power Stone.
"""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.core.kernel import Decision, Handler, Task, always
from shadowtable.games.shadowlord.actions import DONE, DROP0, MOVE0, PICK0, SEARCH0, STONE0
from shadowtable.games.shadowlord.board import (
    alliance_figs,
    control,
    diplomat_of,
    enemy_loose,
    enemy_present,
    figs_at,
    friendly,
    nearest_friendly,
    place,
    protected_against,
    range_of,
    room,
)
from shadowtable.games.shadowlord.content import DIPLOMAT, SHADOW
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import battle_in, lord
from shadowtable.games.shadowlord.rules.recruit import searchers, start_search
from shadowtable.games.shadowlord.rules.shift import offer_shift
from shadowtable.games.shadowlord.state import (
    ACTIVE,
    BLACK,
    MUST_LEAVE,
    NO_MOVE,
    NOBODY,
    STARTED,
    STOPPED,
    State,
)
from shadowtable.games.shadowlord.tasks import Move, MoveShadow, PutToVote, decider

ADJUST_LIMIT = 6
"""Drops and pick-ups per ring per turn (keeps random play finite; never binding in practice)."""
STONE_PASS_LIMIT = 2


def direction_target(ctx: Context, g: int, d: int) -> int:
    """The galaxy one step in direction ``d`` (n, e, s, w) from ``g``, or ``NOBODY``."""
    return ctx.steps[g][d]


def permitted(ctx: Context, s: State, g: int, colour: int) -> bool:
    """Every other colour in ``g`` is friendly or has given ``colour`` permission to pass."""
    cols = {s.owner[f] for f in figs_at(s, g)}
    if s.loose_n[g]:
        cols.add(s.loose_col[g])
    return all(friendly(ctx, o, colour) or (o < BLACK and s.perm[o] >> colour & 1) for o in cols)


def may_pass(ctx: Context, s: State, g: int, colour: int) -> bool:
    """Movement continues through ``g``: it is friendly (or permitted) and no Battle is due."""
    owner = control(ctx, s, g)
    if owner == NOBODY:
        return False
    if not friendly(ctx, owner, colour) and not (owner < BLACK and s.perm[owner] >> colour & 1):
        return False
    return permitted(ctx, s, g, colour) and not battle_in(ctx, s, g)


def diplomat_may_stay(ctx: Context, s: State, g: int, colour: int) -> bool:
    """A Diplomat of ``colour`` may end his move in ``g``: it is not enemy occupied or controlled
    (an enemy Home Planet holding no ring or Space Ship but Diplomats is its owner's), or he
    cancels an enemy Diplomat's immunity there."""
    if diplomat_of(ctx, s, g, lambda o: not friendly(ctx, o, colour)):
        return True
    if enemy_present(ctx, s, g, colour) or enemy_loose(ctx, s, g, colour):
        return False
    owner = ctx.home_owner[g]
    if owner == NOBODY or not s.alive[owner] or friendly(ctx, owner, colour):
        return True
    # The owner controls it unless it is occupied by a ring or loose Space Ship hostile to him;
    # a Diplomat, who may not enter it, does not count (nor does the one asking).
    kind = ctx.content.fig_kind
    return s.loose_n[g] > 0 or any(kind[x] != DIPLOMAT for x in figs_at(s, g))


def diplomat_way_on(ctx: Context, s: State, f: int, g: int) -> bool:
    """From ``g``, entered only with permission, Diplomat ``f`` can still reach a galaxy where he
    may stay, within the range left after entering ``g`` ("Diplomats can move through spaces
    controlled by another Alliance with their permission": through, not into)."""
    budget = range_of(s, f) - s.moves[f] - 1
    if s.first_round_turns > 0 or budget <= 0:
        return False
    colour = s.owner[f]
    seen = {g}
    frontier = [g]
    for _ in range(budget):
        reached: list[int] = []
        for here in frontier:
            for n in ctx.content.neighbours[here]:
                if n in seen:
                    continue
                seen.add(n)
                if diplomat_may_stay(ctx, s, n, colour):
                    return True
                if may_pass(ctx, s, n, colour):
                    reached.append(n)
        frontier = reached
    return False


def may_enter(ctx: Context, s: State, f: int, g: int) -> bool:
    """Diplomatic Immunity on entering ``g`` (and the Lost Fortress for Diplomats).

    A Diplomat may not enter an enemy occupied or controlled galaxy; with permission he may move
    through it, so only when he can go on from there to a galaxy where he may stay.  An empty
    enemy Home Planet is controlled by its owner, so it counts as enemy-controlled."""
    colour = s.owner[f]
    if ctx.content.fig_kind[f] == DIPLOMAT:
        if diplomat_may_stay(ctx, s, g, colour):
            return True
        return may_pass(ctx, s, g, colour) and diplomat_way_on(ctx, s, f, g)
    return not protected_against(ctx, s, g, colour)


def passing_through(ctx: Context, s: State, f: int) -> bool:
    """``f`` is a Diplomat standing where he may only pass through (and so may not end there)."""
    return ctx.content.fig_kind[f] == DIPLOMAT and not diplomat_may_stay(ctx, s, s.loc[f], s.owner[f])


def step_targets(ctx: Context, s: State, f: int, protected: set[int] | None = None) -> list[int]:
    """Directions ``f`` may move now (``protected``: galaxies with a Diplomat hostile to ``f``,
    if already known)."""
    if s.flags[f] & (STOPPED | NO_MOVE) or s.moves[f] >= range_of(s, f):
        return []
    here = s.loc[f]
    first = s.first_round_turns > 0
    plain = protected is not None and ctx.content.fig_kind[f] != DIPLOMAT
    out = []
    for d, g in enumerate(ctx.steps[here]):
        if g == NOBODY:
            continue
        if first and (here != ctx.content.home_of[s.owner[f]] or g not in ctx.config.first_round[s.owner[f]]):
            continue
        if (g not in protected) if plain and protected is not None else may_enter(ctx, s, f, g):
            out.append(d)
    return out


def hostile_diplomat_galaxies(ctx: Context, s: State, colour: int) -> set[int]:
    """Galaxies holding a Diplomat hostile to ``colour`` whose immunity is not cancelled (closed
    to its non-Diplomats)."""
    loc, owner = s.loc, s.owner
    found = {loc[f] for f in ctx.diplomats if loc[f] >= 0 and not friendly(ctx, owner[f], colour)}
    return {g for g in found if protected_against(ctx, s, g, colour)}


def move_legal(ctx: Context, s: State, task: Move) -> list[int]:
    colour = s.cur
    legal = [DONE]
    lf = lord(ctx)
    protected = hostile_diplomat_galaxies(ctx, s, colour)
    passing: set[int] = set()
    for f in alliance_figs(s, colour):
        steps = step_targets(ctx, s, f, protected)
        if s.flags[f] & MUST_LEAVE and s.loc[f] in protected and steps:
            legal[0] = -1  # a traitor among enemies protected by a Diplomat must move away first
        if s.flags[f] & STARTED and passing_through(ctx, s, f):
            passing.add(f)
            if steps:
                legal[0] = -1  # a Diplomat moves through an enemy galaxy, never into it
        legal += [MOVE0 + f * 4 + d for d in steps]
        g = s.loc[f]
        if s.adjust[f] < ADJUST_LIMIT and f not in passing:
            if (
                s.ships[f]
                and (not s.loose_n[g] or s.loose_col[g] == colour)
                and not (g == ctx.content.fortress and s.status[lf] == ACTIVE)
            ):
                legal.append(DROP0 + f)
            if s.loose_n[g] and s.loose_col[g] == colour and room(ctx, s, f) > 0:
                legal.append(PICK0 + f)
    legal += [SEARCH0 + f for f in searchers(ctx, s, colour) if f not in passing]
    h = s.stone
    if h >= 0 and s.status[h] == ACTIVE and s.owner[h] == colour and s.stone_passes < STONE_PASS_LIMIT:
        legal += [STONE0 + t for t in figs_at(s, s.loc[h]) if t != h and s.owner[t] == colour and room(ctx, s, t) > 0]
    return sorted(a for a in legal if a >= 0)


def move(ctx: Context, s: State, task: Move, action: int) -> None:
    """Move one galaxy, drop / pick up a Space Ship, search, pass the Power Stone, or finish."""
    if action == DONE:
        send_back_passing_diplomats(ctx, s)
        return
    s.stack.append(task)
    if action >= STONE0:
        s.stone = action - STONE0
        s.stone_passes += 1
    elif action >= SEARCH0:
        start_search(ctx, s, action - SEARCH0)
    elif action >= PICK0:
        f = action - PICK0
        g = s.loc[f]
        s.loose_n[g] -= 1
        if not s.loose_n[g]:
            s.loose_col[g] = NOBODY
        s.ships[f] += 1
        _adjusted(s, f)
    elif action >= DROP0:
        f = action - DROP0
        g = s.loc[f]
        s.ships[f] -= 1
        s.loose_col[g] = s.owner[f]
        s.loose_n[g] += 1
        _adjusted(s, f)
    else:
        f, d = divmod(action - MOVE0, 4)
        step(ctx, s, f, direction_target(ctx, s.loc[f], d))


def send_back_passing_diplomats(ctx: Context, s: State) -> None:
    """Movement ends: a Diplomat left where he could only pass through (a permission revoked, or
    no way on) retreats/teleports to the nearest friendly galaxy, so that he never holds an
    enemy galaxy - nor locks the owner out of his Home Planet."""
    for f in alliance_figs(s, s.cur):
        if not (s.flags[f] & STARTED and passing_through(ctx, s, f)):
            continue
        g = s.loc[f]
        target = nearest_friendly(ctx, s, g, s.owner[f])
        place(s, f, target)
        note(
            s,
            "retreat",
            f"{ctx.content.fig_name[f]} may only pass through {ctx.content.galaxy_name(g)}: he retreats to "
            f"{ctx.content.galaxy_name(target)} (Diplomatic Immunity)",
            rule="immunity",
            colour=s.owner[f],
            galaxy=g,
            to=target,
        )


def _adjusted(s: State, f: int) -> None:
    """Changing Space Ships after movement started ends the ring's movement."""
    s.adjust[f] += 1
    if s.flags[f] & STARTED:
        s.flags[f] |= STOPPED


def step(ctx: Context, s: State, f: int, g: int) -> None:
    """Enter ``g``; movement stops in unoccupied or enemy galaxies (and in the first round)."""
    passable = may_pass(ctx, s, g, s.owner[f])
    place(s, f, g)
    s.moves[f] += 1
    s.flags[f] |= STARTED
    if s.first_round_turns > 0 or not passable:
        s.flags[f] |= STOPPED


# -- Step 5: move a shadow ---------------------------------------------------------------------


def shadow_steps(ctx: Context, s: State, seat: int) -> list[int]:
    """Shadow moves: one galaxy, with a Space Ship, not into a Home Planet, the Lost Fortress, a
    Diplomat's galaxy or one the moving player occupies."""
    c = ctx.content
    mine = ctx.seat_alliances[seat]
    out = []
    for f in range(len(s.owner)):
        if c.fig_kind[f] != SHADOW or s.status[f] != ACTIVE or s.ships[f] < 1 or s.loc[f] == c.fortress:
            continue
        for d in range(4):
            g = direction_target(ctx, s.loc[f], d)
            if g == NOBODY or g == c.fortress or g in c.homes:
                continue
            if diplomat_of(ctx, s, g, lambda o: True):
                continue
            if any(s.owner[x] in mine for x in figs_at(s, g)) or (s.loose_n[g] and s.loose_col[g] in mine):
                continue
            out.append(MOVE0 + f * 4 + d)
    return out


def shadow_move_legal(ctx: Context, s: State, task: MoveShadow) -> list[int]:
    return [DONE, *shadow_steps(ctx, s, task.seat)]


def move_shadow(ctx: Context, s: State, task: MoveShadow, action: int) -> None:
    """Move a shadow one galaxy; the other players vote (3-4 players)."""
    if action == DONE:
        return
    f, d = divmod(action - MOVE0, 4)
    origin = s.loc[f]
    place(s, f, direction_target(ctx, origin, d))
    note(
        s,
        "move",
        f"{ctx.content.fig_name[f]} moves to {ctx.content.galaxy_name(s.loc[f])}",
        rule="shadow_move",
        figure=f,
        galaxy=s.loc[f],
        origin=origin,
    )
    s.stack.append(PutToVote("move_shadow", f, origin))


def shadow_moved(ctx: Context, s: State, f: int, origin: int) -> None:
    """The shadow stays; meeting another shadow, the mover may rearrange their ships."""
    s.shadow_ctl |= 1 << f
    offer_shift(ctx, s, ctx.seat_of(s.cur), s.loc[f], BLACK)


def shadow_back(ctx: Context, s: State, f: int, origin: int) -> None:
    """The vote on a moved shadow failed: it goes back."""
    place(s, f, origin)
    note(
        s,
        "move",
        f"{ctx.content.fig_name[f]} returns to {ctx.content.galaxy_name(origin)}",
        rule="vote",
        figure=f,
        galaxy=origin,
    )


RULES: dict[type[Task], Handler] = {
    Move: Decision(
        decider,
        move_legal,
        move,
        "Step 4, movement: move your rings, drop or pick up Space Ships, search for allies, "
        "pass the Power Stone, or end movement",
        rule="move",
        ready=always,
    ),
    MoveShadow: Decision(
        decider,
        shadow_move_legal,
        move_shadow,
        "Step 5, shadows: move one shadow one galaxy (the other players vote on it), or move none",
        rule="shadow_move",
        ready=always,
    ),
}
"""The rules of movement, by task type (gathered into ``RULEBOOK``)."""
