"""Characters changing hands: Bribery and Defection (traitors), Searching for Allies (turning
over discs, enlisting, placing a shadow), giving a character away, and Dismissing."""

from __future__ import annotations

from dataclasses import replace

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Chance, Decision, Handler, Task, always
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.actions import DONE, FIGURE0, GALAXY0, SEAT0, YES
from shadowtable.games.shadowlord.board import (
    alliance_figs,
    control,
    diplomat_of,
    figs_at,
    friendly,
    place,
    protected_against,
)
from shadowtable.games.shadowlord.content import CARD_VALUES, DIPLOMAT, MASTER, SHADOW, SHADOWLORD
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import (
    alive_seats,
    can_join,
    dismissable,
    recolour,
    recolour_loose,
    remove_figure,
    resolve_diplomats,
    where,
)
from shadowtable.games.shadowlord.rules.cards import d8_outcomes, discard_portrait, public_roll
from shadowtable.games.shadowlord.state import (
    ACTIVE,
    BAG,
    BLACK,
    FREED,
    MUST_LEAVE,
    NO_MOVE,
    NOBODY,
    REMOVED,
    SEARCHED,
    STOPPED,
    State,
)
from shadowtable.games.shadowlord.tasks import (
    AskForDismissed,
    Dismiss,
    DrawShadowShips,
    Enlist,
    GiveDismissed,
    Join,
    JoinAsTraitor,
    Move,
    PlaceCharacter,
    PlaceShadow,
    PutToVote,
    Reveal,
    RollBribe,
    RollBribeAnswer,
    Want,
    decider,
)

NV = CARD_VALUES


def bribable(ctx: Context, s: State, f: int, colour: int) -> bool:
    """Enemy characters that may be Bribed or Defect: not Masters, not shadows, not captives,
    not on a Home Planet."""
    kind = ctx.content.fig_kind[f]
    return (
        s.status[f] == ACTIVE
        and kind not in (MASTER, SHADOW, SHADOWLORD)
        and 0 <= s.owner[f] < BLACK
        and not friendly(ctx, s.owner[f], colour)
        and s.loc[f] not in ctx.content.homes
    )


def before_fight(s: State) -> bool:
    """The current player is still in Step 4 or earlier (the retreat clauses spare him)."""
    return any(type(t) is Move for t in s.stack)


def turn_traitor(ctx: Context, s: State, f: int, colour: int) -> None:
    """A character changes Alliance (Bribery, Defection): Dismiss first if seven already."""
    if can_join(s, ctx, colour):
        become_traitor(ctx, s, f, colour)
        return
    s.stack.append(JoinAsTraitor(f, colour))
    s.stack.append(Dismiss(ctx.seat_of(colour), colour))


def traitor_after_dismiss(ctx: Context, s: State, task: JoinAsTraitor) -> None:
    if s.status[task.figure] == ACTIVE and can_join(s, ctx, task.colour):
        become_traitor(ctx, s, task.figure, task.colour)


def become_traitor(ctx: Context, s: State, f: int, colour: int) -> None:
    """Switch ring and ships to the new colour, recolour loose ships in the galaxy, then the
    Diplomatic Immunity retreat clauses.

    Among enemy characters protected by a Diplomat the traitor must move away (during the
    current player's Step 4 or earlier); if only enemy Diplomats are with him, they retreat at
    once (the retreat clauses below)."""
    old = s.owner[f]
    g = s.loc[f]
    recolour(ctx, s, f, colour)
    recolour_loose(ctx, s, g, colour)
    if colour == s.cur and before_fight(s) and protected_against(ctx, s, g, colour):
        kind = ctx.content.fig_kind
        if any(kind[e] != DIPLOMAT and not friendly(ctx, s.owner[e], colour) for e in figs_at(s, g)):
            s.flags[f] |= MUST_LEAVE
    note(
        s,
        "traitor",
        f"{ctx.content.fig_name[f]} leaves {ctx.content.colours[old]} for {ctx.content.colours[colour]} "
        f"with {counted(s.ships[f], 'Space Ship')} in {ctx.content.galaxy_name(g)}",
        rule="bribe",
        figure=f,
        old=old,
        new=colour,
        galaxy=g,
        ships=s.ships[f],
    )
    resolve_diplomats(ctx, s, exempt=s.cur if before_fight(s) else NOBODY)


