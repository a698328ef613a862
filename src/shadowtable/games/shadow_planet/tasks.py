"""The pending work of a game, as typed tasks (:class:`shadowtable.core.kernel.Task`).

``state.stack`` holds tasks, the last one on top.  A task's fields are its arguments, named
for what they are; the handler of each task type is declared in ``rules/__init__.py``
(``RULEBOOK``).  During the port from the engine's ``mode`` the ``Legacy*`` tasks wrap the
old mode dispatch of ``engine.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shadowtable.core.kernel import Task


@dataclass(frozen=True, slots=True)
class RevealTop(Task):
    """Chance: the next unknown card of ``deck`` (a Location deck 0..3 or the Messages pile 4)
    becomes its next known top card."""

    deck: int


# -- the bridge to the engine's modes (removed with the last slice of the port) -----------------
@dataclass(frozen=True, slots=True)
class LegacyAuto(Task):
    """Automatic work of the old engine ``mode``."""

    mode: int


@dataclass(frozen=True, slots=True)
class LegacyDecision(Task):
    """A decision of the old engine ``mode`` for ``seat``."""

    mode: int
    seat: int


def task_to_json(task: Task) -> dict[str, Any]:
    """``task.to_json()`` with tuples as lists (JSON data that survives a round trip)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in task.to_json().items()}


# -- setup and the Control phase ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RemoveObjective(Task):
    """Chance: one Objective card (never the Alien) is removed from the game unseen."""


@dataclass(frozen=True, slots=True)
class DealObjective(Task):
    """Chance: ``seat`` is dealt its secret Objective."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseProtagonist(Task):
    """Chance: a random seat becomes the Protagonist."""


@dataclass(frozen=True, slots=True)
class StartRound(Task):
    """A new round: the Control phase, the Operations phase, the Messages phase, the round's end."""


@dataclass(frozen=True, slots=True)
class DrawDraftCard(Task):
    """Chance: the player to the Protagonist's right draws a random Character card."""


@dataclass(frozen=True, slots=True)
class DraftPick(Task):
    """``seat``, the ``step``-th picker from the Protagonist, plays a Character face down."""

    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class RevealDraft(Task):
    """Every pick is revealed; players take their Gear and a Marker of the colour."""


# -- the Messages phase, the end of the round and of the game ---------------------------------
@dataclass(frozen=True, slots=True)
class StartMessages(Task):
    """Played cards go back to their Gear; the secret discards begin from the Protagonist."""


@dataclass(frozen=True, slots=True)
class DiscardMessage(Task):
    """``seat`` discards one card of its Gear face down to the Messages pile."""

    seat: int


@dataclass(frozen=True, slots=True)
class ShuffleMessages(Task):
    """The Messages pile is shuffled face down (the Temple pile too unless it is revealed first)."""


@dataclass(frozen=True, slots=True)
class RevealMessages(Task):
    """Messages cards are revealed (the Temple pile first) up to the reveal count."""


@dataclass(frozen=True, slots=True)
class EndRound(Task):
    """The reveal's consequences, the Countdown's advance; the game ends on a latched condition."""


@dataclass(frozen=True, slots=True)
class MatchIdentities(Task):
    """Players are matched to identities in priority order from position ``next``."""

    next: int


@dataclass(frozen=True, slots=True)
class ChooseIdentity(Task):
    """``seat``, tied on Markers, chooses its identity."""

    seat: int
