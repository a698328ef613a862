"""Plain-words narration for logs and the rule that applies now, without leaking secrets.

A chance outcome names its card only if the viewing seat knows that card once it is dealt
(``public`` or the seat's ``known`` mask); secret decisions (draft picks, face-down discards,
search reordering, private card choices) name their card only to the seat that made them.
"""

from __future__ import annotations

from shadowtable.core.game import CHANCE
from shadowtable.core.rules_help import quote
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.notation import chance_to_str, decision_to_str
from shadowtable.games.shadow_planet.rules import current_player
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    ChooseProtagonist,
    DealObjective,
    RemoveObjective,
    RevealMessages,
    RevealTop,
)

SECRET_DECISIONS = (
    (A.PICK, A.PLAY, "picks a Character face-down"),
    (A.CHOOSE, A.PLACE, "chooses a card"),
    (A.PLACE, A.DISCARD, "puts a searched card back"),
    (A.DISCARD, A.DONE, "discards a card face-down to the Messages pile"),
)


def rules_help(rule: str) -> str:
    """The rule that applies (a pending decision's ``rule``), quoted with its section."""
    return quote("shadowtable.games.shadow_planet", rule) if rule else ""


def event_text(r: Context, before: State, after: State, action: int, seat: int | None) -> str | None:
    """How ``action`` (taken in ``before``, giving ``after``) reads to ``seat``."""
    player = current_player(before)
    if player == CHANCE:
        return _chance_text(r, before, after, action, seat)
    who = "you" if player == seat else f"seat {player}"
    if player != seat:
        for low, high, words in SECRET_DECISIONS:
            if low <= action < high:
                return f"{who} {words}"
    return f"{who}: {decision_to_str(r, before, action)}"


def _chance_text(r: Context, before: State, after: State, outcome: int, seat: int | None) -> str | None:
    task = before.stack[-1]
    if isinstance(task, RevealTop) and isinstance(before.stack[-2:][0], RevealMessages):
        return chance_to_str(r, before, outcome)  # a Messages reveal is face up for everyone
    if isinstance(task, RevealTop):
        mask = after.public | (after.known[seat] if seat is not None else 0)
        if (mask >> outcome) & 1:
            return chance_to_str(r, before, outcome)
        return None
    if isinstance(task, RemoveObjective):
        return "an Objective is removed from the game unseen"
    if isinstance(task, DealObjective):
        dealt_to = task.seat
        if dealt_to == seat:
            return f"you are dealt the Objective {r.content.objective_names[outcome]}"
        return f"seat {dealt_to} is dealt an Objective"
    if isinstance(task, ChooseProtagonist):
        return f"seat {outcome} receives the Protagonist card (first player)"
    return "a random Character card is drawn for the draft"
