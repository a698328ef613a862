"""``Wording``: what a person reads of a game, kept apart from the engine.

A :class:`~shadowtable.core.game.Game` is the engine surface that runners, bots and learners
use (states, actions, observations, returns).  Everything worded for people lives behind one
object, ``game.words``: notation (:meth:`Wording.action_to_str`, :meth:`Wording.parse_action`),
the game log (:meth:`Wording.event_text`, :meth:`Wording.told`), a text rendering, rules help,
choices in words, previews and the printed reference.  Each game declares its ``Wording``
subclass as ``WORDING``.

The games word a seat as ``seat N`` (counted from 0) and a card with its id (``#85``): that
wording is stable, so records, tests and the notation read it.  What a person is shown passes
through :class:`SeatNames`, which whoever shows it builds from the table's seat names: each seat
named (``Player N``, counted from 1, where it has no name), card ids left out
(:meth:`SeatNames.shown`).  A name is public, so naming a seat tells nobody anything new.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar

from shadowtable.core.errors import IllegalActionError, InvalidActionError
from shadowtable.core.events import Event, visible
from shadowtable.core.game import CHANCE, Observation, normalise_notation, quote_input

if TYPE_CHECKING:
    from shadowtable.core.game import Game

S = TypeVar("S")
Item = TypeVar("Item")
Reading = TypeVar("Reading", bound=Hashable)

SEAT_MENTION = re.compile(r"\bseat (\d{1,3})\b")
"""How the games' wording mentions a seat: ``seat 0`` is the first seat."""
CARD_ID = re.compile(r" #\d{1,6}\b")
"""A card's id after its name (``Medi-Kit (Move 2) #0``): notation, not for people."""
BOT_NAMES = ("Ada", "Brook", "Cyd", "Dara", "Emil", "Fay", "Gus", "Hana")
"""The bots' names, by seat: two bots at one table never share one."""


def default_seat_name(seat: int) -> str:
    """The name of a seat whose player gave none: ``Player 1`` is seat 0."""
    return f"Player {seat + 1}"


