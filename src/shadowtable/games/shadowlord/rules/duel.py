"""Duels on the Battle Board (REC arithmetic, decisions file "Duels"): Power Blast, drawn cards,
secret commitments, the total, destroyed and won Space Ships, captives, rewards; and the end of a
Battle (retreating Diplomats, the Lost Fortress won or lost, Teleport Home)."""

from __future__ import annotations

from typing import Any

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Chance, Decision, Handler, Task, always
from shadowtable.core.wording import counted, listed
from shadowtable.games.shadowlord.actions import (
    BLAST_CARD,
    BLAST_SHIPS,
    COMMIT_HAND0,
    COMMIT_PORTRAIT0,
    DONE,
    FIGURE0,
    YES,
)
from shadowtable.games.shadowlord.board import (
    add_loose,
    controls,
    figs_at,
    friendly,
    nearest_friendly,
    place,
    range_of,
    room,
)
from shadowtable.games.shadowlord.content import CARD_VALUES, DIPLOMAT, MASTER
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import (
    check_end,
    colour_word,
    eliminate,
    lord,
    pass_captives,
    release,
)
from shadowtable.games.shadowlord.rules.battle import (
    FORT,
    battle_seat_for,
    is_shadow_fig,
    plan,
    side_figs,
    uses_hand,
)
from shadowtable.games.shadowlord.rules.cards import d8_outcomes, draw_outcomes, prepare_draw, public_roll
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, NOBODY, REMOVED, Duel, State
from shadowtable.games.shadowlord.tasks import (
    Blast,
    CheckBlast,
    Commit,
    DrawToDuel,
    DrawToHand,
    EndBattle,
    GiveStone,
    HoldDuel,
    PrepareDuel,
    ResolveDuel,
    RollBlast,
    RollBlastShips,
    Teleport,
    decider,
)

NV = CARD_VALUES
SIDES = ("attacker", "defender")


def teleported_back(freed: list[str]) -> str:
    """The log's words for the captives freed when the Shadowlord is defeated ("" for none)."""
    if not freed:
        return ""
    verb, whose = ("teleports", "its") if len(freed) == 1 else ("teleport", "their")
    return f"; {listed(freed)} {verb} back to {whose} Star Master"


def prepare_duel(ctx: Context, s: State, task: PrepareDuel) -> None:
    """One Duel: Blast checks, a drawn card each, secret commitments, then the result."""
    idx, a, d = task.battle, task.attacker, task.defender
    g = plan(s)[idx].galaxy
    if not all(s.status[f] == ACTIVE and s.loc[f] == g for f in (a, d)) or s.battle is None:
        return
    s.battle.duel = Duel(idx, [a, d], [[], []], [[0] * NV, [0] * NV], [0, 0])
    s.stack.append(HoldDuel())
    for side, f in ((1, d), (0, a)):
        if not is_shadow_fig(ctx, f) and 0 <= s.owner[f] < BLACK:
            s.stack.append(Commit(ctx.seat_of(s.owner[f]), side))
    s.stack.extend([DrawToDuel(1)] * ctx.content.duel_drawn)
    s.stack.extend([DrawToDuel(0)] * ctx.content.duel_drawn)
    s.stack.append(CheckBlast(idx, 1))
    s.stack.append(CheckBlast(idx, 0))


def hold_duel(ctx: Context, s: State, task: HoldDuel) -> None:
    """The Duel is prepared; it waits (cards face down) until the Duels are resolved."""
    if s.battle is not None and s.battle.duel is not None:
        s.battle.ready.append(s.battle.duel)
        s.battle.duel = None


def sink_duel(ctx: Context, s: State, task: DrawToDuel, v: int) -> None:
    """A card drawn face up for one side of the Duel being prepared."""
    s.deck[v] -= 1
    if s.battle is not None and s.battle.duel is not None:
        s.battle.duel.drawn[task.side].append(v)
    else:
        s.discard[v] += 1


