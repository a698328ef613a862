"""Readable, unique notation for every action id and chance outcome, and its parser."""

from __future__ import annotations

import re

from shadowtable.core.game import normalise_notation
from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.content import COLOURS
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    ChooseProtagonist,
    DealObjective,
    GiveRobotCard,
    GiveScrapCard,
    PickTempleCard,
    RemoveMessage,
    RemoveObjective,
    ReturnScrapCard,
    RevealTop,
    ShowRevealCard,
    TakeRobotCard,
)

CHOOSE_VERBS: dict[type[Task], str] = {
    GiveScrapCard: "give",
    ReturnScrapCard: "give",
    RemoveMessage: "remove",
    TakeRobotCard: "take",
    GiveRobotCard: "give",
    PickTempleCard: "temple",
    ShowRevealCard: "reveal",
}
"""The verb of a card choice (``CHOOSE`` + card) by the pending task."""
FIXED = {
    A.DONE: "done",
    A.RIDE: "ride",
    A.STAY: "stay",
    A.USE: "use ability",
    A.SKIP: "skip ability",
    A.LEAVE: "leave section",
    A.ADVANCE: "advance countdown",
    A.MOVE_BACK: "move back countdown",
}


def decision_to_str(r: Context, s: State | None, a: int) -> str:
    """Notation of decision ``a``; the state (if any) only picks a card choice's verb and a
    Section reveal's label."""
    c = r.content
    task = s.stack[-1] if s is not None and s.stack else None
    section = s.char_section[s.active] if s is not None and s.active < 6 else -1
    if a in FIXED:
        return FIXED[a]
    if A.PICK <= a < A.PLAY:
        return f"pick {c.char_names[a - A.PICK]}"
    if A.PLAY <= a < A.CHOOSE:
        return f"play {c.short(a - A.PLAY)}"
    if A.CHOOSE <= a < A.PLACE:
        return f"{CHOOSE_VERBS.get(type(task), 'choose') if task is not None else 'choose'} {c.short(a - A.CHOOSE)}"
    if A.PLACE <= a < A.DISCARD:
        return f"place {c.short(a - A.PLACE)}"
    if A.DISCARD <= a < A.DONE:
        return f"discard {c.short(a - A.DISCARD)}"
    if A.GOTO <= a < A.ENTER:
        return f"go {c.location_names[a - A.GOTO]}"
    if A.ENTER <= a < A.DRIVE:
        return f"enter {c.section_names[a - A.ENTER]}"
    if A.DRIVE <= a < A.RIDE:
        v, d = divmod(a - A.DRIVE, 4)
        return f"drive {c.vehicle_names[v]} to {c.location_names[d]}"
    if A.CANCEL <= a < A.SEAT:
        return f"cancel {c.char_names[a - A.CANCEL]}"
    if A.SEAT <= a < A.COLOUR:
        return f"seat {a - A.SEAT}"
    if A.COLOUR <= a < A.USE:
        return f"marker {COLOURS[a - A.COLOUR]}"
    if A.RESOLVE <= a < A.LEAVE:
        reveals = c.section_reveals[section] if section >= 0 else ()
        label = reveals[a - A.RESOLVE].label if a - A.RESOLVE < len(reveals) else "reveal"
        return f"resolve {a - A.RESOLVE} {label}"
    if A.DECK <= a < A.IDENTITY:
        return f"top of {c.location_names[a - A.DECK]}"
    if A.IDENTITY <= a < A.NUM_ACTIONS:
        return f"identity {c.char_names[a - A.IDENTITY]}"
    return f"action {a}"


def chance_to_str(r: Context, s: State, outcome: int) -> str:
    """Notation of a chance outcome, e.g. ``draw Melita: Medi-Kit (Move 2) #0``."""
    c = r.content
    task = s.stack[-1]
    if isinstance(task, RevealTop):
        where = "Messages" if task.deck == M.MESSAGES_DECK else c.location_names[task.deck]
        return f"reveal {where}: {c.short(outcome)}"
    if isinstance(task, RemoveObjective):
        return f"remove objective {c.objective_names[outcome]}"
    if isinstance(task, DealObjective):
        return f"deal seat {task.seat}: {c.objective_names[outcome]}"
    if isinstance(task, ChooseProtagonist):
        return f"protagonist seat {outcome}"
    return f"random character {c.char_names[outcome]}"


_CARD_VERBS = {"play": A.PLAY, "place": A.PLACE, "discard": A.DISCARD}
_CHOOSE = {"give", "remove", "take", "temple", "choose", "reveal"}


def decision_from_str(r: Context, text: str) -> int | None:
    """The action id named by ``text`` regardless of legality, or None if unknown."""
    words = normalise_notation(text)
    for a, name in FIXED.items():
        if words == name:
            return a
    card = re.search(r"#([0-9]{1,6})$", words)  # ASCII digits, short: int() never fails
    verb = words.split(" ", 1)[0]
    if card and int(card.group(1)) < r.num_cards:
        if verb in _CARD_VERBS:
            return _CARD_VERBS[verb] + int(card.group(1))
        if verb in _CHOOSE:
            return A.CHOOSE + int(card.group(1))
        return None
    for a in range(A.NUM_ACTIONS):
        if A.PLAY <= a < A.DONE or A.RESOLVE <= a < A.LEAVE:
            continue
        if decision_to_str(r, None, a).lower() == words:
            return a
    match = re.fullmatch(r"resolve ([0-9]) .*", words)
    return A.RESOLVE + int(match.group(1)) if match and int(match.group(1)) < 2 else None


GROUPS = (
    (A.PLAY, A.CHOOSE, "play a card from your hand"),
    (A.CHOOSE, A.PLACE, "choose a card"),
    (A.PLACE, A.DISCARD, "put a searched card back"),
    (A.DISCARD, A.DONE, "discard a card face-down to the Messages pile"),
    (A.GOTO, A.DRIVE, "move"),
    (A.DRIVE, A.RIDE, "drive a Vehicle"),
    (A.SEAT, A.COLOUR, "choose a player"),
    (A.COLOUR, A.USE, "take a Marker from the pool"),
    (A.DECK, A.IDENTITY, "take the top card of a deck"),
)
"""Id ranges whose actions differ only in a detail (a card, a place...), with their label."""


def action_group(action: int) -> str | None:
    """The label of the choice ``action`` belongs to (see :meth:`Game.action_group`)."""
    for low, high, label in GROUPS:
        if low <= action < high:
            return label
    return None
