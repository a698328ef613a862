"""What every seat reads of the last decision: the state's ``announced`` action.

The kernel calls :func:`announce` before it carries out each action or chance outcome, so
every way of applying one (copying, recording, in place, a search's rollout) keeps it alike.
"""

from __future__ import annotations

from shadowtable.games.shadowlord.actions import DECODED
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import SeatDecision, Vote

SECRET_CARD_BLOCKS = frozenset({"commit_portrait", "commit_hand"})
"""Action blocks of decisions whose card value is hidden from the other seats."""

HIDDEN_CARD_BLOCKS = SECRET_CARD_BLOCKS | {"place", "bribe"}
"""Action blocks that handle a hidden card: never announced in full."""

SECRET_TASK_TYPES: frozenset[type] = frozenset({Vote})
"""Decisions that are secret as a whole from the other seats."""


def public_action(s: State, action: int) -> int:
    """``action`` (about to be taken in ``s``) if every seat reads it in full, else -1: a chance
    outcome (public ones show on the board or in ``roll``), a secret vote, or a decision that
    handles a hidden card.  Kept in the state as ``announced``, so two public decisions with the
    same effect on the board are still told apart in every observation."""
    top = s.stack[-1]
    if not isinstance(top, SeatDecision) or type(top) in SECRET_TASK_TYPES:
        return -1
    decoded = DECODED[action] if 0 <= action < len(DECODED) else None
    return -1 if decoded is None or decoded[0] in HIDDEN_CARD_BLOCKS else action


def announce(s: State, action: int) -> None:
    """Keep in ``s`` what every seat reads of ``action``, about to be taken there."""
    s.announced = public_action(s, action)
