"""The typed observation of The Shadow Planet: :class:`PlanetObservation` and its parts.

``game.observe`` writes the envelope's own layout: ``seat``, ``pending``, ``public``
(:class:`PlanetPublic`), ``private`` (the ids of the cards whose place this seat alone knows),
``tasks`` and ``outcome`` (``None`` while the game runs).  :meth:`PlanetObservation.from_json`
reads it and :meth:`~shadowtable.core.observation.Observation.to_json` writes it back
unchanged.  Hidden places are ``None`` (a card id the seat does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from shadowtable.core.observation import Observation

Role = Literal["alien", "astronaut", "guardian"]


@dataclass(frozen=True)
class Deck:
    """A Location deck or the Messages pile: its size, its known top (``None``: an unseen card)
    and the other cards this seat knows are in it."""

    size: int
    top: tuple[int | None, ...]
    rest_known: tuple[int, ...]


@dataclass(frozen=True)
class Gear:
    """A Character's Gear: how many cards, and those whose place this seat knows."""

    size: int
    known: tuple[int, ...]


@dataclass(frozen=True)
class Zones:
    """Where the Operation cards are, as far as this seat knows."""

    decks: tuple[Deck, ...]  # 4 Location decks, then the Messages pile
    temple: tuple[int | None, ...]
    discard: tuple[int, ...]
    removed: int  # how many
    gear: tuple[Gear, ...]  # per Character
    played: tuple[tuple[int, ...], ...]  # per Character, face up


@dataclass(frozen=True)
class Draft:
    """The Character draft as this seat sees it (all ``None`` outside the draft; a spectator's
    always, its fields marked ``secret``)."""

    random: int | None = field(metadata={"secret": True})  # the randomly drawn Character (its drawer only)
    picks: tuple[int | None, ...] = field(metadata={"secret": True})  # per seat; this seat's own pick only
    received: tuple[int, ...] | None = field(metadata={"secret": True})  # the Characters this seat chooses from


@dataclass(frozen=True)
class PlanetPublic:
    """Everything every seat sees (the allow-list of ``observe.PUBLIC``), and the seat's view
    of the Objectives, the cards and the draft."""

    players: int
    round: int
    protagonist: int
    countdown: int
    repair: int
    threat: int
    latched: int  # bits of the end conditions reached
    end_reason: int
    trajectory: tuple[tuple[int, ...], ...]  # [countdown, repair, threat] at the end of each round
    pool: tuple[int, ...]  # Markers per colour
    sheets: tuple[int, ...]  # seat * 5 + colour
    section_markers: tuple[int, ...]  # bitmask of colours per Section
    character_location: tuple[int, ...]
    character_section: tuple[int, ...]  # -1: not in a Section
    controller: tuple[int, ...]  # per Character: seat or -1
    seat_character: tuple[int, ...]  # per seat: Character or -1
    vehicle_loc: tuple[int, ...]  # -1: not in play
    identity: tuple[int, ...]  # per seat: matched Character or -1
    active: int  # the Character whose turn it is
    forbid: int  # bitmask of card types that may not be played this turn
    exclusive: int  # bits 0-4: types closed by an exclusive card; 5-9: played and gone at once
    bonus: int  # Search bonus of this turn
    auras: tuple[tuple[int, ...], ...]  # [source Character, amount, include_self]
    cancelled: int
    revealed: tuple[int, ...]  # type counts of the current reveal
    last_reveal: tuple[int, ...]
    reveal_cards: tuple[int, ...]  # the cards of the current (or last) Messages reveal
    objectives: tuple[int | None, ...]  # per seat: -1 before the deal, None if hidden
    removed_objectives: int  # how many
    zones: Zones
    draft: Draft


@dataclass(frozen=True)
class Indicators:
    countdown: int
    repair: int
    threat: int


@dataclass(frozen=True)
class SeatResult:
    """One seat at the end: its Objective, role, matched identity, Markers and result."""

    seat: int
    objective: str
    role: Role
    identity: str
    markers: tuple[int, ...]
    won: bool
    why: str


@dataclass(frozen=True)
class PlanetOutcome:
    """How the game ended and who won (``rules.endgame.outcome``)."""

    reason: Literal["threat", "repair", "countdown", "none"]
    indicators: Indicators
    roles: Mapping[str, Role]  # Objective name -> role
    phantom_guardian: str | None
    why: str
    winning_role: Role
    winners: tuple[int, ...]
    seats: tuple[SeatResult, ...]
    # the figures the deciding rule compared (only those it used)
    astronaut_repair: int | None = field(default=None, metadata={"optional": True})
    alien_get: int | None = field(default=None, metadata={"optional": True})
    alien_attack: int | None = field(default=None, metadata={"optional": True})
    final_threat: int | None = field(default=None, metadata={"optional": True})
    astronaut_attack: int | None = field(default=None, metadata={"optional": True})


@dataclass(frozen=True)
class PlanetObservation(Observation[PlanetPublic, tuple[int, ...], PlanetOutcome]):
    """What one seat may know of a Shadow Planet game, typed."""

    PUBLIC = PlanetPublic
    PRIVATE = tuple[int, ...]
    OUTCOME = PlanetOutcome