def wields_stone(ctx: Context, s: State, idx: int, side: int) -> bool:
    """The Power Stone wielder is in the Battle's galaxy on ``side``."""
    h = s.stone
    if h < 0 or s.status[h] != ACTIVE or s.loc[h] != plan(s)[idx].galaxy:
        return False
    if h in side_figs(ctx, s, idx, side):
        return True
    entry = plan(s)[idx]
    colour = entry.attacker if side == 0 else entry.defender
    return ctx.content.fig_kind[h] == DIPLOMAT and s.owner[h] == colour


def check_blast(ctx: Context, s: State, task: CheckBlast) -> None:
    """The Power Stone's wielder in the Duel's galaxy rolls for a Power Blast."""
    if wields_stone(ctx, s, task.battle, task.side):
        s.stack.append(RollBlast(task.side, task.battle))


def roll_blast(ctx: Context, s: State, task: RollBlast, roll: int) -> None:
    side, idx = task.side, task.battle
    hit = roll >= ctx.content.blast_min_roll
    who = SIDES[side]
    note(
        s,
        "blast",
        f"Power Blast roll for the {who}: {roll} ({'a Blast' if hit else 'no Blast'}; "
        f"{ctx.content.blast_min_roll}-8 Blasts)",
        rule="blast",
        side=side,
        roll=roll,
        blast=hit,
    )
    if hit:
        s.stack.append(Blast(battle_seat_for(ctx, s, idx, side), side))


def blast_legal(ctx: Context, s: State, task: Blast) -> list[int]:
    return [BLAST_CARD, BLAST_SHIPS]


def blast(ctx: Context, s: State, task: Blast, action: int) -> None:
    """An extra drawn card, or destroy 1d8 of the enemy duellist's Space Ships."""
    side = task.side
    if action == BLAST_CARD:
        s.stack.append(DrawToDuel(side))
    else:
        s.stack.append(RollBlastShips(side))


def roll_blast_ships(ctx: Context, s: State, task: RollBlastShips, roll: int) -> None:
    side = task.side
    duel = s.battle.duel if s.battle else None
    if duel is None:
        return
    enemy, mine = duel.figures[1 - side], duel.figures[side]
    before = s.ships[enemy], s.ships[mine]
    destroy(s, enemy, mine, roll)
    lost_enemy, lost_mine = before[0] - s.ships[enemy], before[1] - s.ships[mine]
    names = ctx.content.fig_name
    text = f"the Power Blast (rolled {roll}) destroys {counted(lost_enemy, 'Space Ship')} of {names[enemy]}"
    if lost_mine:
        text += f" and {lost_mine} of {names[mine]}"
    note(
        s,
        "blast",
        text,
        rule="blast",
        side=side,
        roll=roll,
        figure=enemy,
        destroyed=lost_enemy,
        own_destroyed=lost_mine,
    )


def destroy(s: State, first: int, second: int, n: int) -> None:
    """Destroy ``n`` Space Ships from ``first``; the shortfall comes from ``second``."""
    for f in (first, second):
        k = min(n, s.ships[f])
        s.ships[f] -= k
        s.supply[s.owner[f]] += k
        n -= k


def commit_legal(ctx: Context, s: State, task: Commit) -> list[int]:
    duel = s.battle.duel if s.battle else None
    if duel is None:
        return []
    side = task.side
    f = duel.figures[side]
    legal = [DONE]
    legal += [COMMIT_PORTRAIT0 + v for v in range(NV) if s.pcards[f * NV + v]]
    if uses_hand(side):
        base = ctx.seat_of(s.owner[f]) * NV
        legal += [COMMIT_HAND0 + v for v in range(NV) if s.hand[base + v]]
    return legal


def commit(ctx: Context, s: State, task: Commit, action: int) -> None:
    """Commit one card face down (from under the portrait, or the Attack Hand when attacking)."""
    duel = s.battle.duel if s.battle is not None else None
    if action == DONE or duel is None:
        return
    side = task.side
    f = duel.figures[side]
    if action >= COMMIT_HAND0:
        v = action - COMMIT_HAND0
        s.hand[ctx.seat_of(s.owner[f]) * NV + v] -= 1
    else:
        v = action - COMMIT_PORTRAIT0
        s.pcards[f * NV + v] -= 1
    duel.committed[side][v] += 1
    duel.count[side] += 1
    s.stack.append(task)