def roll_bribe(ctx: Context, s: State, task: RollBribe, roll: int) -> None:
    """The briber's roll; the answering roll follows."""
    s.stack.append(RollBribeAnswer(task.figure, roll))


def bribe_answer(ctx: Context, s: State, task: RollBribeAnswer, roll: int) -> None:
    """Bribery succeeds when the briber rolled higher."""
    f, mine = task.figure, task.briber_roll
    ok = mine > roll and bribable(ctx, s, f, s.cur)
    name = ctx.content.fig_name[f]
    note(
        s,
        "bribe",
        f"Bribery of {name}: {ctx.content.colours[s.cur]} rolls {mine} against {roll}: "
        + (f"{name} turns traitor" if ok else "he stays loyal (the briber must roll higher)"),
        rule="bribe",
        figure=f,
        briber=s.cur,
        briber_roll=mine,
        answer_roll=roll,
        success=ok,
    )
    if ok:
        turn_traitor(ctx, s, f, s.cur)


def start_bribe(ctx: Context, s: State, seat: int, v: int, f: int) -> None:
    """Discard four matching cards from the Attack Hand and roll off with 1d8 each."""
    s.hand[seat * NV + v] -= 4
    s.discard[v] += 4
    s.bribed = 1
    who, name = ctx.content.colours[s.cur], ctx.content.fig_name[f]
    note(s, "bribe", f"{who} discards four matching Power Cards to Bribe {name}", rule="bribe", figure=f, briber=s.cur)
    note(
        s,
        "bribe",
        f"the four cards discarded to Bribe {name} are {ctx.content.card_values[v]}s",
        rule="bribe",
        seats=(seat,),
        figure=f,
        briber=s.cur,
        card=ctx.content.card_values[v],
    )
    s.stack.append(RollBribe(f))


def defect_passes(ctx: Context, s: State, f: int, _: int) -> None:
    """The Defect event's vote passed: the character turns traitor (if he still may)."""
    if bribable(ctx, s, f, s.cur):
        note(s, "defect", f"{ctx.content.fig_name[f]} Defects to {ctx.content.colours[s.cur]}", rule="event", figure=f)
        turn_traitor(ctx, s, f, s.cur)
    else:
        note(
            s,
            "defect",
            f"{ctx.content.fig_name[f]} can no longer Defect: nothing happens",
            rule="event",
            figure=f,
            defected=False,
        )


# -- Searching for Allies -----------------------------------------------------------------------


def searchers(ctx: Context, s: State, colour: int) -> list[int]:
    """Diplomats (or the Master, when the Alliance has no Diplomat left) able to search now."""
    kind = ctx.content.fig_kind
    mine = alliance_figs(s, colour)
    dips = [f for f in mine if kind[f] == 3]
    able = dips if dips else [f for f in mine if kind[f] == MASTER]
    return [f for f in able if s.disc[s.loc[f]] and not s.flags[f] & SEARCHED]


def start_search(ctx: Context, s: State, f: int) -> None:
    s.flags[f] |= SEARCHED | STOPPED
    note(
        s,
        "search",
        f"{ctx.content.fig_name[f]} searches for allies in {ctx.content.galaxy_name(s.loc[f])}",
        rule="search",
        figure=f,
        galaxy=s.loc[f],
    )
    s.stack.append(Reveal(s.loc[f], False))


def reveal_outcomes(ctx: Context, s: State, task: Reveal) -> list[tuple[int, float]]:
    total = sum(s.bag)
    return [(k, n / total) for k, n in enumerate(s.bag) if n]


