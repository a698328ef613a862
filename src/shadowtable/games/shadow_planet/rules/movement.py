"""Step I's consequence: walking along Links and into Sections, or driving (RB "I. Move")."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.abilities import can_enter
from shadowtable.games.shadow_planet.rules.vehicles import drive_to, drive_total, fallback_destinations
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import DriveElsewhere, PlayMoveCards, SpendMovePoints


def move_end(ctx: Context, s: State, task: PlayMoveCards) -> None:
    """Drive the declared Vehicle, or spend the points on Links and Sections (unused points
    are lost when step II starts)."""
    here = s.char_loc[s.active]
    if task.drive >= 0:
        points = drive_total(ctx, task)
        if ctx.drive_dist[here][task.dest] <= points:
            drive_to(ctx, s, task.drive, task.passengers, task.dest, points)
        elif ctx.options["vehicle_fallback"] and fallback_destinations(ctx, s, points):
            s.stack.append(DriveElsewhere(task.seat, points, task.drive, task.passengers))
        elif s.journal is not None:
            c = ctx.content
            dest, distance = c.location_names[task.dest], ctx.drive_dist[here][task.dest]
            note(
                s,
                "drive",
                f"{c.char_names[s.active]} stays in {c.location_names[here]}: {dest} is {distance} away, "
                f"the Move total is {points}",
                rule="vehicle",
                character=c.char_names[s.active],
                vehicle=c.vehicle_names[task.drive],
                origin=c.location_names[here],
                to=c.location_names[here],
                passengers=[],
                cost=0,
                points=points,
                wanted=dest,
                distance=distance,
            )
        return
    if walk_options(ctx, s, task.total):
        s.stack.append(SpendMovePoints(task.seat, task.total))


def walk_options(ctx: Context, s: State, points: int) -> list[tuple[str, int]]:
    """("goto", Location) and ("enter", Section) moves affordable with ``points``."""
    ch = s.active
    here = s.char_loc[ch]
    cost = ctx.content.link_cost[here]
    out = [("goto", dest) for dest in range(4) if ctx.walk_ok[here][dest] and cost[dest] <= points]
    if s.char_section[ch] < 0:
        for sec, loc in enumerate(ctx.content.section_location):
            if loc == here and ctx.content.section_entry[sec] <= points and can_enter(ctx, s, ch, sec):
                out.append(("enter", sec))
    return out


def walk_actions(ctx: Context, s: State, task: SpendMovePoints) -> list[int]:
    options = walk_options(ctx, s, task.points)
    return sorted([A.GOTO + x if kind == "goto" else A.ENTER + x for kind, x in options] + [A.DONE])


def walk_step(ctx: Context, s: State, task: SpendMovePoints, action: int) -> None:
    """Move along a Link (leaving any Section), enter a Section (movement ends), or stop."""
    ch = s.active
    if action == A.DONE:
        return
    if action >= A.ENTER:
        s.char_section[ch] = action - A.ENTER
        if s.journal is not None:
            section, entry = ctx.content.section_names[action - A.ENTER], ctx.content.section_entry[action - A.ENTER]
            note(
                s,
                "move",
                f"{ctx.content.char_names[ch]} enters the {section} (entry {entry}, {task.points} Move points; "
                "movement ends)",
                rule="move",
                character=ctx.content.char_names[ch],
                by="walk",
                section=section,
                cost=entry,
                points=task.points,
                left=0,
            )
        return
    dest = action - A.GOTO
    here = s.char_loc[ch]
    cost = ctx.content.link_cost[here][dest]
    points = task.points - cost
    s.char_loc[ch], s.char_section[ch] = dest, -1
    if s.journal is not None:
        start, there = ctx.content.location_names[here], ctx.content.location_names[dest]
        note(
            s,
            "move",
            f"{ctx.content.char_names[ch]} moves {start} -> {there} (Link cost {cost}, {points} of {task.points} "
            "Move points left)",
            rule="move",
            character=ctx.content.char_names[ch],
            by="walk",
            origin=start,
            to=there,
            cost=cost,
            points=task.points,
            left=points,
        )
    if walk_options(ctx, s, points):
        s.stack.append(SpendMovePoints(task.seat, points))


def reachable(ctx: Context, s: State, points: int) -> list[str]:
    """Where the active Character could walk with ``points`` Move points, in words with the
    cheapest cost: Locations along Links, then Sections entered there (entering ends movement)."""
    ch = s.active
    start = s.char_loc[ch]
    best = {loc: cost for loc, cost in enumerate(ctx.walk_dist[start]) if cost <= points}
    words = [
        f"go {ctx.content.location_names[loc]} (cost {cost})" for loc, cost in sorted(best.items()) if loc != start
    ]
    for sec, loc in enumerate(ctx.content.section_location):
        if loc not in best or (loc == start and s.char_section[ch] >= 0 and best[loc] == 0):
            continue
        cost = best[loc] + ctx.content.section_entry[sec]
        if cost <= points and can_enter(ctx, s, ch, sec):
            words.append(f"enter {ctx.content.section_names[sec]} (cost {cost})")
    return words