def duel_total(ctx: Context, s: State, duel: Duel, side: int) -> int:
    """Strength + Space Ships (the Power Stone counts one) + drawn and committed card values."""
    f: int = duel.figures[side]
    values = ctx.content.card_values
    drawn: list[int] = duel.drawn[side]
    committed: list[int] = duel.committed[side]
    cards = sum(values[v] for v in drawn) + sum(values[v] * n for v, n in enumerate(committed))
    return ctx.content.fig_strength[f] + range_of(s, f) + cards


def resolve_duel(ctx: Context, s: State, task: ResolveDuel) -> None:
    """The higher total wins (ties: defender); the margin destroys ships, the winner takes the
    rest and the loser (captive, or removed if a shadow outside the Lost Fortress)."""
    if s.battle is None or not s.battle.ready:
        return
    duel = s.battle.ready.pop(0)
    idx = task.battle
    g = plan(s)[idx].galaxy
    for side in (0, 1):
        for v in duel.drawn[side]:
            s.discard[v] += 1
        for v in range(NV):
            s.discard[v] += duel.committed[side][v]
    a, d = duel.figures
    if not all(s.status[f] == ACTIVE and s.loc[f] == g for f in (a, d)):
        return  # a duellist left the game with the other Duel's result (his Alliance was removed)
    totals = [duel_total(ctx, s, duel, 0), duel_total(ctx, s, duel, 1)]
    attacker_wins = totals[0] > totals[1] or totals[0] == totals[1] and not ctx.content.tie_to_defender
    w, lo = (a, d) if attacker_wins else (d, a)
    sides = [duel_side(ctx, s, duel, 0), duel_side(ctx, s, duel, 1)]
    s.battle.last = s.last_duel = {
        "figs": [a, d],
        "totals": totals,
        "winner": w,
        "cards": [
            sorted(duel.drawn[0] + _flat(duel.committed[0])),
            sorted(duel.drawn[1] + _flat(duel.committed[1])),
        ],
    }
    margin = abs(totals[0] - totals[1])
    before = s.ships[lo], s.ships[w]
    destroy(s, lo, w, margin)
    lost = before[0] - s.ships[lo], before[1] - s.ships[w]
    taken = s.ships[lo]
    ring_before = s.ships[w]
    take_ships(ctx, s, w, lo, g)
    kept = s.ships[w] - ring_before
    stone = s.stone == lo
    if stone:
        s.stone = w
        if room(ctx, s, w) < 0:
            s.ships[w] -= 1
            if add_loose(ctx, s, g, s.owner[w], 1):
                s.supply[s.owner[w]] += 1
    if s.journal is not None:
        note_duel(ctx, s, idx, g, sides, w, lo, margin, lost, taken, kept, stone)
    capture(ctx, s, w, lo, g)
    if s.owner[w] < BLACK and s.alive[s.owner[w]] and not s.end:
        seat = ctx.seat_of(s.owner[w])
        n = ctx.content.duel_reward
        note(
            s,
            "reward",
            f"seat {seat} draws {counted(n, 'Power Card')} as the Duel reward",
            rule="shadow_fight",
            seat=seat,
            cards=n,
        )
        s.stack.extend([DrawToHand(seat)] * n)


def duel_side(ctx: Context, s: State, duel: Duel, side: int) -> dict[str, Any]:
    """One side of a resolved Duel in numbers: its figure, strength, Space Ships (the Power Stone
    counts one), the values of its cards (drawn and committed, revealed now) and its total."""
    f: int = duel.figures[side]
    values = ctx.content.card_values
    cards = sorted(values[v] for v in duel.drawn[side] + _flat(duel.committed[side]))
    strength, ships = ctx.content.fig_strength[f], range_of(s, f)
    return {
        "figure": f,
        "strength": strength,
        "ships": ships,
        "cards": sum(cards),
        "card_values": cards,
        "total": strength + ships + sum(cards),
    }