def reveal_disc(ctx: Context, s: State, task: Reveal, kind: int) -> None:
    """Turn over the face-down disc in ``task.galaxy``: a character to enlist or a shadow Attack."""
    g = task.galaxy
    s.bag[kind] -= 1
    s.disc[g] = 0
    seat = ctx.seat_of(s.cur)
    note(
        s,
        "disc",
        f"the disc in {ctx.content.galaxy_name(g)} is {ctx.content.disc_names[kind]}",
        rule="search",
        galaxy=g,
        disc=ctx.content.disc_names[kind],
    )
    fig = next((f for f in ctx.content.disc_figs[kind] if s.status[f] in (BAG, ACTIVE)), NOBODY)
    if kind < 3:
        fig = next(f for f in ctx.content.disc_figs[kind] if s.status[f] == BAG)
        s.stack.append(Enlist(seat, fig, g, task.discovered))
        return
    if fig == NOBODY or s.status[fig] != ACTIVE or s.loc[fig] != ctx.content.fortress:
        note(
            s,
            "disc",
            "that shadow has left the Lost Fortress: the disc is removed with no effect",
            rule="search",
            galaxy=g,
        )
        return
    if shadow_targets(ctx, s, s.cur):
        s.stack.append(PlaceShadow(seat, fig))


def shadow_targets(ctx: Context, s: State, colour: int) -> list[int]:
    """Where a revealed shadow may be placed: not the Lost Fortress, a Home Planet, a galaxy the
    player controls or occupies, nor one with a Diplomat."""
    c = ctx.content
    out = []
    for g in range(c.num_galaxies):
        if g == c.fortress or g in c.homes:
            continue
        owner = control(ctx, s, g)
        if owner != NOBODY and friendly(ctx, owner, colour):
            continue
        here = figs_at(s, g)
        if any(friendly(ctx, s.owner[f], colour) for f in here):
            continue
        if diplomat_of(ctx, s, g, lambda o: True):
            continue
        out.append(g)
    return out


def place_shadow_legal(ctx: Context, s: State, task: PlaceShadow) -> list[int]:
    return [GALAXY0 + g for g in shadow_targets(ctx, s, s.cur)]


def place_shadow(ctx: Context, s: State, task: PlaceShadow, action: int) -> None:
    """Place the shadow, draw its Space Ships, then the vote (3-4 players)."""
    f, g = task.figure, action - GALAXY0
    place(s, f, g)
    note(
        s,
        "shadow",
        f"{ctx.content.fig_name[f]} is placed in {ctx.content.galaxy_name(g)}",
        rule="search",
        figure=f,
        galaxy=g,
    )
    s.stack.append(PutToVote("place_shadow", f))
    s.stack.append(DrawShadowShips(f))


def shadow_stays(ctx: Context, s: State, f: int, _: int) -> None:
    """The vote on a placed shadow passed: the player plays it this turn."""
    s.shadow_ctl |= 1 << f


def shadow_removed(ctx: Context, s: State, f: int, _: int) -> None:
    """The vote on a placed shadow failed: it leaves the game."""
    remove_figure(ctx, s, f, NOBODY)
    note(s, "remove", f"{ctx.content.fig_name[f]} is removed from the game", rule="search", figure=f)


def enlist_legal(ctx: Context, s: State, task: Enlist) -> list[int]:
    seat = task.seat
    legal = [DONE, YES]
    legal += [SEAT0 + k for k in alive_seats(s) if k != seat and receiving_colour(ctx, s, k) != NOBODY]
    return legal


def receiving_colour(ctx: Context, s: State, seat: int) -> int:
    """The Alliance of ``seat`` that would take a character (first with room)."""
    for colour in ctx.seat_alliances[seat]:
        if s.alive[colour] and can_join(s, ctx, colour):
            return colour
    return NOBODY


