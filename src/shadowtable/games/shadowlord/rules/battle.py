"""Step 6, Fight: finding the Battles, Truces, challenging loose Space Ships, Calling in Allies,
the attacker's order of Battles, and placing rings on the Battle Board.  Duels are in
:mod:`.duel`.

``s.battle`` (:class:`~shadowtable.games.shadowlord.state.Battle`) holds the plan: one
:class:`~shadowtable.games.shadowlord.state.PlannedBattle` per Battle (kind: normal, loose, fort;
status: 0 due, 1 off, 2 fought), the allies sent to each side, the current Duel and the prepared
ones.
"""

from __future__ import annotations

from collections import deque

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Decision, Handler, Task, always
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.actions import ALLY_ATTACKER0, ALLY_DEFENDER0, DONE, FIGURE0, GALAXY0, TRUCE0, YES
from shadowtable.games.shadowlord.board import alliance_figs, enemy_loose, figs_at, friendly, place, range_of
from shadowtable.games.shadowlord.content import DIPLOMAT, SHADOW, SHADOWLORD
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats, lord, resolve_diplomats
from shadowtable.games.shadowlord.rules.movement import may_enter, may_pass
from shadowtable.games.shadowlord.rules.shift import offer_shift
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, NO_MOVE, NOBODY, Battle, PlannedBattle, State
from shadowtable.games.shadowlord.tasks import (
    AnswerTruce,
    CallOwnCharacter,
    ChallengeLooseShips,
    ChooseNextBattle,
    DrawShadowShips,
    EndBattle,
    Face,
    Fight,
    FightRound,
    FindNextBattle,
    PlaceAttacker,
    PlaceDefender,
    PrepareDuel,
    ProposeTruce,
    ResolveDuel,
    SendAlly,
    StartAllyCalls,
    StartBattle,
    decider,
)

NORMAL, LOOSE, FORT = "normal", "loose", "fort"
DUE, OFF, FOUGHT = 0, 1, 2


def plan(s: State) -> list[PlannedBattle]:
    assert s.battle is not None
    return s.battle.plan


def is_fighter(ctx: Context, f: int) -> bool:
    return ctx.content.fig_kind[f] != DIPLOMAT


def side_figs(ctx: Context, s: State, idx: int, side: int) -> list[int]:
    """Fighters in the Battle's galaxy on ``side`` (0 attacker, 1 defender), allies included."""
    entry = plan(s)[idx]
    g = entry.galaxy
    colour = entry.attacker if side == 0 else entry.defender
    allies = s.battle.allies[idx][side] if s.battle else []
    out = []
    for f in figs_at(s, g):
        if not is_fighter(ctx, f):
            continue
        if colour == BLACK:
            if s.owner[f] == BLACK and (side == 1 or s.shadow_ctl >> f & 1):
                out.append(f)
        elif s.owner[f] == colour or f in allies:
            out.append(f)
    return out


def duel_candidates(ctx: Context, s: State, idx: int, side: int) -> list[int]:
    """Who may go on the Battle Board: in the Lost Fortress the Shadowlord only when alone."""
    figs = side_figs(ctx, s, idx, side)
    if plan(s)[idx].kind == FORT and side == 1:
        others = [f for f in figs if ctx.content.fig_kind[f] != SHADOWLORD]
        return others or figs
    return figs


def attacker_seat(ctx: Context, s: State) -> int:
    return ctx.seat_of(s.cur)


def defender_seat(ctx: Context, s: State, idx: int) -> int:
    """A player defends his own; shadows are run by the player to the attacker's left (REC)."""
    dfd = plan(s)[idx].defender
    if dfd < BLACK:
        return ctx.seat_of(dfd)
    me = attacker_seat(ctx, s)
    step = ctx.content.shadow_decider_step
    for i in range(1, ctx.players + 1):
        k = (me + step * i) % ctx.players
        if k in alive_seats(s) and k != me:
            return k
    return me