def note_duel(
    ctx: Context,
    s: State,
    idx: int,
    g: int,
    sides: list[dict[str, Any]],
    w: int,
    lo: int,
    margin: int,
    lost: tuple[int, int],
    taken: int,
    kept: int,
    stone: bool,
) -> None:
    """The Duel's breakdown per side, the winner and what the margin destroyed."""
    names = ctx.content.fig_name

    def part(side: dict[str, Any]) -> str:
        return (
            f"{names[side['figure']]}: strength {side['strength']} + ships {side['ships']} + "
            f"cards {side['cards']} = {side['total']}"
        )

    text = f"Duel: {part(sides[0])} vs {part(sides[1])}; {names[w]} wins by {margin}"
    if not margin:
        text += " (a tie goes to the defender)"
    text += f"; {counted(lost[0], 'Space Ship')} of {names[lo]} destroyed"
    if lost[1]:
        text += f" and {lost[1]} of {names[w]}"
    if taken:
        text += f"; {names[w]} takes {taken} ({kept} into his ring)"
    if stone:
        text += f"; {names[w]} wins the Power Stone"
    note(
        s,
        "duel",
        text,
        rule="battle_board",
        battle=idx,
        galaxy=g,
        attacker=sides[0],
        defender=sides[1],
        winner=w,
        loser=lo,
        margin=margin,
        destroyed={"loser": lost[0], "winner": lost[1]},
        taken=taken,
        stone=stone,
    )


def _flat(counts: list[int]) -> list[int]:
    return [v for v, n in enumerate(counts) for _ in range(n)]


def take_ships(ctx: Context, s: State, w: int, lo: int, g: int) -> None:
    """The winner takes the loser's remaining Space Ships in his colour: into his ring, the rest
    loose (a player) or to other shadows in the galaxy (shadows; excess discarded)."""
    n = s.ships[lo]
    s.ships[lo] = 0
    s.supply[s.owner[lo]] += n
    colour = s.owner[w]
    gain = min(n, s.supply[colour])
    s.supply[colour] -= gain
    put = min(gain, max(0, room(ctx, s, w)))
    s.ships[w] += put
    rest = gain - put
    if colour == BLACK:
        for f in figs_at(s, g):
            if s.owner[f] == BLACK and f != w and rest:
                k = min(rest, max(0, room(ctx, s, f)))
                s.ships[f] += k
                rest -= k
        s.supply[BLACK] += rest
    else:
        s.supply[colour] += add_loose(ctx, s, g, colour, rest)


def capture(ctx: Context, s: State, w: int, lo: int, g: int) -> None:
    """The loser becomes a captive under the winner (a shadow outside the Lost Fortress is removed
    instead); its captives pass to the winner; a captured Star Master ends its Alliance."""
    names = ctx.content.fig_name
    held = [c for c in range(len(s.captor)) if s.status[c] == CAPTIVE and s.captor[c] == lo]
    pass_captives(ctx, s, lo, w)
    for c in held:
        freed = s.status[c] != CAPTIVE
        note(
            s,
            "capture",
            f"{names[c]}, captive of {names[lo]}, "
            + (f"is released to {ctx.content.galaxy_name(s.loc[c])}" if freed else f"passes to {names[w]}"),
            rule="shadow_fight",
            figure=c,
            captor=NOBODY if freed else w,
            released=freed,
        )
    if is_shadow_fig(ctx, lo) and g != ctx.content.fortress:
        s.status[lo] = REMOVED
        place(s, lo, NOBODY)
        note(
            s,
            "remove",
            f"{names[lo]} loses the Duel outside the Lost Fortress and is removed from the game",
            rule="shadow_fight",
            figure=lo,
            galaxy=g,
            winner=w,
        )
        return
    s.status[lo] = CAPTIVE
    s.captor[lo] = w
    place(s, lo, NOBODY)
    note(
        s,
        "capture",
        f"{names[lo]} is captured by {names[w]} in {ctx.content.galaxy_name(g)}",
        rule="battle_board",
        figure=lo,
        captor=w,
        galaxy=g,
    )
    if ctx.content.fig_kind[lo] == MASTER:
        eliminate(ctx, s, s.owner[lo], w, f"Star Master captured by {ctx.content.fig_name[w]}")


