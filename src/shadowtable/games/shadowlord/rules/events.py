"""Step 2, Special Events: roll 2d8 and resolve the table's result (every result skippable except
"Draw 2 Power Cards"; Defect, Spacestorm and Steal go to a vote in 3-4 player games)."""

from __future__ import annotations

from shadowtable.games.shadowlord.actions import DONE, FIG0, GAL0, SEAT0
from shadowtable.games.shadowlord.board import alliance_figs
from shadowtable.games.shadowlord.content import CARD_VALUES, EVENTS
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats, release
from shadowtable.games.shadowlord.rules.cards import D8_HANDLERS, hand_count, two_d8_outcomes
from shadowtable.games.shadowlord.rules.recruit import bribable
from shadowtable.games.shadowlord.rules.registry import chance, decision, log
from shadowtable.games.shadowlord.rules.voting import EFFECTS, start_vote
from shadowtable.games.shadowlord.state import CAPTIVE, SLState, Task

NV = CARD_VALUES
DEFECT, ESCAPE, STORM, DISCOVER, STEAL, DRAW2 = (
    EVENTS.index(n) for n in ("defect", "escape", "spacestorm", "discover", "steal", "draw2")
)


@chance("event_roll", two_d8_outcomes)
def roll_event(ctx: Context, s: SLState, task: Task, total: int) -> None:
    event = ctx.content.events[total]
    log(s, f"Special Event roll {total}: {EVENTS[event]}")
    seat = ctx.seat_of(s.cur)
    if event == DRAW2:
        s.stack.extend([("draw", "hand", seat)] * 2)
    elif event != 0 and event_targets(ctx, s, event, seat):
        s.stack.append(("event", seat, event))


def own_captives(ctx: Context, s: SLState, seat: int) -> list[int]:
    return [
        f for a in ctx.seat_alliances[seat] for f in range(len(s.owner)) if s.owner[f] == a and s.status[f] == CAPTIVE
    ]


def ships_of_seat(ctx: Context, s: SLState, seat: int) -> int:
    colours = ctx.seat_alliances[seat]
    rings = sum(s.ships[f] for a in colours for f in alliance_figs(s, a))
    return rings + sum(n for g, n in enumerate(s.loose_n) if n and s.loose_col[g] in colours)


def event_targets(ctx: Context, s: SLState, event: int, seat: int) -> list[int]:
    """Action ids naming a target of ``event``."""
    others = [k for k in alive_seats(s) if k != seat]
    if event == DEFECT:
        return [FIG0 + f for f in range(len(s.owner)) if bribable(ctx, s, f, s.cur)]
    if event == ESCAPE:
        return [FIG0 + f for f in own_captives(ctx, s, seat) if s.alive[s.owner[f]]]
    if event == STORM:
        return [SEAT0 + k for k in others if ships_of_seat(ctx, s, k)]
    if event == DISCOVER:
        return [GAL0 + g for g, d in enumerate(s.disc) if d]
    if event == STEAL:
        return [SEAT0 + k for k in others if hand_count(s, k)]
    return []


def event_legal(ctx: Context, s: SLState, task: Task) -> list[int]:
    return [DONE, *event_targets(ctx, s, task[2], task[1])]


@decision("event", event_legal)
def resolve_event(ctx: Context, s: SLState, task: Task, action: int) -> None:
    """Skip (``done``) or name the event's target."""
    event = task[2]
    if action == DONE:
        log(s, f"{ctx.content.colours[s.cur]} skips the event")
        return
    if event == DEFECT:
        start_vote(ctx, s, "defect", action - FIG0)
    elif event == ESCAPE:
        f = action - FIG0
        release(ctx, s, f)
        log(s, f"{ctx.content.fig_name[f]} Escapes to {ctx.content.galaxy_name(s.loc[f])}")
    elif event == STORM:
        start_vote(ctx, s, "storm", action - SEAT0)
    elif event == DISCOVER:
        s.stack.append(("reveal", action - GAL0, "discover"))
    elif event == STEAL:
        start_vote(ctx, s, "steal", action - SEAT0)


def _storm_pass(ctx: Context, s: SLState, seat: int, _: int) -> None:
    s.stack.append(("d8", "storm", seat))


def _steal_pass(ctx: Context, s: SLState, seat: int, _: int) -> None:
    s.stack.append(("steal", seat, 2))


def _nothing(ctx: Context, s: SLState, a: int, b: int) -> None:
    return None


EFFECTS["storm"] = (_storm_pass, _nothing)
EFFECTS["steal"] = (_steal_pass, _nothing)


def storm_roll(ctx: Context, s: SLState, task: Task, roll: int) -> None:
    seat = task[2]
    n = min(roll, ships_of_seat(ctx, s, seat))
    log(s, f"Spacestorm: seat {seat} loses {n} Space Ship(s) (rolled {roll})")
    if n:
        s.stack.append(("storm_discard", seat, n))


D8_HANDLERS["storm"] = storm_roll


def storm_legal(ctx: Context, s: SLState, task: Task) -> list[int]:
    colours = ctx.seat_alliances[task[1]]
    rings = [FIG0 + f for a in colours for f in alliance_figs(s, a) if s.ships[f]]
    loose = [GAL0 + g for g, n in enumerate(s.loose_n) if n and s.loose_col[g] in colours]
    return rings + loose


@decision("storm_discard", storm_legal)
def storm_discard(ctx: Context, s: SLState, task: Task, action: int) -> None:
    """The target chooses, one at a time, which Space Ships the Spacestorm destroys."""
    if action >= GAL0:
        g = action - GAL0
        s.supply[s.loose_col[g]] += 1
        s.loose_n[g] -= 1
        if not s.loose_n[g]:
            s.loose_col[g] = -1
    else:
        f = action - FIG0
        s.ships[f] -= 1
        s.supply[s.owner[f]] += 1
    if task[2] > 1:
        s.stack.append(("storm_discard", task[1], task[2] - 1))


def steal_outcomes(ctx: Context, s: SLState, task: Task) -> list[tuple[int, float]]:
    base = task[1] * NV
    total = sum(s.hand[base : base + NV])
    return [(v, s.hand[base + v] / total) for v in range(NV) if s.hand[base + v]]


@chance("steal", steal_outcomes)
def steal_card(ctx: Context, s: SLState, task: Task, v: int) -> None:
    """Steal one random card from the victim's Attack Hand (the value stays private)."""
    victim, left = task[1], task[2]
    s.hand[victim * NV + v] -= 1
    s.hand[ctx.seat_of(s.cur) * NV + v] += 1
    log(s, f"{ctx.content.colours[s.cur]} steals a card from seat {victim}")
    if left > 1 and hand_count(s, victim):
        s.stack.append(("steal", victim, left - 1))
