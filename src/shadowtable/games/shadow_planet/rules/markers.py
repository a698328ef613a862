"""Giving pool Markers to another player, one colour at a time: Rachel's ability and the
Hibernation Chamber ask the same two questions (who receives, then each Marker's colour)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.rules.causes import marker
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    ChooseMarkerColour,
    ChooseMarkerSeat,
    ChooseSectionMarkerColour,
    ChooseSectionMarkerSeat,
)

COLOUR_TASK: dict[
    type[ChooseMarkerSeat | ChooseSectionMarkerSeat], type[ChooseMarkerColour | ChooseSectionMarkerColour]
] = {
    ChooseMarkerSeat: ChooseMarkerColour,
    ChooseSectionMarkerSeat: ChooseSectionMarkerColour,
}
"""The colour question that follows each "who receives" question."""


def other_seats(ctx: Any, s: State, task: ChooseMarkerSeat | ChooseSectionMarkerSeat) -> list[int]:
    return [A.SEAT + x for x in range(s.n) if x != task.seat]


def give_to(ctx: Any, s: State, task: ChooseMarkerSeat | ChooseSectionMarkerSeat, action: int) -> None:
    s.stack.append(COLOUR_TASK[type(task)](task.seat, action - A.SEAT, task.count))


def pool_colours(ctx: Any, s: State, task: ChooseMarkerColour | ChooseSectionMarkerColour) -> list[int]:
    return [A.COLOUR + colour for colour in range(5) if s.pool[colour] > 0]


def choose_marker_colour(ctx: Any, s: State, task: ChooseMarkerColour | ChooseSectionMarkerColour, action: int) -> None:
    """Give one pool Marker of the colour to the chosen player; ask again while some are owed."""
    colour = action - A.COLOUR
    s.pool[colour] -= 1
    s.sheets[task.target * 5 + colour] += 1
    if s.journal is not None:
        giver = s.active
        name = ctx.content.char_names[giver]
        if isinstance(task, ChooseMarkerColour):
            why, rule, cause = f"given by seat {task.seat} with {name}'s ability", "ability", "ability"
        else:
            section = s.char_section[giver]
            place = ctx.content.section_names[section] if section >= 0 else "Section"
            why, rule, cause = f"given by seat {task.seat} with the {place} effect", "section", "section"
        marker(ctx, s, task.target, colour, why, rule, cause, giver=task.seat, character=name)
    if task.count > 1 and any(s.pool):
        s.stack.append(replace(task, count=task.count - 1))