def end_battle(ctx: Context, s: State, task: EndBattle) -> None:
    """The losing side's Diplomats retreat; the Lost Fortress is won or lost."""
    idx = task.battle
    entry = plan(s)[idx]
    g, att, dfd, kind = entry.galaxy, entry.attacker, entry.defender, entry.kind
    attacker_won = not side_figs(ctx, s, idx, 1)
    losers = dfd if attacker_won else att
    names = ctx.content.fig_name
    survivors = side_figs(ctx, s, idx, 0 if attacker_won else 1)
    winners = att if attacker_won else dfd
    note(
        s,
        "battle",
        f"the Battle in {ctx.content.galaxy_name(g)} ends: {colour_word(ctx, winners)} "
        f"({'attacker' if attacker_won else 'defender'}) wins"
        + (f" with {', '.join(names[f] for f in survivors)} standing" if survivors else ""),
        rule="battle_board",
        battle=idx,
        galaxy=g,
        winner=winners,
        loser=losers,
        attacker_won=attacker_won,
        survivors=survivors,
    )
    if losers < BLACK:
        for f in figs_at(s, g):
            if ctx.content.fig_kind[f] == DIPLOMAT and friendly(ctx, s.owner[f], losers):
                place(s, f, nearest_friendly(ctx, s, g, s.owner[f]))
                note(
                    s,
                    "retreat",
                    f"{names[f]} retreats from {ctx.content.galaxy_name(g)} to {ctx.content.galaxy_name(s.loc[f])}",
                    rule="immunity",
                    figure=f,
                    galaxy=g,
                    to=s.loc[f],
                )
    if kind == FORT:
        if attacker_won:
            fortress_won(ctx, s, g)
        else:
            fortress_lost(ctx, s, g)
    check_end(ctx, s)


def fortress_won(ctx: Context, s: State, g: int) -> None:
    """All shadows banished, their captives go home, the Power Stone is won, the timer removed."""
    freed = []
    for f in range(len(s.owner)):
        if s.status[f] == CAPTIVE and is_shadow_fig(ctx, s.captor[f]) and not is_shadow_fig(ctx, f):
            release(ctx, s, f)
            freed.append(f)
    banished = [f for f in range(len(s.owner)) if s.owner[f] == BLACK and s.status[f] != REMOVED]
    ships = sum(s.ships[f] for f in banished)
    for f in range(len(s.owner)):
        if s.owner[f] == BLACK and s.status[f] != REMOVED:
            s.boxed[BLACK] += s.ships[f]
            s.ships[f] = 0
            s.status[f] = REMOVED
            place(s, f, NOBODY)
            s.captor[f] = NOBODY
    s.boxed[BLACK] += s.supply[BLACK]
    s.supply[BLACK] = 0
    timer, s.timer = s.timer, -1
    names = ctx.content.fig_name
    note(
        s,
        "fortress",
        f"the Shadowlord is defeated: {counted(len(banished), 'shadow')} banished with {counted(ships, 'Space Ship')}"
        + teleported_back([names[f] for f in freed]),
        rule="fortress",
        galaxy=g,
        banished=banished,
        ships=ships,
        released=freed,
    )
    note(
        s,
        "timer",
        f"the Power Stone Timer is removed from the game (it stood at {timer})",
        rule="fortress",
        timer=-1,
        was=timer,
    )
    holder = s.stone
    if holder >= 0 and s.owner[holder] < BLACK:
        seat = ctx.seat_of(s.owner[holder])
        s.stack.append(Teleport(ctx.seat_of(s.cur)))
        s.stack.append(GiveStone(seat, s.owner[holder], g))


