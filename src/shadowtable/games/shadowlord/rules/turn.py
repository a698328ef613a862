"""The order of a turn: the first-player roll, starting ships, surrender, Step 1 (draw plus
Ruins, the Power Stone Timer), Step 3 (building Space Ships) and passing the turn."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Chance, Decision, Handler, Task, always
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.actions import BUY0, DONE, FIGURE0, GALAXY0, YES
from shadowtable.games.shadowlord.board import alliance_figs, control, room
from shadowtable.games.shadowlord.content import CARD_VALUES, MERCHANT
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats, eliminate, lord, lord_defeated
from shadowtable.games.shadowlord.rules.cards import discard_from_hand, place_actions
from shadowtable.games.shadowlord.rules.interjections import legal_interjections
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, NOBODY, State
from shadowtable.games.shadowlord.tasks import (
    Build,
    DrawToHand,
    EndTurn,
    Fight,
    FinishDraws,
    Move,
    MoveShadow,
    PlacePortraitCards,
    PlaceStartingShip,
    QueueTurnSteps,
    RollEvent,
    RollFirstPlayer,
    StartBuild,
    StartTurn,
    Surrender,
    decider,
)

NV = CARD_VALUES
TURN_STEP_LIMIT = 4000
"""Safety net: a turn longer than this many actions ends the game as truncated (never seen in
random play; it makes ``max_game_length`` an honest bound)."""


def count_step(ctx: Context, s: State) -> None:
    """After every action and chance outcome: count the turn's steps; past
    :data:`TURN_STEP_LIMIT` the game ends as truncated."""
    s.steps_turn += 1
    if s.steps_turn > TURN_STEP_LIMIT:
        s.end = "truncated"
        note(s, "end", "too many steps in one turn: the game ends with no winner", end=s.end, winner=NOBODY)


def order_from(ctx: Context, first: int) -> list[int]:
    """Alliances in play, in turn order (clockwise), starting with ``first``."""
    alliances = list(ctx.config.alliances)
    i = alliances.index(first)
    return alliances[i:] + alliances[:i]


def first_outcomes(ctx: Context, s: State, task: RollFirstPlayer) -> list[tuple[int, float]]:
    return [(k, 1.0 / ctx.players) for k in range(ctx.players)]


def roll_first(ctx: Context, s: State, task: RollFirstPlayer, seat: int) -> None:
    """Roll for first player; then each player places the starting Space Ships."""
    s.first_seat = seat
    first = ctx.seat_alliances[seat][0]
    s.cur = first
    note(s, "turn", f"seat {seat} ({ctx.content.colours[first]}) plays first", rule="setup", seat=seat, colour=first)
    s.stack.append(StartTurn())
    for colour in reversed(order_from(ctx, first)):
        for _ in range(ctx.content.supplies["start_ships"]):
            s.stack.append(PlaceStartingShip(ctx.seat_of(colour), colour))


def setup_ship_legal(ctx: Context, s: State, task: PlaceStartingShip) -> list[int]:
    colour = task.colour
    if s.supply[colour] <= 0:
        return []
    return [FIGURE0 + f for f in alliance_figs(s, colour) if room(ctx, s, f) > 0]


def place_setup_ship(ctx: Context, s: State, task: PlaceStartingShip, action: int) -> None:
    """One starting Space Ship onto the chosen ring."""
    f = action - FIGURE0
    s.ships[f] += 1
    s.supply[s.owner[f]] -= 1


def reset_turn(s: State) -> None:
    for f in range(len(s.moves)):
        s.moves[f] = 0
        s.flags[f] = 0
        s.adjust[f] = 0
    s.bribed = s.offers = s.truce = s.shadow_ctl = s.stone_passes = s.steps_turn = s.pool = 0
    s.perm = [0] * 4


def start_turn(ctx: Context, s: State, task: StartTurn) -> None:
    """The Starburst check, the turn cap, then an optional surrender and the turn body."""
    reset_turn(s)
    if s.timer == 0:
        s.end = "shadowlord_timer"
        s.winner = NOBODY
        note(
            s,
            "end",
            "the Power Stone Timer stands on the Starburst at the start of a turn: the Shadowlord is Master "
            "of the Universe and every player loses",
            rule="timer",
            end=s.end,
            winner=NOBODY,
            timer=0,
        )
        return
    if s.turn >= ctx.options["turn_cap"]:
        s.end = "truncated"
        note(
            s,
            "end",
            f"the turn limit ({ctx.options['turn_cap']} turns) is reached: the game ends with no winner",
            end=s.end,
            winner=NOBODY,
            turns=s.turn,
        )
        return
    seat = ctx.seat_of(s.cur)
    note(
        s,
        "turn",
        f"turn {s.turn + 1}: {ctx.content.colours[s.cur]} (seat {seat}); Power Stone Timer {s.timer}",
        turn=s.turn + 1,
        colour=s.cur,
        seat=seat,
        timer=s.timer,
    )
    s.stack.append(QueueTurnSteps())
    if can_surrender(ctx, s, seat):
        s.stack.append(Surrender(seat))


def can_surrender(ctx: Context, s: State, seat: int) -> bool:
    """After the Power Stone is taken from the Shadowlord, others may surrender to its owner."""
    if not lord_defeated(ctx, s) or s.stone < 0:
        return False
    owner = s.owner[s.stone]
    return 0 <= owner < BLACK and ctx.seat_of(owner) != seat


def surrender_legal(ctx: Context, s: State, task: Surrender) -> list[int]:
    return [DONE, YES]


def decide_surrender(ctx: Context, s: State, task: Surrender, action: int) -> None:
    """Surrender (``yes``: every Alliance of the seat leaves the game) or play on."""
    if action != YES:
        return
    seat = task.seat
    owner_seat = ctx.seat_of(s.owner[s.stone])
    note(
        s,
        "surrender",
        f"seat {seat} surrenders to seat {owner_seat}, owner of the Power Stone",
        rule="surrender",
        seat=seat,
        to=owner_seat,
    )
    last = [k for k in alive_seats(s) if k != seat] == [owner_seat]
    if last:
        # Set before the Alliances leave, so that the game ends as a surrender and not as a
        # Master of the Universe by defeat.
        s.end = "surrender"
        s.winner = owner_seat
    for colour in ctx.seat_alliances[seat]:
        if s.alive[colour]:
            eliminate(ctx, s, colour, -1, "surrender")
    if last:
        note(
            s,
            "end",
            f"seat {owner_seat} is Master of the Universe: every other player surrendered to the owner of the "
            "Power Stone",
            rule="surrender",
            end=s.end,
            winner=owner_seat,
        )
    if not s.alive[s.cur]:
        s.stack.append(EndTurn())


def queue_turn_steps(ctx: Context, s: State, task: QueueTurnSteps) -> None:
    """Steps 1-6 in order; Step 1 draws one card plus one per controlled Ruins."""
    if not s.alive[s.cur]:
        s.stack.append(EndTurn())
        return
    seat = ctx.seat_of(s.cur)
    ruins = sum(1 for g in ctx.content.ruins if control(ctx, s, g) == s.cur)
    draws = 1 + ruins
    s.stack.extend(
        [
            EndTurn(),
            PlacePortraitCards(seat),
            Fight(),
            MoveShadow(seat),
            Move(seat),
            StartBuild(),
            RollEvent(),
            FinishDraws(),
        ]
    )
    note(
        s,
        "draw",
        f"{ctx.content.colours[s.cur]} draws {counted(draws, 'Power Card')}"
        + (f": 1 + {ruins} for controlled Ruins" if ruins else ""),
        rule="cards",
        seat=seat,
        cards=draws,
        ruins=ruins,
    )
    s.stack.extend([DrawToHand(seat)] * draws)


def finish_draws(ctx: Context, s: State, task: FinishDraws) -> None:
    """Option ``timer_mode="every_turn"``: the timer moves one notch every turn (Step 1)."""
    if ctx.options["timer_mode"] == "every_turn" and s.timer > 0:
        s.timer -= 1
        note(
            s,
            "timer",
            f"the Power Stone Timer moves one notch: {s.timer} left to the Starburst",
            rule="timer",
            timer=s.timer,
            was=s.timer + 1,
            cause="turn",
        )


def start_build(ctx: Context, s: State, task: StartBuild) -> None:
    """Step 3: three Space Ships per Merchant (not captured) and per controlled Space Base."""
    sup = ctx.content.supplies
    merchants = sum(1 for f in alliance_figs(s, s.cur) if ctx.content.fig_kind[f] == MERCHANT)
    bases = sum(1 for g in ctx.content.bases if control(ctx, s, g) == s.cur)
    s.pool = merchants * sup["ships_per_merchant"] + bases * sup["ships_per_space_base"]
    note(
        s,
        "build",
        f"{ctx.content.colours[s.cur]} gains {counted(s.pool, 'Space Ship')} to build: "
        f"{counted(merchants, 'Merchant')} x "
        f"{sup['ships_per_merchant']} + {counted(bases, 'Space Base')} x {sup['ships_per_space_base']}"
        if s.pool
        else f"{ctx.content.colours[s.cur]} has no Space Ships to build (no Merchant, no Space Base)",
        rule="build",
        colour=s.cur,
        ships=s.pool,
        merchants=merchants,
        bases=bases,
    )
    s.stack.append(Build(ctx.seat_of(s.cur)))


def loose_targets(ctx: Context, s: State, colour: int) -> list[int]:
    """Galaxies where ``colour`` may leave loose Space Ships: controlled, one colour only, not the
    Lost Fortress while the Shadowlord lives."""
    lf = lord(ctx)
    out = []
    present = {s.loc[f] for f in range(len(s.loc)) if s.owner[f] == colour and s.loc[f] >= 0}
    present |= {g for g, n in enumerate(s.loose_n) if n and s.loose_col[g] == colour}
    present.add(ctx.content.home_of[colour])  # control needs a ring, loose ships or the home
    for g in sorted(present):
        if control(ctx, s, g) != colour:
            continue
        if s.loose_n[g] and s.loose_col[g] != colour:
            continue
        if g == ctx.content.fortress and s.status[lf] == ACTIVE:
            continue
        out.append(g)
    return out


def build_legal(ctx: Context, s: State, task: Build) -> list[int]:
    seat = task.seat
    legal = [DONE]
    if s.pool > 0 and s.supply[s.cur] > 0:
        legal += [FIGURE0 + f for f in alliance_figs(s, s.cur) if room(ctx, s, f) > 0]
        legal += [GALAXY0 + g for g in loose_targets(ctx, s, s.cur)]
    legal += [BUY0 + v for v in range(NV) if s.hand[seat * NV + v]]
    return sorted(legal)


def build(ctx: Context, s: State, task: Build, action: int) -> None:
    """Place one ship on a ring or loose, discard a card for ships, or finish building."""
    if action == DONE:
        if s.pool:
            note(
                s,
                "build",
                f"{ctx.content.colours[s.cur]} leaves {counted(s.pool, 'Space Ship')} unbuilt",
                rule="build",
                colour=s.cur,
                unbuilt=s.pool,
            )
        s.pool = 0
        return
    s.stack.append(task)
    if action >= BUY0:
        v = action - BUY0
        discard_from_hand(s, task.seat, v)
        s.pool += ctx.content.card_values[v]
        value = ctx.content.card_values[v]
        note(
            s,
            "build",
            f"{ctx.content.colours[s.cur]} discards a {value} for {counted(value, 'Space Ship')}: {s.pool} to build",
            rule="build",
            colour=s.cur,
            card=value,
            ships=s.pool,
        )
    elif action >= GALAXY0:
        g = action - GALAXY0
        s.loose_col[g] = s.cur
        s.loose_n[g] += 1
        s.supply[s.cur] -= 1
        s.pool -= 1
    else:
        f = action - FIGURE0
        s.ships[f] += 1
        s.supply[s.cur] -= 1
        s.pool -= 1


def place_portrait_cards_legal(ctx: Context, s: State, task: PlacePortraitCards) -> list[int]:
    """``done`` and every card placement, when the seat may still do anything before the turn
    passes: place a card, Bribe (no Battle this turn), make an offer or revoke a permission.
    Nothing (the decision is skipped) otherwise, or when it is not this seat's turn."""
    seat = task.seat
    if ctx.seat_of(s.cur) != seat:
        return []
    places = place_actions(ctx, s, seat)
    return [DONE, *places] if places or legal_interjections(ctx, s, task) else []