def find_battles(ctx: Context, s: State) -> list[PlannedBattle]:
    """Every galaxy where the current player's characters (or the shadow he plays) meet enemies."""
    a = s.cur
    c = ctx.content
    lf = lord(ctx)
    found: list[PlannedBattle] = []
    order = [x for x in list(range(a + 1, 4)) + list(range(0, a + 1)) if x != a] + [BLACK]
    involved = {s.loc[f] for f in range(len(s.loc)) if s.loc[f] >= 0 and (s.owner[f] == a or s.shadow_ctl >> f & 1)}
    for g in sorted(involved):
        if s.truce >> g & 1:
            continue
        here = figs_at(s, g)
        mine = [f for f in here if s.owner[f] == a and is_fighter(ctx, f)]
        ctl = [f for f in here if s.shadow_ctl >> f & 1]
        if mine and g == c.fortress and s.status[lf] == ACTIVE and s.loc[lf] == g:
            found.append(PlannedBattle(g, a, BLACK, FORT, DUE))
            continue
        if mine:
            enemies = {s.owner[f] for f in here if is_fighter(ctx, f) and not friendly(ctx, s.owner[f], a)}
            for e in order:
                if e in enemies:
                    found.append(PlannedBattle(g, a, e, NORMAL, DUE))
            if not enemies and enemy_loose(ctx, s, g, a) and s.loose_col[g] != BLACK:
                found.append(PlannedBattle(g, a, s.loose_col[g], LOOSE, DUE))
        elif ctl:
            mine_seat = ctx.seat_alliances[ctx.seat_of(a)]
            enemies = {s.owner[f] for f in here if is_fighter(ctx, f) and s.owner[f] < BLACK}
            for e in order:
                if e in enemies and e not in mine_seat:
                    found.append(PlannedBattle(g, BLACK, e, NORMAL, DUE))
    return found


def fight(ctx: Context, s: State, task: Fight) -> None:
    """Plan the Battles, then Truces / challenges, Calling in Allies, and the Battles in order."""
    if not s.alive[s.cur]:
        return
    resolve_diplomats(ctx, s)
    battles = find_battles(ctx, s)
    if not battles:
        return
    s.battle = Battle(battles, [[[], []] for _ in battles], [], None, [], None)
    seat = attacker_seat(ctx, s)
    s.stack.append(FindNextBattle())
    s.stack.append(StartAllyCalls())
    for idx in reversed(range(len(battles))):
        entry = battles[idx]
        att, dfd, kind = entry.attacker, entry.defender, entry.kind
        if kind == LOOSE:
            s.stack.append(ChallengeLooseShips(seat, idx))
        elif kind == NORMAL and att < BLACK and dfd < BLACK:
            s.stack.append(ProposeTruce(seat, idx))


def truce_q_legal(ctx: Context, s: State, task: ProposeTruce) -> list[int]:
    return [DONE, TRUCE0 + plan(s)[task.battle].galaxy]


def truce_question(ctx: Context, s: State, task: ProposeTruce, action: int) -> None:
    """The attacker fights (``done``) or proposes a Truce; the defender accepts or refuses."""
    if action != DONE:
        idx = task.battle
        s.stack.append(AnswerTruce(ctx.seat_of(plan(s)[idx].defender), idx))


def yes_no(ctx: Context, s: State, task: object) -> list[int]:
    return [DONE, YES]


def truce_answer(ctx: Context, s: State, task: AnswerTruce, action: int) -> None:
    entry = plan(s)[task.battle]
    if action == YES:
        entry.status = OFF
        s.truce |= 1 << entry.galaxy
    g = entry.galaxy
    note(
        s,
        "truce",
        f"seat {task.seat} {'accepts' if action == YES else 'refuses'} the Truce in {ctx.content.galaxy_name(g)}"
        + (": no Battle there this turn" if action == YES else ": the Battle will be fought"),
        rule="truce",
        galaxy=g,
        seat=task.seat,
        accepted=action == YES,
    )