def enlist(ctx: Context, s: State, task: Enlist, action: int) -> None:
    """Keep the character (Dismissing first if seven), give it to another player, or remove it."""
    f, g, discovered = task.figure, task.galaxy, task.discovered
    if action == DONE:
        s.status[f] = REMOVED
        note(s, "remove", f"{ctx.content.fig_name[f]} is removed from the game", rule="enlist", figure=f)
        return
    if action == YES:
        s.stack.append(Join(f, s.cur, g, discovered))
        if not can_join(s, ctx, s.cur):
            s.stack.append(Dismiss(task.seat, s.cur))
        return
    k = action - SEAT0
    s.stack.append(PlaceCharacter(k, f, receiving_colour(ctx, s, k)))


def join(ctx: Context, s: State, task: Join) -> None:
    """A new character joins: its ring in the galaxy, no Space Ships; searched ones cannot move."""
    f, colour, g, discovered = task.figure, task.colour, task.galaxy, task.discovered
    if not can_join(s, ctx, colour) or not s.alive[colour]:
        s.status[f] = REMOVED
        return
    s.owner[f], s.status[f], s.ships[f] = colour, ACTIVE, 0
    place(s, f, g)
    s.flags[f] = FREED if discovered else NO_MOVE
    note(
        s,
        "join",
        f"{ctx.content.fig_name[f]} joins {ctx.content.colours[colour]} in {ctx.content.galaxy_name(g)}",
        rule="enlist",
        figure=f,
        colour=colour,
        galaxy=g,
    )


def place_colour(ctx: Context, s: State, task: PlaceCharacter) -> int:
    """The receiving Alliance, checked again now (a trade may have filled it meanwhile)."""
    colour = task.colour
    if colour != NOBODY and s.alive[colour] and can_join(s, ctx, colour):
        return colour
    return receiving_colour(ctx, s, task.seat)


def place_char_legal(ctx: Context, s: State, task: PlaceCharacter) -> list[int]:
    colour = place_colour(ctx, s, task)
    if colour == NOBODY:
        return []
    gs = [g for g in range(ctx.content.num_galaxies) if control(ctx, s, g) == colour]
    return [GALAXY0 + g for g in gs] or [GALAXY0 + where(s, colour)]


def place_character(ctx: Context, s: State, task: PlaceCharacter, action: int) -> None:
    """The receiving player places a given or Dismissed character in a galaxy he controls."""
    f, colour, g = task.figure, place_colour(ctx, s, task), action - GALAXY0
    if s.status[f] == BAG:
        s.owner[f] = colour
        s.ships[f] = 0
    else:
        recolour(ctx, s, f, colour)
    s.status[f], s.flags[f] = ACTIVE, NO_MOVE
    place(s, f, g)
    note(
        s, "recruit", f"{ctx.content.fig_name[f]} goes to {ctx.content.colours[colour]} in {ctx.content.galaxy_name(g)}"
    )
    resolve_diplomats(ctx, s, exempt=s.cur if before_fight(s) else NOBODY)


def dismiss_legal(ctx: Context, s: State, task: Dismiss) -> list[int]:
    return [FIGURE0 + f for f in dismissable(ctx, s, task.colour)]


def dismiss(ctx: Context, s: State, task: Dismiss, action: int) -> None:
    """Dismiss a member: every other player says whether he wants him; removed if nobody does."""
    f = action - FIGURE0
    note(
        s,
        "dismiss",
        f"{ctx.content.colours[task.colour]} Dismisses {ctx.content.fig_name[f]}",
        rule="dismiss",
        figure=f,
        colour=task.colour,
    )
    s.stack.append(AskForDismissed(f, 1, 0))