def fortress_lost(ctx: Context, s: State, g: int) -> None:
    """Captured shadows return without ships; the shadows' ships go to the Shadowlord."""
    lf = lord(ctx)
    back = []
    for f in range(len(s.owner)):
        if s.owner[f] == BLACK and s.status[f] == CAPTIVE:
            s.status[f], s.captor[f], s.ships[f] = ACTIVE, NOBODY, 0
            place(s, f, g)
            back.append(f)
    given = discarded = 0
    for f in figs_at(s, g):
        if s.owner[f] == BLACK and f != lf:
            k = min(s.ships[f], max(0, room(ctx, s, lf))) if s.status[lf] == ACTIVE else 0
            s.ships[lf] += k
            s.supply[BLACK] += s.ships[f] - k
            given, discarded = given + k, discarded + s.ships[f] - k
            s.ships[f] = 0
    names = ctx.content.fig_name
    note(
        s,
        "fortress",
        "the Lost Fortress holds"
        + (f": {', '.join(names[f] for f in back)} released without Space Ships" if back else "")
        + f"; the shadows give {counted(given, 'Space Ship')} to the Shadowlord, {discarded} discarded",
        rule="fortress",
        galaxy=g,
        released=back,
        given=given,
        discarded=discarded,
    )


def give_stone_legal(ctx: Context, s: State, task: GiveStone) -> list[int]:
    colour, g = task.colour, task.galaxy
    h = s.stone
    return sorted({FIGURE0 + f for f in figs_at(s, g) if s.owner[f] == colour and (f == h or room(ctx, s, f) > 0)})


def give_stone(ctx: Context, s: State, task: GiveStone, action: int) -> None:
    """The Power Stone goes to the chosen ring."""
    s.stone = action - FIGURE0
    note(s, "stone", f"{ctx.content.fig_name[s.stone]} takes the Power Stone", rule="fortress", figure=s.stone)


def teleport_legal(ctx: Context, s: State, task: Teleport) -> list[int]:
    return [DONE, YES] if s.alive[s.cur] else []


def teleport(ctx: Context, s: State, task: Teleport, action: int) -> None:
    """Teleport Home: every character of the Alliance in the Lost Fortress goes home (once)."""
    if action != YES:
        return
    home = ctx.content.home_of[s.cur]
    if not controls(ctx, s, home, s.cur):
        note(
            s,
            "teleport",
            "the Home Planet is controlled by enemies: no Teleport Home",
            rule="teleport",
            colour=s.cur,
            figures=[],
        )
        return
    moved = [f for f in figs_at(s, ctx.content.fortress) if s.owner[f] == s.cur]
    for f in moved:
        place(s, f, home)
    note(
        s,
        "teleport",
        f"{ctx.content.colours[s.cur]} Teleports Home: {', '.join(ctx.content.fig_name[f] for f in moved)}",
        rule="teleport",
        colour=s.cur,
        figures=moved,
    )


RULES: dict[type[Task], Handler] = {
    DrawToDuel: Chance(draw_outcomes, sink_duel, shown=("side",), prepare=prepare_draw),
    PrepareDuel: Automatic(prepare_duel),
    CheckBlast: Automatic(check_blast),
    RollBlast: Chance(d8_outcomes, public_roll(roll_blast), shown=("side", "battle")),
    Blast: Decision(
        decider,
        blast_legal,
        blast,
        "Power Blast: draw an extra card, or destroy a d8 of the enemy duellist's Space Ships",
        rule="blast",
        shown=("side",),
        ready=always,
    ),
    RollBlastShips: Chance(d8_outcomes, public_roll(roll_blast_ships), shown=("side",)),
    Commit: Decision(
        decider,
        commit_legal,
        commit,
        "Duel: commit a Power Card face down, or stop committing",
        rule="battle_board",
        shown=("side",),
    ),
    HoldDuel: Automatic(hold_duel),
    ResolveDuel: Automatic(resolve_duel),
    EndBattle: Automatic(end_battle),
    GiveStone: Decision(
        decider,
        give_stone_legal,
        give_stone,
        "The Lost Fortress has fallen: give the Power Stone to one of your rings there",
        rule="stone",
        shown=("colour", "galaxy"),
    ),
    Teleport: Decision(
        decider,
        teleport_legal,
        teleport,
        "The Lost Fortress has fallen: Teleport your characters there to your Home Planet, or stay",
        rule="teleport",
    ),
}
"""The rules of Duels, by task type (gathered into ``RULEBOOK``)."""