def challenge_question(ctx: Context, s: State, task: ChallengeLooseShips, action: int) -> None:
    """Challenge the loose enemy Space Ships (``yes``) or leave them."""
    entry = plan(s)[task.battle]
    g, dfd = entry.galaxy, entry.defender
    if action != YES:
        entry.status = OFF
    note(
        s,
        "challenge",
        f"seat {task.seat} {'challenges' if action == YES else 'leaves'} the loose {ctx.content.colours[dfd]} "
        f"Space Ships in {ctx.content.galaxy_name(g)}",
        rule="loose",
        galaxy=g,
        colour=dfd,
        ships=s.loose_n[g],
        challenged=action == YES,
    )


def battle_galaxies(s: State) -> set[int]:
    return {e.galaxy for e in plan(s) if e.status == DUE}


def reachable(ctx: Context, s: State, f: int, target: int) -> bool:
    """``f`` can reach ``target`` by normal movement (through friendly or permitted galaxies,
    never through another Battle)."""
    if s.status[f] != ACTIVE or s.flags[f] & NO_MOVE or s.loc[f] == target:
        return False
    budget = range_of(s, f) - s.moves[f]
    if budget <= 0 or not may_enter(ctx, s, f, target):
        return False
    busy = battle_galaxies(s)
    if s.loc[f] in busy:
        return False
    colour = s.owner[f]
    seen = {s.loc[f]}
    queue = deque([(s.loc[f], 0)])
    while queue:
        g, d = queue.popleft()
        for n in ctx.content.neighbours[g]:
            if n == target:
                return True
            if n in seen or d + 1 >= budget or n in busy:
                continue
            seen.add(n)
            if may_pass(ctx, s, n, colour) and may_enter(ctx, s, f, n):
                queue.append((n, d + 1))
    return False


def ally_candidates(ctx: Context, s: State, colour: int, idx: int) -> list[int]:
    g = plan(s)[idx].galaxy
    sent = {f for pair in s.battle.allies for side in pair for f in side} if s.battle else set()
    return [f for f in alliance_figs(s, colour) if is_fighter(ctx, f) and f not in sent and reachable(ctx, s, f, g)]


def start_ally_calls(ctx: Context, s: State, task: StartAllyCalls) -> None:
    """Before the first Battle: the defender may call one of his own; every other Alliance may
    send one character to a side (a shadow calls nobody)."""
    asks: list[CallOwnCharacter | SendAlly] = []
    for idx, entry in enumerate(plan(s)):
        att, dfd, kind = entry.attacker, entry.defender, entry.kind
        if entry.status != DUE or kind == FORT and att >= BLACK:
            continue
        if dfd < BLACK:
            asks.append(CallOwnCharacter(ctx.seat_of(dfd), idx, dfd))
        for x in ctx.config.alliances:
            if x in (att, dfd) or not s.alive[x]:
                continue
            asks.append(SendAlly(ctx.seat_of(x), idx, x))
    s.stack.extend(reversed(asks))


def call_own_legal(ctx: Context, s: State, task: CallOwnCharacter) -> list[int]:
    if plan(s)[task.battle].status != DUE:
        return []
    cands = ally_candidates(ctx, s, task.colour, task.battle)
    return [DONE, *(FIGURE0 + f for f in cands)] if cands else []


def call_own_character(ctx: Context, s: State, task: CallOwnCharacter, action: int) -> None:
    """The defender calls in one of his own characters (not a Diplomat)."""
    if action == DONE:
        return
    f, idx = action - FIGURE0, task.battle
    place(s, f, plan(s)[idx].galaxy)
    if s.battle is not None:
        s.battle.allies[idx][1].append(f)
    note(
        s,
        "ally",
        f"{ctx.content.fig_name[f]} is called in to defend {ctx.content.galaxy_name(s.loc[f])}",
        rule="allies",
        figure=f,
        side="defender",
        galaxy=s.loc[f],
    )