def ask_for_dismissed(ctx: Context, s: State, task: AskForDismissed) -> None:
    """Ask the next player; when all have answered, hand the character over."""
    f, i, wanted = task.figure, task.offset, task.wanted
    me = ctx.seat_of(s.owner[f])
    while i < ctx.players:
        k = (me + i) % ctx.players
        if k in alive_seats(s) and receiving_colour(ctx, s, k) != NOBODY:
            s.stack.append(AskForDismissed(f, i + 1, wanted))
            s.stack.append(Want(k, f))
            return
        i += 1
    takers = [k for k in range(ctx.players) if wanted >> k & 1]
    if len(takers) == 1:
        s.stack.append(PlaceCharacter(takers[0], f, receiving_colour(ctx, s, takers[0])))
    elif takers:
        s.stack.append(GiveDismissed(me, f, wanted))
    else:
        discard_portrait(s, f)
        remove_figure(ctx, s, f, NOBODY)
        note(s, "remove", f"nobody wants {ctx.content.fig_name[f]}: removed from the game", rule="dismiss", figure=f)


def want_legal(ctx: Context, s: State, task: Want) -> list[int]:
    return [DONE, YES]


def want(ctx: Context, s: State, task: Want, action: int) -> None:
    """Say whether you want the Dismissed character."""
    if action != YES:
        return
    ask = s.stack.pop()  # the pending AskForDismissed: note this player as a taker
    assert isinstance(ask, AskForDismissed)
    s.stack.append(replace(ask, wanted=ask.wanted | 1 << task.seat))
    note(
        s,
        "dismiss",
        f"seat {task.seat} wants {ctx.content.fig_name[task.figure]}",
        rule="dismiss",
        seat=task.seat,
        figure=task.figure,
    )


def dismiss_to_legal(ctx: Context, s: State, task: GiveDismissed) -> list[int]:
    return [SEAT0 + k for k in range(ctx.players) if task.wanted >> k & 1 and receiving_colour(ctx, s, k) != NOBODY]


def give_dismissed(ctx: Context, s: State, task: GiveDismissed, action: int) -> None:
    """Several players want him: the Dismissing player chooses (and may ask a payment by an
    offer at this decision)."""
    k = action - SEAT0
    s.stack.append(PlaceCharacter(k, task.figure, receiving_colour(ctx, s, k)))


RULES: dict[type[Task], Handler] = {
    RollBribe: Chance(d8_outcomes, public_roll(roll_bribe), shown=("figure",)),
    RollBribeAnswer: Chance(d8_outcomes, public_roll(bribe_answer), shown=("figure", "briber_roll")),
    JoinAsTraitor: Automatic(traitor_after_dismiss),
    Reveal: Chance(reveal_outcomes, reveal_disc, shown=("galaxy", "discovered")),
    Enlist: Decision(
        decider,
        enlist_legal,
        enlist,
        "A character is found: enlist him, give him to another player, or remove him from the game",
        rule="enlist",
        shown=("figure", "galaxy", "discovered"),
        ready=always,
    ),
    PlaceShadow: Decision(
        decider,
        place_shadow_legal,
        place_shadow,
        "A shadow is revealed: place it in a galaxy you neither control nor occupy",
        rule="search",
        shown=("figure",),
    ),
    Join: Automatic(join),
    PlaceCharacter: Decision(
        decider,
        place_char_legal,
        place_character,
        "A character comes to you: place him in a galaxy your Alliance controls",
        rule="trade",
        shown=("figure", "colour"),
    ),
    Dismiss: Decision(
        decider,
        dismiss_legal,
        dismiss,
        "Your Alliance would have more than seven characters: Dismiss one to make room",
        rule="dismiss",
        shown=("colour",),
    ),
    AskForDismissed: Automatic(ask_for_dismissed),
    Want: Decision(
        decider,
        want_legal,
        want,
        "A character is Dismissed: say whether you want him",
        rule="allies",
        shown=("figure",),
        ready=always,
    ),
    GiveDismissed: Decision(
        decider,
        dismiss_to_legal,
        give_dismissed,
        "Several players want the character you Dismissed: choose who gets him",
        rule="dismiss",
        shown=("figure", "wanted"),
    ),
}
"""The rules of recruiting, by task type (gathered into ``RULEBOOK``)."""
