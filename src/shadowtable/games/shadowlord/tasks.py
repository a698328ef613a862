"""The pending work of a Shadowlord! game: one frozen dataclass per kind of task.

``state.stack`` holds these (the last one on top).  A task's fields are its arguments, read by
name.  Every decision subclasses :class:`SeatDecision` (its first field, ``seat``, decides)
and every chance node :class:`ChanceNode` (the Power Card draws through :class:`Draw`, the d8
rolls through :class:`D8Roll`); the other tasks are automatic work.  Which rule
handles each kind is declared in :data:`shadowtable.games.shadowlord.rules.RULEBOOK`.

Field names: ``seat`` a seat (0-3), ``colour`` an Alliance colour (0-3, 4 = the shadows),
``figure`` a figure id, ``galaxy`` a galaxy id, ``battle`` an index into the Battle plan
(``state.battle.plan``), ``side`` 0 for the attacker and 1 for the defender.  Every field
of every task is public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

from shadowtable.core.kernel import Task

NOBODY = -1


@dataclass(frozen=True, slots=True)
class SeatDecision(Task):
    """Base of the decisions: ``seat`` decides."""

    seat: int


decider: Callable[[SeatDecision], int] = attrgetter("seat")
"""The seat that decides a decision (``Decision.seat`` of every Shadowlord! decision)."""


@dataclass(frozen=True, slots=True)
class ChanceNode(Task):
    """Base of the chance nodes: the runner picks the outcome."""


# -- setup and the order of a turn --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollFirstPlayer(ChanceNode):
    """Chance: the roll for first player (the outcome is a seat)."""


@dataclass(frozen=True, slots=True)
class PlaceStartingShip(SeatDecision):
    """Setup: ``seat`` places one starting Space Ship of ``colour`` on a ring."""

    colour: int


@dataclass(frozen=True, slots=True)
class StartTurn(Task):
    """A turn begins: the Starburst check, the turn cap, the offer to surrender."""


@dataclass(frozen=True, slots=True)
class Surrender(SeatDecision):
    """``seat`` may surrender to the owner of the Power Stone."""


@dataclass(frozen=True, slots=True)
class QueueTurnSteps(Task):
    """Steps 1-6 of the current player's turn are laid out."""


@dataclass(frozen=True, slots=True)
class FinishDraws(Task):
    """After Step 1's draws (option ``timer_mode="every_turn"``: the timer moves)."""


@dataclass(frozen=True, slots=True)
class StartBuild(Task):
    """Step 3 begins: Space Ships from Merchants and Space Bases."""


@dataclass(frozen=True, slots=True)
class Build(SeatDecision):
    """Step 3: ``seat`` builds Space Ships."""


@dataclass(frozen=True, slots=True)
class PlacePortraitCards(SeatDecision):
    """After the fight: ``seat`` may place Attack Hand cards under portraits, Bribe (no Battle
    this turn) or make an offer before the turn passes."""


@dataclass(frozen=True, slots=True)
class EndTurn(Task):
    """The turn passes to the next Alliance in play."""


# -- Power Cards and dice ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw(ChanceNode):
    """Base of the Power Card draws (chance: the outcome is a card value index)."""


@dataclass(frozen=True, slots=True)
class DrawToHand(Draw):
    """A Power Card drawn into ``seat``'s Attack Hand (seen by that seat only)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DrawShadowShips(Draw):
    """A card drawn for shadow ``figure``: its value in Space Ships (the card is discarded)."""

    figure: int


@dataclass(frozen=True, slots=True)
class DrawToDuel(Draw):
    """A card drawn face up for ``side`` of the Duel being prepared."""

    side: int


@dataclass(frozen=True, slots=True)
class D8Roll(ChanceNode):
    """Base of the d8 rolls (chance: the outcome is the roll, 1-8); ``purpose`` names it in
    notation."""

    # a property, not a ClassVar: mypyc would make a dataclass's ClassVar a field (docs/performance.md)
    @property
    def purpose(self) -> str:
        return "d8"


@dataclass(frozen=True, slots=True)
class RollBribe(D8Roll):
    """Bribery: the briber's d8 against ``figure``."""

    figure: int

    @property
    def purpose(self) -> str:
        return "bribe1"


@dataclass(frozen=True, slots=True)
class RollBribeAnswer(D8Roll):
    """Bribery: the answering d8 for ``figure``; the briber rolled ``briber_roll``."""

    figure: int
    briber_roll: int

    @property
    def purpose(self) -> str:
        return "bribe2"


@dataclass(frozen=True, slots=True)
class RollBlast(D8Roll):
    """The Power Stone wielder on ``side`` of Battle ``battle`` rolls for a Power Blast."""

    side: int
    battle: int

    @property
    def purpose(self) -> str:
        return "blast"