def ally_sides(ctx: Context, s: State, idx: int, seat: int) -> tuple[bool, bool]:
    """Which sides a player may send to: not a shadow's side; his own Alliance's side in 2p; to
    the challenger of loose ships only once someone defends them."""
    entry = plan(s)[idx]
    att, dfd, kind = entry.attacker, entry.defender, entry.kind
    to_a = att < BLACK and (kind != LOOSE or bool(side_figs(ctx, s, idx, 1)))
    to_d = dfd < BLACK
    if att < BLACK and ctx.seat_of(att) == seat:
        to_d = False
    if dfd < BLACK and ctx.seat_of(dfd) == seat:
        to_a = False
    return to_a, to_d


def send_ally_legal(ctx: Context, s: State, task: SendAlly) -> list[int]:
    idx = task.battle
    if plan(s)[idx].status != DUE:
        return []
    to_a, to_d = ally_sides(ctx, s, idx, task.seat)
    cands = ally_candidates(ctx, s, task.colour, idx) if to_a or to_d else []
    if not cands:
        return []
    legal = [DONE]
    legal += [ALLY_ATTACKER0 + f for f in cands] if to_a else []
    legal += [ALLY_DEFENDER0 + f for f in cands] if to_d else []
    return legal


def send_ally(ctx: Context, s: State, task: SendAlly, action: int) -> None:
    """Another player sends one character to the attacker's or the defender's side."""
    if action == DONE or s.battle is None:
        return
    side = 0 if action < ALLY_DEFENDER0 else 1
    f = action - (ALLY_ATTACKER0 if side == 0 else ALLY_DEFENDER0)
    idx = task.battle
    place(s, f, plan(s)[idx].galaxy)
    s.battle.allies[idx][side].append(f)
    note(
        s,
        "ally",
        f"{ctx.content.fig_name[f]} joins the {'attacker' if side == 0 else 'defender'} in "
        f"{ctx.content.galaxy_name(s.loc[f])}",
        rule="allies",
        figure=f,
        side="attacker" if side == 0 else "defender",
        galaxy=s.loc[f],
    )


def find_next_battle(ctx: Context, s: State, task: FindNextBattle) -> None:
    """The attacker chooses where to fight next when several Battles are due."""
    if s.battle is None or not s.alive[s.cur]:
        return
    due = sorted(battle_galaxies(s))
    if not due:
        return
    s.stack.append(FindNextBattle())
    if len(due) == 1:
        start_battles_at(ctx, s, due[0])
    else:
        s.stack.append(ChooseNextBattle(attacker_seat(ctx, s)))


def order_legal(ctx: Context, s: State, task: ChooseNextBattle) -> list[int]:
    return [GALAXY0 + g for g in sorted(battle_galaxies(s))]


def choose_next_battle(ctx: Context, s: State, task: ChooseNextBattle, action: int) -> None:
    """The attacker chooses the galaxy of the next Battle."""
    start_battles_at(ctx, s, action - GALAXY0)


def start_battles_at(ctx: Context, s: State, g: int) -> None:
    for idx in reversed([i for i, e in enumerate(plan(s)) if e.galaxy == g and e.status == DUE]):
        s.stack.append(StartBattle(idx))
        plan(s)[idx].status = FOUGHT


