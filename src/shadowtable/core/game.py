"""The game protocol: the one contract every ShadowTable game fulfils.

A game is a set of pure functions over immutable states.  Chance (shuffles, draws, dice) is
explicit: at a chance node :meth:`Game.chance_outcomes` lists outcomes with probabilities and the
runner picks one, so a game is fully determined by its action history.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from shadowtable.core.errors import IllegalActionError, InvalidSeatError
from shadowtable.core.events import Event
from shadowtable.core.rng import sample_outcome
from shadowtable.core.spec import GameSpec

if TYPE_CHECKING:
    from shadowtable.core.views import TypedObservation
    from shadowtable.core.wording import Wording

CHANCE = -1
"""``current_player`` at a chance node."""

TERMINAL = -2
"""``current_player`` once the game is over."""

Observation = dict[str, Any]
"""A JSON-serialisable view of a state from one seat (or a spectator)."""

S = TypeVar("S")


class Game(ABC, Generic[S]):
    """A configured game: a spec, a player count and resolved options.

    Subclasses set the class attribute ``SPEC`` and implement the abstract methods.  States are
    treated as immutable: :meth:`apply` returns a new state and never changes its input.  This
    is the engine surface (dynamics, information, serialisation, checks); what a person reads
    (notation, log lines, rendering, rules help, choices in words, previews, the printed
    reference) is behind :attr:`words`, an instance of the game's ``WORDING`` class
    (:class:`~shadowtable.core.wording.Wording`).
    """

    SPEC: GameSpec
    WORDING: ClassVar[type[Wording[Any]]]

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.players = self.SPEC.check_players(players)
        self.options: dict[str, Any] = self.SPEC.resolve_options(options or {})

    @classmethod
    def standard_configurations(cls) -> list[dict[str, Any]]:
        """The configurations (``players`` plus options) the conformance suite covers."""
        return [{"players": n} for n in range(cls.SPEC.min_players, cls.SPEC.max_players + 1)]

    @property
    def spec(self) -> GameSpec:
        """The declared specification (id, version, sizes, utility range, options)."""
        return self.SPEC

    @cached_property
    def words(self) -> Wording[S]:
        """The game in words (:class:`~shadowtable.core.wording.Wording`), made once."""
        return self.WORDING(self)

    # -- dynamics -------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first action (often a chance node: the setup shuffle)."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """The seat to act, or :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[int]:
        """Sorted legal action ids; at a chance node the outcome ids; empty when terminal."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, sorted by outcome; else empty."""

    @abstractmethod
    def apply(self, state: S, action: int) -> S:
        """The state after ``action``; raises :class:`IllegalActionError` (and changes nothing)
        if it is not legal or not an integer (:func:`action_id`: a bool, text, a float or ``None``
        is refused, a NumPy integer is taken as its value).  Games start with
        ``action = self.check_legal(state, action)``, or pass the action through
        :func:`action_id` before compiled code sees it."""

    def apply_recorded(self, state: S, action: int, *, checked: bool = True) -> tuple[S, list[Event]]:
        """:meth:`apply`, and the events the rules noted while carrying it out (every audience).

        Games on the kernel override it (:meth:`shadowtable.core.kernel.Kernel.apply_recorded`);
        the default notes nothing beyond the action itself (see
        :meth:`~shadowtable.core.wording.Wording.told`).  ``checked=False``
        skips the legality check, for an action just taken from :meth:`legal_actions`."""
        return (self.apply(state, action) if checked else self.apply_unchecked(state, action)), []

    def apply_unchecked(self, state: S, action: int) -> S:
        """:meth:`apply` without the legality check, for an action just taken from
        :meth:`legal_actions` (search rollouts, benchmarks).  The action's type is still checked
        (:func:`action_id`: :class:`IllegalActionError` for anything but an integer); what an
        illegal integer does is not defined.  Games override it where the check costs; the
        default checks anyway."""
        return self.apply(state, action)

    def apply_in_place(self, state: S, action: int) -> S:
        """The state after a legal ``action``, which may be ``state`` itself, changed: only for
        a state the caller owns and no one else holds (a search's rollout, after its first
        :meth:`apply_unchecked`).  Games override it to skip the copy; the default copies."""
        return self.apply_unchecked(state, action)

    def random_rollout(self, state: S, rng: random.Random, limit: int) -> S:
        """The state after uniformly random play from ``state`` for at most ``limit`` steps or
        to the end, changing ``state`` as :meth:`apply_in_place` does (only for a state the
        caller owns): each decision ``legal[rng.randrange(len(legal))]``, each chance node
        :func:`~shadowtable.core.rng.sample_outcome`.  Games on the kernel run the same loop
        compiled (:meth:`shadowtable.core.kernel.Kernel.random_rollout`): the same draws, the
        same state."""
        for _ in range(limit):
            player = self.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = sample_outcome(self.chance_outcomes(state), rng)
            else:
                legal = self.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            state = self.apply_in_place(state, action)
        return state

    def simultaneous_decisions(self, state: S) -> list[tuple[int, list[int]]]:
        """Where the rules have several seats choose together and in secret from ``state`` on
        (each without seeing the others' choices), those decisions in the order the engine asks
        for them: ``(seat, legal actions)``, the first being :meth:`current_player`'s.  The
        rules guarantee that no seat's options depend on another's choice in the block.  Empty
        where the decision is the current seat's alone (the default)."""
        return []

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        return self.current_player(state) == TERMINAL

    @abstractmethod
    def returns(self, state: S) -> list[float]:
        """Each seat's utility (all zeros before the end)."""

    # -- information ----------------------------------------------------------------------------
    @abstractmethod
    def observe(self, state: S, seat: int | None) -> Observation:
        """What ``seat`` (``None``: a spectator) may know of ``state``, as plain JSON data.

        Raises :class:`InvalidSeatError` for anything else (see :meth:`check_seat`).
        """

    def observe_typed(self, state: S, seat: int | None) -> TypedObservation:
        """:meth:`observe` as the game's typed view (the class its manifest names as ``view``):
        equal to ``typed_view(game, game.observe(state, seat))``.  Games override it to build the
        view directly, with no JSON in between (the RL encoders' hot path); the default reads
        :meth:`observe`'s JSON back (:func:`~shadowtable.core.views.typed_view`, unchecked)."""
        from shadowtable.core.views import typed_view

        return typed_view(self, self.observe(state, seat), checked=False)

    @abstractmethod
    def determinize(self, observation: Observation, rng: random.Random) -> S:
        """A full state consistent with everything the observing seat knows."""

    def observation_schema(self, kind: str) -> dict[str, Any] | None:
        """The JSON Schema of an observation of ``kind`` (``"seat"`` or ``"spectator"``).

        The default reads ``data/schemas/observation-<kind>.json`` from the package of the game's
        class (or of the nearest base class that ships one), or returns ``None`` when there is
        none.  Schemas list every field an observation may hold (``additionalProperties:
        false``), so the conformance suite refuses a field that is not on the allow-list.
        """
        import json
        from importlib import resources

        for cls in type(self).__mro__:
            if cls is Game:
                break
            package = cls.__module__.rpartition(".")[0] or cls.__module__
            try:
                text = (
                    resources.files(package).joinpath("data", "schemas", f"observation-{kind}.json").read_text("utf-8")
                )
            except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, TypeError):
                continue
            schema: dict[str, Any] = json.loads(text)
            return schema
        return None

    def check_seat(self, seat: object) -> int | None:
        """``seat`` if it is a seat of this game or ``None`` (a spectator); else :class:`InvalidSeatError`."""
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            shown = repr(seat) if len(repr(seat)) <= 20 else repr(seat)[:20] + "..."
            raise InvalidSeatError(f"seat must be between 0 and {self.players - 1} (or None: a spectator), got {shown}")
        return seat

    # -- serialisation --------------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """The full state as JSON data."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state; raises :class:`StateFormatError` if malformed."""

    # -- checks ---------------------------------------------------------------------------------
    def conservation_errors(self, state: S) -> list[str]:
        """Component-conservation problems (every card and token somewhere, exactly once)."""
        return []

    def summary(self, state: S) -> dict[str, Any]:
        """Facts about a game for reports and records' ``metadata`` (JSON data; empty by default)."""
        return {}

    def check_legal(self, state: S, action: object) -> int:
        """``action`` as a plain ``int`` (:func:`action_id`) if it is legal in ``state``; else
        :class:`IllegalActionError`."""
        number = action_id(action)
        if number not in self.legal_actions(state):
            raise IllegalActionError(f"action {number} is not legal now")
        return number


def action_id(action: object) -> int:
    """``action`` as a plain ``int``, the one form every engine takes, on both builds.

    An ``int`` is itself; an integer of another type that converts without loss
    (:func:`operator.index`: NumPy's integers, a 0-d integer array) is its value.  Anything else
    raises :class:`IllegalActionError`: a ``bool`` or NumPy bool (``True`` is not action 1), text
    (``"3"``), a float (``3.0``), ``None``.  It runs in Python, before any compiled code sees the
    action (docs/performance.md)."""
    if type(action) is int:
        return action
    if isinstance(action, bool):
        raise IllegalActionError(f"an action is an int, not a bool: got {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        pass
    shown = repr(action)
    shown = shown if len(shown) <= 40 else shown[:39] + "\u2026"
    raise IllegalActionError(f"an action is an int, got {type(action).__name__} {shown}")


def normalise_notation(text: str) -> str:
    """Case- and space-insensitive form of action notation."""
    return " ".join(text.strip().lower().split())


QUOTE_LIMIT = 80
"""The most characters of a person's input that an error message quotes."""


def quote_input(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters with an ellipsis."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "\u2026")
