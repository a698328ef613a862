"""Step 2, Special Events: roll 2d8 and resolve the table's result (every result skippable except
"Draw 2 Power Cards"; Defect, Spacestorm and Steal go to a vote in 3-4 player games)."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.core.kernel import Chance, Decision, Handler, Task, always
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.actions import DONE, FIGURE0, GALAXY0, SEAT0
from shadowtable.games.shadowlord.board import alliance_figs
from shadowtable.games.shadowlord.content import CARD_VALUES, EVENT_NAMES, EVENTS
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats, release
from shadowtable.games.shadowlord.rules.cards import d8_outcomes, hand_count, public_roll, two_d8_outcomes
from shadowtable.games.shadowlord.rules.recruit import bribable
from shadowtable.games.shadowlord.state import CAPTIVE, State
from shadowtable.games.shadowlord.tasks import (
    ChooseEventTarget,
    DiscardStormShip,
    DrawToHand,
    PutToVote,
    Reveal,
    RollEvent,
    RollStorm,
    StealCard,
    decider,
)

NV = CARD_VALUES
DEFECT, ESCAPE, STORM, DISCOVER, STEAL, DRAW2 = (
    EVENTS.index(n) for n in ("defect", "escape", "spacestorm", "discover", "steal", "draw2")
)


NO_TARGET = {
    "defect": "no character can be bribed",
    "escape": "none of this player's characters is held captive",
    "spacestorm": "no other player has a Space Ship",
    "discover": "no face-down disc is left",
    "steal": "no other player holds a Power Card",
}
"""Why an event finds no target, by event (``content.EVENTS``)."""


def roll_event(ctx: Context, s: State, task: RollEvent, total: int) -> None:
    """The 2d8 sum picks the Special Event."""
    event = ctx.content.events[total]
    note(
        s,
        "special_event",
        f"Special Event roll {total}: {EVENT_NAMES[event]}",
        rule="event",
        roll=total,
        event=EVENTS[event],
    )
    seat = ctx.seat_of(s.cur)
    if event == DRAW2:
        s.stack.extend([DrawToHand(seat)] * 2)
    elif event != 0 and event_targets(ctx, s, event, seat):
        s.stack.append(ChooseEventTarget(seat, event))
    elif event != 0:
        note(
            s,
            "special_event",
            f"{EVENT_NAMES[event]} has no target ({NO_TARGET[EVENTS[event]]}): nothing happens",
            rule="event",
            event=EVENTS[event],
            no_target=True,
        )


def own_captives(ctx: Context, s: State, seat: int) -> list[int]:
    return [
        f for a in ctx.seat_alliances[seat] for f in range(len(s.owner)) if s.owner[f] == a and s.status[f] == CAPTIVE
    ]


def ships_of_seat(ctx: Context, s: State, seat: int) -> int:
    colours = ctx.seat_alliances[seat]
    rings = sum(s.ships[f] for a in colours for f in alliance_figs(s, a))
    return rings + sum(n for g, n in enumerate(s.loose_n) if n and s.loose_col[g] in colours)


def event_targets(ctx: Context, s: State, event: int, seat: int) -> list[int]:
    """Action ids naming a target of ``event``."""
    others = [k for k in alive_seats(s) if k != seat]
    if event == DEFECT:
        return [FIGURE0 + f for f in range(len(s.owner)) if bribable(ctx, s, f, s.cur)]
    if event == ESCAPE:
        return [FIGURE0 + f for f in own_captives(ctx, s, seat) if s.alive[s.owner[f]]]
    if event == STORM:
        return [SEAT0 + k for k in others if ships_of_seat(ctx, s, k)]
    if event == DISCOVER:
        return [GALAXY0 + g for g, d in enumerate(s.disc) if d]
    if event == STEAL:
        return [SEAT0 + k for k in others if hand_count(s, k)]
    return []


def event_legal(ctx: Context, s: State, task: ChooseEventTarget) -> list[int]:
    return [DONE, *sorted(event_targets(ctx, s, task.event, task.seat))]


def resolve_event(ctx: Context, s: State, task: ChooseEventTarget, action: int) -> None:
    """Skip (``done``) or name the event's target."""
    event = task.event
    if action == DONE:
        note(
            s,
            "special_event",
            f"{ctx.content.colours[s.cur]} skips the event ({EVENT_NAMES[event]})",
            rule="event",
            event=EVENTS[event],
            skipped=True,
        )
        return
    if event == DEFECT:
        s.stack.append(PutToVote("defect", action - FIGURE0))
    elif event == ESCAPE:
        f = action - FIGURE0
        release(ctx, s, f)
        note(
            s,
            "escape",
            f"{ctx.content.fig_name[f]} Escapes to {ctx.content.galaxy_name(s.loc[f])}, the galaxy of his Star Master",
            rule="event",
            figure=f,
            galaxy=s.loc[f],
        )
    elif event == STORM:
        s.stack.append(PutToVote("storm", action - SEAT0))
    elif event == DISCOVER:
        s.stack.append(Reveal(action - GALAXY0, True))
    elif event == STEAL:
        s.stack.append(PutToVote("steal", action - SEAT0))


