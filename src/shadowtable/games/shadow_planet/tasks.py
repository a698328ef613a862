"""The pending work of a game, as typed tasks (:class:`shadowtable.core.kernel.Task`).

``state.stack`` holds tasks, the last one on top.  A task's fields are its arguments, named
for what they are; the handler of each task type is declared in ``rules/__init__.py``
(``RULEBOOK``).  A task whose type :data:`SECRET` lists holds something only one seat knows
(a card chosen face down): observations show it to that seat alone.
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
class PickCharacter(Task):
    """``seat``, the ``step``-th picker from the Protagonist, plays a Character face down."""

    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class RevealDraft(Task):
    """Every pick is revealed; players take their Gear and a Marker of the colour."""


# -- the Operations phase: turns, abilities, the five steps -------------------------------------
@dataclass(frozen=True, slots=True)
class StartTurn(Task):
    """The turn of the next Character (``state.active``), or the Messages phase after the sixth."""


@dataclass(frozen=True, slots=True)
class DiscardUncontrolled(Task):
    """An uncontrolled Character discards the top card of its Location deck face up."""


@dataclass(frozen=True, slots=True)
class ApplyAbility(Task):
    """The controlled ability's effects from number ``index`` on (automatic ones at once)."""

    index: int


@dataclass(frozen=True, slots=True)
class CancelAbility(Task):
    """``seat`` (Jenna's controller) chooses the Character whose ability is cancelled this round."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseMarkerSeat(Task):
    """``seat`` chooses another player to receive ``count`` pool Markers (an ability)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ChooseMarkerColour(Task):
    """``seat`` chooses the colour of the next of ``count`` pool Markers ``target`` receives."""

    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class MoveForFree(Task):
    """``seat`` may move its Character into ``section`` for free (Reed's ability)."""

    seat: int
    section: int


@dataclass(frozen=True, slots=True)
class PlayMoveCards(Task):
    """Step I for ``seat``: play Move cards (``total`` points from ``cards`` cards so far),
    declare driving Vehicle ``drive`` to ``dest`` (-1: none) with ``passengers``, or stop."""

    seat: int
    total: int = 0
    cards: int = 0
    drive: int = -1
    dest: int = -1
    passengers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AskRider(Task):
    """``seat`` decides whether its Character ``rider`` rides Vehicle ``drive`` to ``dest``;
    ``waiting`` Characters are asked next (a rider joins the drive declared below)."""

    seat: int
    rider: int
    waiting: tuple[int, ...]
    drive: int
    dest: int


@dataclass(frozen=True, slots=True)
class SpendMovePoints(Task):
    """``seat`` spends its ``points`` of movement on Links and Sections, or stops."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class DriveElsewhere(Task):
    """``seat``, short of the declared destination, may drive Vehicle ``drive`` (with
    ``passengers``) to another Location within ``points``."""

    seat: int
    points: int
    drive: int
    passengers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlaySearchCards(Task):
    """Step II for ``seat``: play Search cards (``points`` so far), or stop."""

    seat: int
    points: int = 0


@dataclass(frozen=True, slots=True)
class SearchDeck(Task):
    """Step II's consequence: look at the top cards of the Location deck (``points`` played)."""

    points: int


@dataclass(frozen=True, slots=True)
class Reorder(Task):
    """``seat`` puts the ``size`` searched top cards of ``deck`` back in the order it likes;
    ``placed`` of them are in place already (the last one goes below without a choice)."""

    seat: int
    deck: int
    size: int
    placed: int = 0


@dataclass(frozen=True, slots=True)
class DrawMandatoryCard(Task):
    """Step III's mandatory draw of the top card of the Location deck."""


@dataclass(frozen=True, slots=True)
class PlayGetCards(Task):
    """Step III for ``seat``: play Get cards (``draws`` extra cards so far), or stop."""

    seat: int
    draws: int = 0


@dataclass(frozen=True, slots=True)
class DrawExtraCards(Task):
    """Step III's consequence: ``draws`` more cards from the Location deck."""

    draws: int