def start_battle(ctx: Context, s: State, task: StartBattle) -> None:
    """Loose ships nobody defends are destroyed; in the Lost Fortress each shadow draws ships."""
    idx = task.battle
    entry = plan(s)[idx]
    g, att, dfd, kind = entry.galaxy, entry.attacker, entry.defender, entry.kind
    if att < BLACK and not s.alive[att] or not side_figs(ctx, s, idx, 0):
        return
    if s.journal is not None:
        names = ctx.content.fig_name
        attackers, defenders = side_figs(ctx, s, idx, 0), side_figs(ctx, s, idx, 1)

        def who(colour: int, figs: list[int]) -> str:
            word = ctx.content.colours[colour] if colour < BLACK else "the shadows"
            return f"{word} ({', '.join(names[f] for f in figs)})" if figs else word

        what = {LOOSE: " over loose Space Ships", FORT: " for the Lost Fortress"}.get(kind, "")
        verb = "attack" if att >= BLACK else "attacks"  # "the shadows attack"
        note(
            s,
            "battle",
            f"Battle in {ctx.content.galaxy_name(g)}{what}: {who(att, attackers)} {verb} {who(dfd, defenders)}",
            rule="truce",
            battle=idx,
            galaxy=g,
            attacker=att,
            defender=dfd,
            battle_kind=kind,
            attackers=attackers,
            defenders=defenders,
        )
    if kind == LOOSE and not side_figs(ctx, s, idx, 1):
        if s.loose_n[g] and s.loose_col[g] == dfd:
            s.supply[dfd] += s.loose_n[g]
            note(
                s,
                "loose",
                f"nobody defends {'it' if s.loose_n[g] == 1 else 'them'}: "
                f"{counted(s.loose_n[g], f'loose {ctx.content.colours[dfd]} Space Ship')} in "
                f"{ctx.content.galaxy_name(g)} {'is' if s.loose_n[g] == 1 else 'are'} destroyed",
                rule="loose",
                galaxy=g,
                colour=dfd,
                destroyed=s.loose_n[g],
            )
            s.loose_n[g] = 0
            s.loose_col[g] = NOBODY
        return
    s.stack.append(EndBattle(idx))
    s.stack.append(FightRound(idx))
    if kind != FORT:
        offer_shift(ctx, s, defender_seat(ctx, s, idx), g, dfd)
    offer_shift(ctx, s, attacker_seat(ctx, s), g, att)
    if kind == FORT:
        for f in figs_at(s, g):
            if ctx.content.fig_kind[f] == SHADOW:
                s.stack.append(DrawShadowShips(f))


def fight_round(ctx: Context, s: State, task: FightRound) -> None:
    """Until one side has no fighter left: the attacker places one or two rings."""
    idx = task.battle
    if not s.alive[s.cur] or s.seat_out[defender_seat(ctx, s, idx)]:
        return
    if not duel_candidates(ctx, s, idx, 0) or not duel_candidates(ctx, s, idx, 1):
        return
    s.stack.append(FightRound(idx))
    s.stack.append(PlaceAttacker(attacker_seat(ctx, s), idx, NOBODY))


def place_a_legal(ctx: Context, s: State, task: PlaceAttacker) -> list[int]:
    return [FIGURE0 + f for f in duel_candidates(ctx, s, task.battle, 0) if f != task.first_attacker]


def place_attacker(ctx: Context, s: State, task: PlaceAttacker, action: int) -> None:
    """Place an attacking ring; with several attackers, two rings with a space between them."""
    f, idx, first = action - FIGURE0, task.battle, task.first_attacker
    many = len(duel_candidates(ctx, s, idx, 0)) >= 2
    if first == NOBODY and many:
        s.stack.append(PlaceAttacker(task.seat, idx, f))
        return
    a1, a2 = (first, f) if first != NOBODY else (f, NOBODY)
    dseat = defender_seat(ctx, s, idx)
    if a2 != NOBODY and len(duel_candidates(ctx, s, idx, 1)) == 1:
        s.stack.append(Face(dseat, idx, a1, a2))
    else:
        s.stack.append(PlaceDefender(dseat, idx, a1, a2, NOBODY))


def face_legal(ctx: Context, s: State, task: Face) -> list[int]:
    return sorted([FIGURE0 + task.first_attacker, FIGURE0 + task.second_attacker])


def face(ctx: Context, s: State, task: Face, action: int) -> None:
    """A lone defender chooses which of the two attackers he Duels."""
    idx = task.battle
    d = duel_candidates(ctx, s, idx, 1)[0]
    queue_duels(s, idx, [[action - FIGURE0, d]])