@dataclass(frozen=True, slots=True)
class RollBlastShips(D8Roll):
    """A Power Blast by ``side`` destroys a d8 of the enemy duellist's Space Ships."""

    side: int

    @property
    def purpose(self) -> str:
        return "blast_ships"


@dataclass(frozen=True, slots=True)
class RollStorm(D8Roll):
    """Spacestorm: ``seat`` loses a d8 of Space Ships."""

    seat: int

    @property
    def purpose(self) -> str:
        return "storm"


# -- Special Events -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollEvent(ChanceNode):
    """Step 2: chance rolls 2d8 on the Special Events table (the outcome is the sum)."""


@dataclass(frozen=True, slots=True)
class ChooseEventTarget(SeatDecision):
    """``seat`` names the target of Special Event ``event`` (an index of ``content.EVENTS``)."""

    event: int


@dataclass(frozen=True, slots=True)
class DiscardStormShip(SeatDecision):
    """Spacestorm: ``seat`` chooses the next of ``count`` Space Ships to lose."""

    count: int


@dataclass(frozen=True, slots=True)
class StealCard(ChanceNode):
    """Chance: a random card of ``victim``'s Attack Hand is stolen (``count`` still to steal)."""

    victim: int
    count: int


# -- votes ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PutToVote(Task):
    """A ``motion`` (``defect``, ``place_shadow``, ``move_shadow``, ``storm``, ``steal``) about
    ``subject`` (a figure or a seat) goes to the other players, or passes when voting is
    suspended; ``origin``: where a moved shadow came from."""

    motion: str
    subject: int
    origin: int = NOBODY


@dataclass(frozen=True, slots=True)
class Vote(SeatDecision):
    """``seat`` votes, secretly, on the motion in ``state.vote``."""


@dataclass(frozen=True, slots=True)
class EndVote(Task):
    """Every vote is cast: the motion passes (one yes) or fails."""


# -- recruiting: Bribery, Defection, Searching for Allies, Dismissing ----------------------------


@dataclass(frozen=True, slots=True)
class JoinAsTraitor(Task):
    """``figure`` joins ``colour`` once the Alliance has Dismissed a member to make room."""

    figure: int
    colour: int


@dataclass(frozen=True, slots=True)
class Reveal(ChanceNode):
    """Chance: the face-down disc in ``galaxy`` is turned over (the outcome is the disc kind);
    ``discovered``: by the Discover event (else by a search)."""

    galaxy: int
    discovered: bool


@dataclass(frozen=True, slots=True)
class Enlist(SeatDecision):
    """``seat`` keeps, gives away or removes the character ``figure`` revealed in ``galaxy``."""

    figure: int
    galaxy: int
    discovered: bool


@dataclass(frozen=True, slots=True)
class PlaceShadow(SeatDecision):
    """``seat`` places the revealed shadow ``figure``."""

    figure: int


@dataclass(frozen=True, slots=True)
class Join(Task):
    """``figure`` joins ``colour`` in ``galaxy`` (``discovered``: it may move this turn)."""

    figure: int
    colour: int
    galaxy: int
    discovered: bool


@dataclass(frozen=True, slots=True)
class PlaceCharacter(SeatDecision):
    """``seat`` places ``figure``, given or Dismissed to it, in a galaxy ``colour`` controls."""

    figure: int
    colour: int


@dataclass(frozen=True, slots=True)
class Dismiss(SeatDecision):
    """Alliance ``colour`` (of ``seat``) has seven characters: it Dismisses one."""

    colour: int


@dataclass(frozen=True, slots=True)
class AskForDismissed(Task):
    """The other players are asked in turn whether they want the Dismissed ``figure``: the
    ``offset``-th seat after its owner is next; ``wanted`` is a bit mask of the seats that do."""

    figure: int
    offset: int
    wanted: int


@dataclass(frozen=True, slots=True)
class Want(SeatDecision):
    """``seat`` says whether it wants the Dismissed ``figure``."""

    figure: int


@dataclass(frozen=True, slots=True)
class GiveDismissed(SeatDecision):
    """Several players (bit mask ``wanted``) want ``figure``: its owner ``seat`` chooses."""

    figure: int
    wanted: int


# -- shifting Space Ships between rings ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShiftFrom(SeatDecision):
    """``seat`` may shift Space Ships among ``colour``'s rings in ``galaxy`` (``budget`` shifts
    left): the ring that gives one."""

    galaxy: int
    colour: int
    budget: int


@dataclass(frozen=True, slots=True)
class ShiftTo(SeatDecision):
    """The ring that takes the Space Ship from ``source``."""

    galaxy: int
    colour: int
    budget: int
    source: int


# -- Step 4 and 5: movement ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move(SeatDecision):
    """Step 4: ``seat`` moves its rings (and drops, picks up, searches, passes the Stone)."""


@dataclass(frozen=True, slots=True)
class MoveShadow(SeatDecision):
    """Step 5: ``seat`` may move one shadow."""