@dataclass(frozen=True, slots=True)
class PlayRepairCards(Task):
    """Step IV for ``seat``: play Repair cards, or stop."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseScrapTarget(Task):
    """``seat`` (Scrap Metal) chooses another player to swap a card with."""

    seat: int


@dataclass(frozen=True, slots=True)
class GiveScrapCard(Task):
    """``seat`` chooses the card of its hand that goes to ``target``."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class ReturnScrapCard(Task):
    """``seat`` chooses the card of its hand it gives back to ``giver``, who gives ``given``
    (known only to the giver)."""

    seat: int
    giver: int
    given: int


@dataclass(frozen=True, slots=True)
class PlayAttackCards(Task):
    """Step V for ``seat``: play Attack cards, or stop."""

    seat: int


# -- Sections at the end of the turn -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EndInSection(Task):
    """End of the turn in a Section: its effect if it can be paid, else just expulsion."""


@dataclass(frozen=True, slots=True)
class ChooseSectionEffect(Task):
    """``seat`` chooses a reveal of ``section`` to pay (its effect follows) or leaves."""

    seat: int
    section: int


@dataclass(frozen=True, slots=True)
class ShowRevealCard(Task):
    """``seat`` shows the next card paying ``reveal`` of ``section`` (``shown`` so far, to all)."""

    seat: int
    section: int
    reveal: int
    shown: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ApplySectionEffect(Task):
    """The effects of ``reveal`` of ``section`` from number ``index``; then the Marker, expulsion."""

    section: int
    reveal: int
    index: int


@dataclass(frozen=True, slots=True)
class LookMessages(Task):
    """``seat`` looks at the top ``look`` cards of the Messages pile to remove ``remove``."""

    seat: int
    look: int
    remove: int


@dataclass(frozen=True, slots=True)
class RemoveMessage(Task):
    """``seat`` removes one of the ``looked`` top Messages cards from the game (``remove`` left)."""

    seat: int
    looked: int
    remove: int


@dataclass(frozen=True, slots=True)
class TakeRobotCard(Task):
    """``seat`` chooses the card of the Robot's Gear it takes in the swap."""

    seat: int


@dataclass(frozen=True, slots=True)
class GiveRobotCard(Task):
    """``seat`` chooses the card of its hand the Robot gets for ``taken`` (known only to it)."""

    seat: int
    taken: int


@dataclass(frozen=True, slots=True)
class AdjustCountdown(Task):
    """``seat`` advances or moves back the Countdown by ``amount``."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ChooseSectionMarkerSeat(Task):
    """``seat`` chooses another player to receive ``count`` pool Markers (a Section effect)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ChooseSectionMarkerColour(Task):
    """``seat`` chooses the colour of the next of ``count`` pool Markers ``target`` receives."""

    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class ChooseDeck(Task):
    """``seat`` chooses a Location deck to take its top card (``count`` cards left)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DrawFromDeck(Task):
    """``seat`` takes the top card of ``deck`` (``count`` cards left, this one included)."""

    seat: int
    deck: int
    count: int


@dataclass(frozen=True, slots=True)
class PickTempleCard(Task):
    """``seat`` puts a Messages card on the Temple pile (``count`` cards left)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class EndTurn(Task):
    """End-of-turn card effects, the Character leaves its Section; the next Character's turn."""


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


SECRET: dict[type[Task], dict[str, str]] = {
    ReturnScrapCard: {"given": "giver"},
    GiveRobotCard: {"taken": "seat"},
}
"""The tasks that hold a secret: each secret field with the field naming the one seat that knows
it.  (A table, not a class attribute: the compiled build would make a ClassVar of a dataclass a
field; docs/performance.md.)"""


def secrets(task: Task) -> dict[str, str]:
    """The task's secret fields, each with the field naming the one seat that knows it."""
    return SECRET.get(type(task), {})


def task_to_json(task: Task) -> dict[str, Any]:
    """``task.to_json()`` with tuples as lists (JSON data that survives a round trip)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in task.to_json().items()}