def place_d_legal(ctx: Context, s: State, task: PlaceDefender) -> list[int]:
    return [FIGURE0 + f for f in duel_candidates(ctx, s, task.battle, 1) if f != task.first_defender]


def place_defender(ctx: Context, s: State, task: PlaceDefender, action: int) -> None:
    """The defender places opposite the first attacker, then (if able) the second."""
    idx, a1, a2, d1 = task.battle, task.first_attacker, task.second_attacker, task.first_defender
    d = action - FIGURE0
    if a2 != NOBODY and d1 == NOBODY:
        s.stack.append(PlaceDefender(task.seat, idx, a1, a2, d))
        return
    pairs = [[a1, d]] if d1 == NOBODY else [[a1, d1], [a2, d]]
    queue_duels(s, idx, pairs)


def queue_duels(s: State, idx: int, pairs: list[list[int]]) -> None:
    """The Duels on the Battle Board are fought at the same time: both are prepared (Blasts,
    drawn and committed cards), then resolved."""
    s.stack.extend([ResolveDuel(idx)] * len(pairs))
    for a, d in reversed(pairs):
        s.stack.append(PrepareDuel(idx, a, d))


def battle_seat_for(ctx: Context, s: State, idx: int, side: int) -> int:
    return attacker_seat(ctx, s) if side == 0 else defender_seat(ctx, s, idx)


def uses_hand(side: int) -> bool:
    """Attack Hand cards only for the attacker's side (allies included)."""
    return side == 0


def is_shadow_fig(ctx: Context, f: int) -> bool:
    return ctx.content.fig_kind[f] in (SHADOW, SHADOWLORD)


RULES: dict[type[Task], Handler] = {
    Fight: Automatic(fight),
    ProposeTruce: Decision(
        decider,
        truce_q_legal,
        truce_question,
        "A Battle is due where your characters meet enemies: fight, or propose a Truce",
        rule="truce",
        shown=("battle",),
        ready=always,
    ),
    AnswerTruce: Decision(
        decider,
        yes_no,
        truce_answer,
        "A Truce is proposed to you: accept it, or refuse and fight",
        rule="truce",
        shown=("battle",),
        ready=always,
    ),
    ChallengeLooseShips: Decision(
        decider,
        yes_no,
        challenge_question,
        "Enemy Space Ships lie loose where your characters stand: challenge them, or leave them",
        rule="truce",
        shown=("battle",),
        ready=always,
    ),
    StartAllyCalls: Automatic(start_ally_calls),
    CallOwnCharacter: Decision(
        decider,
        call_own_legal,
        call_own_character,
        "You are attacked: call in one of your characters to defend, or call nobody",
        rule="allies",
        shown=("battle", "colour"),
    ),
    SendAlly: Decision(
        decider,
        send_ally_legal,
        send_ally,
        "A Battle is about to be fought: send one of your characters to a side, or send nobody",
        rule="allies",
        shown=("battle", "colour"),
    ),
    FindNextBattle: Automatic(find_next_battle),
    ChooseNextBattle: Decision(
        decider,
        order_legal,
        choose_next_battle,
        "Several Battles are due: choose where to fight next",
        rule="order",
    ),
    StartBattle: Automatic(start_battle),
    FightRound: Automatic(fight_round),
    PlaceAttacker: Decision(
        decider,
        place_a_legal,
        place_attacker,
        "Battle Board: place an attacking ring",
        rule="battle_board",
        shown=("battle", "first_attacker"),
    ),
    Face: Decision(
        decider,
        face_legal,
        face,
        "Battle Board: two rings attack your lone defender; choose the one he Duels",
        rule="battle_board",
        shown=("battle", "first_attacker", "second_attacker"),
    ),
    PlaceDefender: Decision(
        decider,
        place_d_legal,
        place_defender,
        "Battle Board: place a defending ring opposite the attacker",
        rule="battle_board",
        shown=("battle", "first_attacker", "second_attacker", "first_defender"),
    ),
}
"""The rules of Battles, by task type (gathered into ``RULEBOOK``)."""