# -- Step 6: Battles -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fight(Task):
    """Step 6 begins: the Battles are found and planned."""


@dataclass(frozen=True, slots=True)
class ProposeTruce(SeatDecision):
    """The attacker ``seat`` fights Battle ``battle`` or proposes a Truce."""

    battle: int


@dataclass(frozen=True, slots=True)
class AnswerTruce(SeatDecision):
    """The defender ``seat`` accepts or refuses a Truce for Battle ``battle``."""

    battle: int


@dataclass(frozen=True, slots=True)
class ChallengeLooseShips(SeatDecision):
    """``seat`` challenges the loose enemy Space Ships of Battle ``battle`` or leaves them."""

    battle: int


@dataclass(frozen=True, slots=True)
class StartAllyCalls(Task):
    """Before the first Battle: the calls for allies are laid out."""


@dataclass(frozen=True, slots=True)
class CallOwnCharacter(SeatDecision):
    """The defender ``seat`` may call in one of ``colour``'s characters to Battle ``battle``."""

    battle: int
    colour: int


@dataclass(frozen=True, slots=True)
class SendAlly(SeatDecision):
    """``seat`` may send one of ``colour``'s characters to a side of Battle ``battle``."""

    battle: int
    colour: int


@dataclass(frozen=True, slots=True)
class FindNextBattle(Task):
    """The next Battle due (the attacker chooses when several are)."""


@dataclass(frozen=True, slots=True)
class ChooseNextBattle(SeatDecision):
    """The attacker ``seat`` chooses where to fight next."""


@dataclass(frozen=True, slots=True)
class StartBattle(Task):
    """Battle ``battle`` begins."""

    battle: int


@dataclass(frozen=True, slots=True)
class FightRound(Task):
    """A round of Battle ``battle``: rings go on the Battle Board while both sides can fight."""

    battle: int


@dataclass(frozen=True, slots=True)
class PlaceAttacker(SeatDecision):
    """The attacker ``seat`` places a ring on the Battle Board (``first_attacker``: the ring
    already placed this round, if any)."""

    battle: int
    first_attacker: int = NOBODY


@dataclass(frozen=True, slots=True)
class Face(SeatDecision):
    """A lone defender (``seat``) chooses which of the two attackers to Duel."""

    battle: int
    first_attacker: int
    second_attacker: int


@dataclass(frozen=True, slots=True)
class PlaceDefender(SeatDecision):
    """The defender ``seat`` places a ring opposite ``first_attacker`` (then opposite
    ``second_attacker``, once ``first_defender`` is placed)."""

    battle: int
    first_attacker: int
    second_attacker: int
    first_defender: int = NOBODY


@dataclass(frozen=True, slots=True)
class PrepareDuel(Task):
    """A Duel of Battle ``battle`` between ``attacker`` and ``defender`` is prepared."""

    battle: int
    attacker: int
    defender: int


@dataclass(frozen=True, slots=True)
class CheckBlast(Task):
    """Does ``side`` of Battle ``battle`` wield the Power Stone (a Power Blast roll)?"""

    battle: int
    side: int


@dataclass(frozen=True, slots=True)
class Blast(SeatDecision):
    """A Power Blast for ``side``: ``seat`` takes an extra card or destroys Space Ships."""

    side: int


@dataclass(frozen=True, slots=True)
class Commit(SeatDecision):
    """``seat`` commits cards face down to ``side`` of the Duel being prepared."""

    side: int


@dataclass(frozen=True, slots=True)
class HoldDuel(Task):
    """The Duel is prepared; it waits, cards face down, to be resolved."""


@dataclass(frozen=True, slots=True)
class ResolveDuel(Task):
    """The next prepared Duel of Battle ``battle`` is revealed and resolved."""

    battle: int


@dataclass(frozen=True, slots=True)
class EndBattle(Task):
    """Battle ``battle`` is over: Diplomats retreat, the Lost Fortress is won or lost."""

    battle: int


@dataclass(frozen=True, slots=True)
class GiveStone(SeatDecision):
    """The Lost Fortress is won: ``seat`` gives the Power Stone to a ring of ``colour`` in
    ``galaxy``."""

    colour: int
    galaxy: int


@dataclass(frozen=True, slots=True)
class Teleport(SeatDecision):
    """The Lost Fortress is won: ``seat`` may Teleport Home."""


# -- Trading and Negotiation --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildOffer(SeatDecision):
    """``seat`` adds an item to the offer in ``state.offer``, sends it or withdraws it."""


@dataclass(frozen=True, slots=True)
class AnswerOffer(SeatDecision):
    """``seat`` accepts or refuses the offer in ``state.offer``."""


@dataclass(frozen=True, slots=True)
class PlaceTraded(SeatDecision):
    """``seat`` places the traded character ``figure`` (where it is, or where it controls)."""

    figure: int