def storm_passes(ctx: Context, s: State, seat: int, _: int) -> None:
    """The Spacestorm vote passed: the target rolls for its losses."""
    s.stack.append(RollStorm(seat))


def steal_passes(ctx: Context, s: State, seat: int, _: int) -> None:
    """The Steal vote passed: two random cards of the target's Attack Hand."""
    s.stack.append(StealCard(seat, 2))


def roll_storm(ctx: Context, s: State, task: RollStorm, roll: int) -> None:
    seat = task.seat
    n = min(roll, ships_of_seat(ctx, s, seat))
    note(
        s,
        "storm",
        f"Spacestorm: seat {seat} rolls {roll} and loses {counted(n, 'Space Ship')}"
        + (f" (only {n} left)" if n < roll else ""),
        rule="storm",
        seat=seat,
        roll=roll,
        lost=n,
    )
    if n:
        s.stack.append(DiscardStormShip(seat, n))


def storm_legal(ctx: Context, s: State, task: DiscardStormShip) -> list[int]:
    colours = ctx.seat_alliances[task.seat]
    rings = [FIGURE0 + f for a in colours for f in alliance_figs(s, a) if s.ships[f]]
    loose = [GALAXY0 + g for g, n in enumerate(s.loose_n) if n and s.loose_col[g] in colours]
    return sorted(rings) + loose


def discard_storm_ship(ctx: Context, s: State, task: DiscardStormShip, action: int) -> None:
    """The target chooses, one at a time, which Space Ships the Spacestorm destroys."""
    if action >= GALAXY0:
        g = action - GALAXY0
        s.supply[s.loose_col[g]] += 1
        s.loose_n[g] -= 1
        if not s.loose_n[g]:
            s.loose_col[g] = -1
    else:
        f = action - FIGURE0
        s.ships[f] -= 1
        s.supply[s.owner[f]] += 1
    if task.count == 1:
        note(s, "storm", f"the Spacestorm is over for seat {task.seat}", rule="storm", seat=task.seat, lost=0)
    if task.count > 1:
        s.stack.append(DiscardStormShip(task.seat, task.count - 1))


def steal_outcomes(ctx: Context, s: State, task: StealCard) -> list[tuple[int, float]]:
    base = task.victim * NV
    total = sum(s.hand[base : base + NV])
    return [(v, s.hand[base + v] / total) for v in range(NV) if s.hand[base + v]]


def steal_card(ctx: Context, s: State, task: StealCard, v: int) -> None:
    """Steal one random card from the victim's Attack Hand (the value stays private)."""
    victim, left = task.victim, task.count
    s.hand[victim * NV + v] -= 1
    s.hand[ctx.seat_of(s.cur) * NV + v] += 1
    thief = ctx.seat_of(s.cur)
    if s.journal is not None:
        # Everyone is told that a card was stolen; only the thief and the victim which one.
        note(
            s,
            "steal",
            f"seat {thief} steals a Power Card from seat {victim}",
            rule="event",
            thief=thief,
            victim=victim,
        )
        value = ctx.content.card_values[v]
        note(
            s,
            "steal",
            f"the Power Card stolen from seat {victim} is a {value}",
            rule="event",
            seats=(thief, victim),
            thief=thief,
            victim=victim,
            card=value,
        )
    if left > 1 and hand_count(s, victim):
        s.stack.append(StealCard(victim, left - 1))


RULES: dict[type[Task], Handler] = {
    RollEvent: Chance(two_d8_outcomes, public_roll(roll_event)),
    ChooseEventTarget: Decision(
        decider,
        event_legal,
        resolve_event,
        "Special Event: name its target, or skip it",
        rule="event",
        shown=("event",),
        ready=always,
    ),
    RollStorm: Chance(d8_outcomes, public_roll(roll_storm), shown=("seat",)),
    DiscardStormShip: Decision(
        decider,
        storm_legal,
        discard_storm_ship,
        "Spacestorm: choose the next of your Space Ships to lose",
        rule="storm",
        shown=("count",),
    ),
    StealCard: Chance(steal_outcomes, steal_card, shown=("victim", "count")),
}
"""The rules of Special Events, by task type (gathered into ``RULEBOOK``)."""