def bot_first_name(seat: int) -> str:
    """The first name of any bot at ``seat``, e.g. ``Ada``."""
    return BOT_NAMES[seat % len(BOT_NAMES)]


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` things in words: ``1 Space Ship``, ``0 Space Ships``, ``3 Space Ships``
    (``plural``: where adding an ``s`` is wrong)."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def first_per_reading(items: Iterable[Item], reading: Callable[[Item], Reading]) -> dict[Reading, Item]:
    """The first of the ``items`` that read the same to a person, keyed by that ``reading``, in
    order: choices that read the same (two copies of a card) do the same, so one is offered."""
    first: dict[Reading, Item] = {}
    for item in items:
        first.setdefault(reading(item), item)
    return first


def bot_name(seat: int, level: str) -> str:
    """The name a bot of ``level`` plays under at ``seat``, e.g. ``Ada (heuristic bot)``."""
    return f"{bot_first_name(seat)} ({level} bot)"


@dataclass(frozen=True)
class SeatNames:
    """The names of a table's seats as a person reads them (``names[seat]``; a seat past the
    end, or with an empty name, is ``Player N``)."""

    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, names: Sequence[str] | None) -> SeatNames:
        return cls(tuple(names or ()))

    def __call__(self, seat: int) -> str:
        """The name of ``seat``."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or default_seat_name(seat)

    def shown(self, text: str) -> str:
        """``text`` of the games' wording as a person reads it: every ``seat N`` named, card ids
        left out (``target seat 1`` -> ``target Brook``)."""
        return CARD_ID.sub("", SEAT_MENTION.sub(lambda match: self(int(match.group(1))), text))

    def choices(self, choices: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
        """``(action, text)`` choices as a person reads them: each text :meth:`shown`, and one
        choice per distinct text (the first action): choices that read the same do the same."""
        first = first_per_reading(choices, lambda choice: self.shown(choice[1]))
        return [(action, text) for text, (action, _) in first.items()]


DEFAULT_NAMES = SeatNames()
"""Every seat by its default name (``Player N``)."""


def without_card_ids(text: str) -> str:
    """``text`` without its card ids (what a person is shown of a choice, seats aside)."""
    return CARD_ID.sub("", text)


Result = Literal["won", "lost", "drew"]

HEADLINE: dict[str, str] = {"won": "You won", "lost": "You lost", "drew": "Draw"}
"""How a seat's own result heads its end screen."""


class ResultJson(TypedDict):
    """A seat's result as JSON."""

    seat: int
    result: str
    why: str


class NamedResult(ResultJson):
    """A seat's result as JSON, with the seat's name (what every end box shows)."""

    name: str


@dataclass(frozen=True)
class SeatResult:
    """How a finished game ended for one seat: ``result`` and ``why``, in words."""

    seat: int
    result: Result
    why: str

    def to_json(self) -> ResultJson:
        return {"seat": self.seat, "result": self.result, "why": self.why}

    def named(self, names: SeatNames) -> NamedResult:
        """This result as JSON with the seat's name, every seat its ``why`` mentions named too."""
        return {"seat": self.seat, "result": self.result, "why": names.shown(self.why), "name": names(self.seat)}


def results_from_returns(returns: Sequence[float]) -> tuple[SeatResult, ...]:
    """Results read from returns alone: all equal is a draw, else the best return wins."""
    best, worst = max(returns, default=0.0), min(returns, default=0.0)
    if best == worst:
        return tuple(SeatResult(seat, "drew", "every seat ended with the same score") for seat in range(len(returns)))
    return tuple(
        SeatResult(seat, "won", "the best score") if value == best else SeatResult(seat, "lost", "a lower score")
        for seat, value in enumerate(returns)
    )


class Wording(ABC, Generic[S]):
    """The words of one configured game (``game``): subclasses implement :meth:`action_to_str`
    and override what their game says more precisely."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game
        self._reference: dict[str, Any] | None = None

    # -- notation -------------------------------------------------------------------------------
    @abstractmethod
    def action_to_str(self, state: S, action: int) -> str:
        """Readable notation for a decision or chance outcome in ``state``."""

    def action_from_str(self, state: S, text: str) -> int | None:
        """Map notation to an action id regardless of legality, or ``None`` if unknown.

        Games override this so that :meth:`parse_action` can tell unknown text
        (:class:`InvalidActionError`) from a known but illegal action (:class:`IllegalActionError`).
        """
        return None

    def parse_action(self, state: S, text: str, names: SeatNames | None = None) -> int:
        """The legal action (or chance outcome) whose notation (or id in ASCII digits) is ``text``.

        The words a choice is shown in (:meth:`SeatNames.shown`, seats by ``names``, default
        ``Player N``) are accepted too: choices that read the same have the same effect, and the
        first is taken.  Any other text raises
        :class:`IllegalActionError` (a known action, not legal now) or
        :class:`InvalidActionError` (anything else); the message quotes at most
        :data:`~shadowtable.core.game.QUOTE_LIMIT` characters of ``text``.  Anything but a
        ``str`` raises :class:`InvalidActionError` (an action id is passed to ``apply`` as an
        ``int``).
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a str, got {type(text).__name__}")
        wanted = normalise_notation(text)
        legal = self.game.legal_actions(state)
        for action in legal:
            if normalise_notation(self.action_to_str(state, action)) == wanted:
                return action
        people = DEFAULT_NAMES if names is None else names
        shown = [a for a in legal if normalise_notation(people.shown(self.action_to_str(state, a))) == wanted]
        if shown:
            return shown[0]  # the words a person is shown: choices reading the same do the same
        known = self.action_from_str(state, text)
        if known is not None:
            raise IllegalActionError(f"{quote_input(text)} is not legal now")
        # An action id: ASCII digits only, compared as text. str.isdigit() also accepts "²" and "①",
        # which int() rejects, and int() refuses numbers of more than 4,300 digits.
        if wanted.isascii() and wanted.isdigit():
            by_id = {str(action): action for action in legal}
            number = wanted.lstrip("0") or "0"
            if number in by_id:
                return by_id[number]
        raise InvalidActionError(f"{quote_input(text)} is not a legal action here")

    # -- the game log ---------------------------------------------------------------------------
    def event_text(self, state: S, action: int, seat: int | None) -> str | None:
        """How ``action`` taken in ``state`` reads to ``seat`` in a game log (``None``: not shown).

        What a reader is told must follow from what that reader knows, never from the true state.
        This default is safe for every game: the seat that decided reads its own notation; every
        other reader learns only that the seat acted, and chance outcomes are not shown. Games
        override it to say more, naming only what the reader's observation reveals; the
        conformance suite's resampling check (:func:`shadowtable.testing.check_resampling`)
        holds them to it.
        """
        self.game.check_seat(seat)
        player = self.game.current_player(state)
        if player == seat:
            return f"you: {self.action_to_str(state, action)}"
        return None if player == CHANCE else f"seat {player} acted"

    def told(self, state: S, action: int, events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` is told of ``action`` taken in ``state``: the action in words
        (:meth:`event_text`), then the ``events`` it caused whose audience holds ``seat``."""
        line = self.event_text(state, action, seat)
        head = [] if line is None else [{"kind": "action", "text": line, "rule": "", "data": {}}]
        return head + visible(events, seat)

    def events(self, state: S, action: int, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` is told when ``action`` is taken in ``state`` (the state is unchanged)."""
        self.game.check_seat(seat)
        return self.told(state, action, self.game.apply_recorded(state, action)[1], seat)

    # -- how the game ends for each seat ---------------------------------------------------------
    def results(self, state: S, public_events: Sequence[Mapping[str, object]] = ()) -> tuple[SeatResult, ...]:
        """One result per seat of a finished game (empty while it runs), from the game's own
        outcome; ``public_events`` (the public log, as told to spectators) may say when and why
        a seat left the game early.  Every end box shows these, so they always agree."""
        if not self.game.is_terminal(state):
            return ()
        return results_from_returns(self.game.returns(state))

    def out_of_game(self, state: S, seat: int | None, told: Sequence[Mapping[str, object]] = ()) -> str | None:
        """Why ``seat`` is out of a game that goes on without it (``None``: it is not, or the game
        is over), from facts every seat knows and the events ``told`` to that seat."""
        return None

    # -- reading an observation -----------------------------------------------------------------
    def render(self, observation: Observation) -> str:
        """A readable text rendering of an observation."""
        return json.dumps(observation, indent=2, sort_keys=True)

    def rules_help(self, observation: Observation) -> str:
        """The rule that applies to the decision in ``observation``, quoted with its section."""
        return ""

    def reference(self) -> dict[str, Any]:
        """The printed material of the game as JSON data (card texts, board, how each role wins),
        keyed by the ids and names observations use; nothing in it is secret (empty by default).
        It never changes during a game: a front end fetches it once (it is worked out once, by
        :meth:`build_reference`, and the same object returned: do not change it)."""
        if self._reference is None:
            self._reference = self.build_reference()
        return self._reference

    def build_reference(self) -> dict[str, Any]:
        """The printed material (:meth:`reference`), worked out once per game; empty by default."""
        return {}

    # -- choices --------------------------------------------------------------------------------
    def action_group(self, state: S, action: int) -> str | None:
        """The label of the group ``action`` belongs to among the choices of ``state`` (``None``:
        shown on its own).  Games group actions that differ only in a detail ("place a Power Card
        under a portrait"), so a front end offers one choice that then asks for the detail."""
        return None

    def choice_groups(self, state: S) -> list[dict[str, Any]]:
        """The legal actions of the seat to decide, in words, grouped (:meth:`action_group`):
        ``[{"label": ..., "actions": [{"id": ..., "text": ...}, ...]}, ...]`` in the order of
        their first action; an action on its own is a group labelled with its own words.  Empty
        at a chance node or once the game is over."""
        if self.game.current_player(state) < 0:
            return []
        groups: dict[str, list[dict[str, Any]]] = {}
        for action in self.game.legal_actions(state):
            text = self.action_to_str(state, action)
            groups.setdefault(self.action_group(state, action) or text, []).append({"id": action, "text": text})
        return [{"label": label, "actions": actions} for label, actions in groups.items()]

    def preview(self, state: S, action: int) -> dict[str, Any] | None:
        """What comes next if the seat to decide takes ``action``, without changing ``state``:
        ``{"prompt": ..., "choices": [words, ...]}`` when that seat goes on with the same decision
        at once (where a Move card lets it go, which movements follow), else ``None`` (chance,
        another seat or another step comes first, or the game ends).  Raises
        :class:`IllegalActionError` for an illegal action."""
        game = self.game
        player = game.current_player(state)
        if player < 0:
            return None
        after = game.apply(state, action)
        if game.current_player(after) != player:
            return None
        pending = game.observe(after, player).get("pending") or {}
        if not isinstance(pending, dict):
            return None
        # Only within the same decision (more Move cards, more moves, more cards placed): a new
        # step may start with automatic work that reveals what the seat does not know yet.
        if pending.get("kind") != (game.observe(state, player).get("pending") or {}).get("kind"):
            return None
        prompt = str(pending.get("prompt") or "")
        choices = [self.action_to_str(after, a) for a in game.legal_actions(after)]
        return {"prompt": prompt, "choices": choices, **self.preview_details(after)}

    def preview_details(self, after: S) -> dict[str, Any]:
        """What a game adds to a :meth:`preview` from the state the action would lead to (the
        same seat still deciding); empty by default."""
        return {}
