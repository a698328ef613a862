"""What a title's tutorial is made of: its prepared deal, what the coach says of each kind of
decision, and (where the title has one) advice on a card's effect for the newcomer's own side.

Each game package that has a tutorial names a :class:`Lesson` in its manifest (``tutorial``);
:func:`lessons` finds them, so this package names no game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from shadowtable.core.game import Observation as JsonObservation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class
from shadowtable.core.wording import bot_name

NEWCOMER_SEAT = 0
"""The newcomer's seat in every tutorial."""


@dataclass(frozen=True)
class Note:
    """What a kind of decision is for, and the board element to look at while making it."""

    purpose: str
    look_at: str


FALLBACK = Note("Read the prompt: it says what this decision is about.", "The highlighted parts of the board.")


@dataclass(frozen=True)
class PreparedDeal:
    """One title's tutorial table: the game, its players and options, the seed of every chance
    draw, the bots' level and why this deal teaches well.

    A tutorial table draws every chance outcome from its seed
    (:func:`shadowtable.core.table.chance_rng`): the opening deal is the same for every newcomer,
    and the game's record keeps the seed, so a tutorial game replays like any other."""

    game_id: str
    players: int
    seed: int
    why: str
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "heuristic"

    def seat_names(self) -> list[str]:
        """``You`` at the newcomer's seat, then each bot by name and level, as at any table
        (``Brook (heuristic bot)`` at seat 1)."""
        return ["You" if seat == NEWCOMER_SEAT else bot_name(seat, self.bot) for seat in range(self.players)]


OwnRole = Callable[[Any, JsonObservation, int], str]
"""``(game, the newcomer's observation, its seat) -> the role its own Objective gives it`` ("" if none)."""

CardAdvice = Callable[[str, str], str]
"""``(the newcomer's role, a card type) -> advice`` on what discarding or playing it does for them."""


@dataclass(frozen=True)
class Lesson:
    """A title's tutorial: its deal, a :class:`Note` per decision rule key, and card advice."""

    deal: PreparedDeal
    notes: Mapping[str, Note]
    card_advice: CardAdvice | None = None
    own_role: OwnRole | None = None

    def role_of(self, game: Any, observation: JsonObservation, seat: int) -> str:
        """The newcomer's own role, where the title gives seats one ("" otherwise)."""
        return "" if self.own_role is None else self.own_role(game, observation, seat)

    def note_for(self, rule: str) -> Note:
        """The note of decisions under ``rule`` (a general one when there is none)."""
        return self.notes.get(rule, FALLBACK)


@cache
def lessons() -> dict[str, Lesson]:
    """Every registered title's lesson, by game id (titles without one left out)."""
    found: dict[str, Lesson] = {}
    for game_id in available_games():
        reference = manifest_of(game_class(game_id)).tutorial
        if reference is not None:
            lesson = load(reference)
            if not isinstance(lesson, Lesson):
                raise TypeError(f"the manifest 'tutorial' {reference!r} is not a Lesson")
            found[game_id] = lesson
    return found


def deals() -> dict[str, PreparedDeal]:
    """The prepared deal of each title with a tutorial, by game id."""
    return {game_id: lesson.deal for game_id, lesson in lessons().items()}


def deal_for(game_id: str) -> PreparedDeal:
    """The prepared deal of ``game_id`` (``KeyError``: no tutorial for it)."""
    return lessons()[game_id].deal
