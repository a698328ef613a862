"""The initial state: the board set up before the first chance node (Objectives not yet dealt)."""

from __future__ import annotations

from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import GEAR0, MSG, State, zone_index
from shadowtable.games.shadow_planet.tasks import ChooseProtagonist, DealObjective, RemoveObjective, StartRound


def new_state(ctx: Context) -> State:
    """The state before the first chance node: board set up, Objectives not yet dealt.

    The pending work: Objectives removed unseen (3-4 players), one dealt to each seat, the
    Protagonist chosen, then the first round.
    """
    c, n = ctx.content, ctx.players
    s = State.__new__(State)
    s.journal, s.legal = None, None
    s.n, s.round, s.protagonist = n, 0, -1
    s.objectives, s.removed_objectives = [-1] * n, []
    s.countdown, s.repair, s.threat, s.latched = c.countdown_start, ctx.repair_start, c.threat_start, 0
    s.pool, s.sheets = [c.markers_per_colour] * 5, [0] * (5 * n)
    s.section_markers = [0] * len(c.section_names)
    s.char_loc, s.char_section = list(c.char_start), [-1] * 6
    s.controller, s.seat_char, s.vehicle_loc = [-1] * 6, [-1] * n, [-1] * len(c.vehicle_names)
    s.where = [h if h < 4 else (GEAR0 + h - 4 if h < 10 else MSG) for h in c.card_home]
    s.zones = zone_index(s.where)
    s.top, s.temple, s.known, s.public = [[] for _ in range(5)], [], [0] * n, 0
    s.draft_random, s.draft_picks = -1, [-1] * n
    s.active, s.forbid, s.excl, s.bonus, s.auras, s.cancelled = 0, 0, 0, 0, [], -1
    s.revealed, s.last_reveal, s.trajectory = [0] * 5, [0] * 5, []
    s.reveal_cards = []
    s.end_reason, s.identity = 0, [-1] * n
    s.trajectory.append([s.countdown, s.repair, s.threat])
    removals = [RemoveObjective() for _ in range(5 - n)]
    s.stack = [StartRound(), ChooseProtagonist(), *[DealObjective(seat) for seat in reversed(range(n))], *removals]
    return s
