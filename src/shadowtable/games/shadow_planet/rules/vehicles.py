"""Driving Vehicles: declaring a destination, riders, the Vehicle bonus and the fallback
(RB "Driving Vehicles")."""

from __future__ import annotations

from dataclasses import replace

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import AskRider, DriveElsewhere, PlayMoveCards


def drive_options(ctx: Context, s: State, task: PlayMoveCards) -> list[tuple[int, int]]:
    """(vehicle, destination) pairs the active Character may declare now (before any Move card)."""
    ch = s.active
    if task.drive >= 0 or task.cards or s.char_section[ch] >= 0:
        return []
    here = s.char_loc[ch]
    return [
        (v, dest)
        for v, at in enumerate(s.vehicle_loc)
        if at == here
        for dest in range(4)
        if dest != here and ctx.drive_dist[here][dest] < 10**6
    ]


def declare_drive(ctx: Context, s: State, task: PlayMoveCards, vehicle: int, dest: int) -> None:
    """Take the Vehicle card, declare the destination; controlled Characters here may ride,
    asked in Initiative order while there is room."""
    ch = s.active
    s.stack.append(PlayMoveCards(task.seat, task.total, task.cards, vehicle, dest, ()))
    here = s.char_loc[ch]
    ask = [x for x in range(6) if x != ch and s.controller[x] >= 0 and s.char_loc[x] == here and s.char_section[x] < 0]
    if ask and ctx.content.vehicle_capacity[vehicle] > 1:
        s.stack.append(AskRider(s.controller[ask[0]], ask[0], tuple(ask[1:]), vehicle, dest))


def ride_options(ctx: Context, s: State, task: AskRider) -> list[int]:
    return [A.RIDE, A.STAY]


def answer_ride(ctx: Context, s: State, task: AskRider, action: int) -> None:
    """The asked player accepts (joining the drive declared below) or refuses; asking stops
    when the Vehicle is full."""
    if action == A.RIDE:
        move = s.stack.pop()
        assert isinstance(move, PlayMoveCards)
        move = replace(move, passengers=(*move.passengers, task.rider))
        s.stack.append(move)
        if len(move.passengers) + 1 >= ctx.content.vehicle_capacity[task.drive]:
            return
    if task.waiting:
        rider = task.waiting[0]
        s.stack.append(AskRider(s.controller[rider], rider, task.waiting[1:], task.drive, task.dest))


def drive_total(ctx: Context, task: PlayMoveCards) -> int:
    """Move value with the Vehicle bonus (Moonette: add then multiply; Crawler: +1 per card)."""
    kind, amount = ctx.content.vehicle_bonus[task.drive]
    if kind == "multiply_total":
        return task.total * amount
    return task.total + amount * task.cards


def drive_to(ctx: Context, s: State, vehicle: int, passengers: tuple[int, ...], dest: int, points: int) -> None:
    """Driver, passengers and the Vehicle tile arrive at ``dest`` (``points``: the Move total
    with the Vehicle bonus that paid the distance)."""
    here = s.char_loc[s.active]
    for ch in [s.active, *passengers]:
        s.char_loc[ch] = dest
        s.char_section[ch] = -1
    s.vehicle_loc[vehicle] = dest
    if s.journal is not None:
        c = ctx.content
        driver, car = c.char_names[s.active], c.vehicle_names[vehicle]
        there, start = c.location_names[dest], c.location_names[here]
        riders = [c.char_names[ch] for ch in passengers]
        with_ = f" with {', '.join(riders)}" if riders else ""
        distance = ctx.drive_dist[here][dest]
        note(
            s,
            "drive",
            f"{driver} drives the {car} {start} -> {there}{with_} (distance {distance}, Move total {points})",
            rule="vehicle",
            character=driver,
            vehicle=car,
            origin=start,
            to=there,
            passengers=riders,
            cost=distance,
            points=points,
        )


def fallback_destinations(ctx: Context, s: State, points: int) -> list[int]:
    """Other destinations within the driver's total (the Crawler example)."""
    here = s.char_loc[s.active]
    return [d for d in range(4) if d != here and ctx.drive_dist[here][d] <= points]


def fallback_options(ctx: Context, s: State, task: DriveElsewhere) -> list[int]:
    return sorted([A.GOTO + d for d in fallback_destinations(ctx, s, task.points)] + [A.DONE])


def fallback(ctx: Context, s: State, task: DriveElsewhere, action: int) -> None:
    """Drive to another reachable Location, or stay."""
    if action != A.DONE:
        drive_to(ctx, s, task.drive, task.passengers, action - A.GOTO, task.points)
