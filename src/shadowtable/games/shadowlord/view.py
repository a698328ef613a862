"""The typed observation of Shadowlord!: :class:`LordObservation` and its parts.

``game.observe`` writes the envelope's own layout: ``seat``, ``pending``, ``public``
(:class:`LordPublic`), ``private`` (:class:`LordPrivate`), ``tasks`` and ``outcome``;
:meth:`LordObservation.from_json` reads it and
:meth:`~shadowtable.core.observation.Observation.to_json` writes it back unchanged.  Power
Cards are counted per value (five counts: 0, 2, 4, 7, 10); a vote another seat cast is
:data:`HIDDEN_VOTE`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from shadowtable.core.observation import Observation

HIDDEN_VOTE = -2
"""A vote cast by another seat (``-1``: not cast yet, ``0`` no, ``1`` yes)."""

VoteKind = Literal["defect", "move_shadow", "place_shadow", "steal", "storm"]
Counts = tuple[int, ...]
"""A count per Power Card value."""


@dataclass(frozen=True)
class Offer:
    """The open offer between two seats (public: offered cards are shown and held aside)."""

    sender: int = field(metadata={"json": "from"})
    receiver: int = field(metadata={"json": "to"})
    give: Counts
    want: Counts
    characters: tuple[int, ...]
    release: tuple[int, ...]
    ships: tuple[int, ...]
    permission_give: int
    permission_want: int
    truce: tuple[int, ...]
    items: int


@dataclass(frozen=True)
class Vote:
    """The vote in progress: every cast vote but the reader's own is :data:`HIDDEN_VOTE`."""

    kind: VoteKind
    subject: int  # a figure or a seat
    origin: int  # where a moved shadow came from
    voters: tuple[int, ...]
    votes: tuple[int, ...]


@dataclass(frozen=True)
class ClosedVote:
    """The last closed vote: who called it, when, and whether it passed."""

    kind: VoteKind
    subject: int
    origin: int
    caller: int  # the colour whose turn it was (who put it to the vote)
    subject_location: int  # where the subject figure stood when it closed; -1 for a seat
    voters: tuple[int, ...]
    votes: tuple[int, ...]
    passed: bool


class PlannedBattle(NamedTuple):
    """One Battle of the plan (an array on the wire)."""

    galaxy: int
    attacker: int  # colour
    defender: int  # colour
    kind: Literal["normal", "loose", "fort"]
    status: int  # 0 due, 1 called off, 2 fought


@dataclass(frozen=True)
class Duel:
    """A Duel: its figures, the cards drawn face up and how many each side committed."""

    battle: int
    figures: tuple[int, ...]
    drawn: tuple[tuple[int, ...], ...]
    count: tuple[int, ...]


@dataclass(frozen=True)
class DuelResult:
    """The last Duel fought: figures, totals, winner and the cards shown."""

    figures: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int
    cards: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Battle:
    """The Battle plan of this turn, the Allies called, and the Duels."""

    plan: tuple[PlannedBattle, ...]
    allies: tuple[tuple[tuple[int, ...], ...], ...]
    queue: tuple[int, ...]
    last: DuelResult | None
    duel: Duel | None
    ready: tuple[Duel, ...]


@dataclass(frozen=True)
class LordPublic:
    """Everything every seat sees (``observe.PUBLIC_LISTS`` and ``PUBLIC_SCALARS``, then counts)."""

    owner: tuple[int, ...]  # per figure: colour
    loc: tuple[int, ...]
    status: tuple[int, ...]
    ships: tuple[int, ...]
    captor: tuple[int, ...]
    moves: tuple[int, ...]
    flags: tuple[int, ...]
    adjust: tuple[int, ...]
    loose_colour: tuple[int, ...]
    loose_count: tuple[int, ...]
    disc: tuple[int, ...]
    bag: tuple[int, ...]
    supply: tuple[int, ...]
    boxed: tuple[int, ...]
    alive: tuple[int, ...]
    permissions: tuple[int, ...]
    seat_out: tuple[int, ...]
    stone: int
    stone_passes: int
    timer: int
    current_colour: int  # whose turn it is
    turn: int
    first_round_turns: int
    bribed: int
    offers: int
    truce: int
    shadow_control: int
    winner: int
    steps_turn: int
    pool: int
    first_seat: int
    roll: int
    announced: int
    end: str  # why the game ended ('' while it runs)
    deck_count: int
    discard_count: int
    hand_counts: tuple[int, ...]  # per seat
    portrait_counts: tuple[int, ...]  # per figure
    offer: Offer | None
    vote: Vote | None
    last_vote: ClosedVote | None
    battle: Battle | None
    last_duel: DuelResult | None


@dataclass(frozen=True)
class LordPrivate:
    """The seat's Attack Hand, the cards under its portraits and its face-down Duel cards
    (``None`` for the other side's; a spectator's hand is ``None``)."""

    hand: Counts | None
    portraits: Mapping[str, Counts]  # figure index -> counts
    commit: tuple[Counts | None, ...]
    ready_commit: tuple[tuple[Counts | None, ...], ...]


@dataclass(frozen=True)
class LordObservation(Observation[LordPublic, LordPrivate, str]):
    """What one seat may know of a Shadowlord! game, typed."""

    PUBLIC = LordPublic
    PRIVATE = LordPrivate
    OUTCOME = str