def place_portrait_cards(ctx: Context, s: State, task: PlacePortraitCards, action: int) -> None:
    """After the fight, before the turn passes, whatever may be done "anytime during your turn"
    and "at any time": cards from the Attack Hand under a portrait (a Duel reward set aside for
    defence), one Bribery unless a Battle was fought, negotiation offers.  These are free
    actions and offers (interjections, see :mod:`.interjections`) that keep this decision
    pending; ``done`` ends it."""
    return None


def end_turn(ctx: Context, s: State, task: EndTurn) -> None:
    """Pass to the left: the next Alliance in play that is still in the game (none left: the
    game ends as truncated, which the game-end checks make unreachable)."""
    s.stack.clear()
    s.battle = None
    order = order_from(ctx, s.cur)
    nxt = next((a for a in order[1:] + order[:1] if s.alive[a]), NOBODY)
    if nxt == NOBODY:
        if not s.end:
            s.end = "truncated"
        return
    s.turn += 1
    if s.first_round_turns > 0:
        s.first_round_turns -= 1
    s.cur = nxt
    s.stack.append(StartTurn())


RULES: dict[type[Task], Handler] = {
    RollFirstPlayer: Chance(first_outcomes, roll_first),
    PlaceStartingShip: Decision(
        decider,
        setup_ship_legal,
        place_setup_ship,
        "Setup: place one of your starting Space Ships on a ring of this Alliance",
        rule="setup",
        shown=("colour",),
    ),
    StartTurn: Automatic(start_turn),
    Surrender: Decision(
        decider,
        surrender_legal,
        decide_surrender,
        "The Shadowlord has lost the Power Stone: surrender to its owner, or play on",
        rule="surrender",
        ready=always,
    ),
    QueueTurnSteps: Automatic(queue_turn_steps),
    FinishDraws: Automatic(finish_draws),
    StartBuild: Automatic(start_build),
    Build: Decision(
        decider,
        build_legal,
        build,
        "Build: place Space Ships on your rings or loose, discard a card for ships, or end building",
        rule="build",
        ready=always,
    ),
    PlacePortraitCards: Decision(
        decider,
        place_portrait_cards_legal,
        place_portrait_cards,
        "Step 6 is over: place cards of your Attack Hand under your portraits, Bribe (if no Battle was fought), "
        "make an offer, or end your turn",
        rule="cards",
    ),
    EndTurn: Automatic(end_turn),
}
"""The rules of setup and the order of a turn, by task type (gathered into ``RULEBOOK``)."""
