"""The engine kernel: pending work as a stack of typed tasks, each handled by a declared rule.

A game built on the kernel keeps its pending work in ``state.stack`` (the last task on top).
A task is a small frozen dataclass (:class:`Task`) whose fields are its arguments, read by
name, never by position.  Every task type has exactly one handler, declared in the game's
:class:`Rulebook` table (no registration by import side effects):

- :class:`Automatic` work runs at once, with no choice to make;
- a :class:`Decision` waits for one seat: its legal actions and what each one does;
- a :class:`Chance` node waits for the runner: its outcomes with probabilities.

:class:`Kernel` is the one engine loop for every game: :meth:`Kernel.advance` runs automatic
work until a seat or chance must act or the game is over; :meth:`Kernel.apply` copies the state
once, then mutates the copy, so the caller's state never changes; :meth:`Kernel.pending` says
who must decide what, in words and as data, for bots and front ends.  The kernel writes nothing
onto a caller's state: the one cache, ``state.legal`` (the legal actions at a decision), is
listed by :meth:`Kernel.apply` into the new state it builds (the outcomes' ids at a
chance node), and states are never changed once
``apply`` returns them, so the listing stays valid (code that edits a state by hand, such as a
scenario test, sets it to ``None``).

A game may need more than tasks and their handlers; the kernel takes these optional, generic
hooks (none of them names a game):

- :class:`Interjections`: actions a seat may take at one of its decisions *without answering
  it* (the decision stays pending): free actions, starting an offer, revoking a permission...
  Their legal actions are merged into the decision's; ``apply`` says whether it handled one.
- ``seat_out(state, seat)``: a decision for a seat that is out of the game is skipped.
- ``before_apply(state, action)``: runs on the state just before every action or chance outcome
  is carried out (what every seat reads of the last decision).
- ``after_apply(ctx, state)``: runs on the new state after every action or chance outcome is
  carried out, before :meth:`Kernel.advance` (a step counter, a limit on a turn's length).
- ``ready`` on :class:`Decision` and :class:`Chance`: a cheap test that there is something to
  choose (:func:`always` for a decision that can always be answered, e.g. with ``done``), so
  :meth:`Kernel.advance` need not list the actions to know whether to skip it.
- :attr:`Chance.prepare`: work done when a chance node comes to the top of the stack, before
  its outcomes are listed (e.g. turning the discard pile into the deck when the deck is empty).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Protocol, Self, TypeAlias, TypeVar

from shadowtable._mypyc import by_constructor, mypyc_attr
from shadowtable.core.errors import IllegalActionError, StateFormatError
from shadowtable.core.events import Event
from shadowtable.core.game import action_id
from shadowtable.core.rng import randbelow, sample_outcome

CHANCE_SEAT = -1
"""``Pending.seat`` at a chance node (the same value as :data:`shadowtable.core.game.CHANCE`)."""

C = TypeVar("C")
S = TypeVar("S", bound="KernelState")


@mypyc_attr(allow_interpreted_subclasses=True)  # the compiled build: tasks defined in Python too
@dataclass(frozen=True, slots=True)
class Task:
    """Pending work: subclasses are frozen dataclasses whose fields are the task's arguments."""

    def to_json(self) -> dict[str, Any]:
        """``{"task": kind, ...fields}``: the task as JSON data."""
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        return {"task": task_kind(type(self)), **{name: getattr(self, name) for name in names}}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        """Copies and pickles are made by the constructor (the compiled build cannot set the fields
        of a frozen task any other way)."""
        return by_constructor(self)


def task_kind(task_type: type[Task]) -> str:
    """The task's kind in data: its class name in snake case (``ChooseCard`` -> ``choose_card``)."""
    kind = _KINDS.get(task_type)
    if kind is None:
        name = task_type.__name__
        kind = _KINDS[task_type] = "".join(
            f"_{ch.lower()}" if ch.isupper() and i else ch.lower() for i, ch in enumerate(name)
        )
    return kind


_KINDS: dict[type[Task], str] = {}
"""Each task type's kind, worked out once (observations name every pending task's kind)."""
_FIELD_NAMES: dict[type[Task], tuple[str, ...]] = {}
"""Each task type's field names, looked up once."""


class KernelState(Protocol):
    """What the kernel needs of a state: a stack of tasks, a journal (``None`` unless the kernel
    records; a copy starts with ``None``), the cached legal actions (``None``: not listed; a
    copy starts with ``None``; never serialised) and a full copy."""

    stack: list[Task]
    journal: list[Event] | None
    legal: list[int] | None

    def copy(self) -> Self: ...


# the compiled build compiles no handler class: mypyc cannot build a generic dataclass (mypyc/mypyc#827)
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Automatic(Generic[C, S]):
    """Work done at once: ``run(ctx, state, task)`` mutates ``state`` (the task is already popped)."""

    run: Callable[[C, S, Any], None]


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Decision(Generic[C, S]):
    """A choice for one seat.

    ``seat(task)`` names the seat; ``legal(ctx, state, task)`` lists its legal actions (sorted);
    ``apply(ctx, state, task, action)`` carries one out (the task is already popped: push it
    back to ask again).  ``prompt`` says what is decided, in words a player can act on; ``rule``
    names the rules-help entry that applies; ``shown`` lists the task's fields that every seat
    may know (an allow-list: a field not listed is never shown in :class:`Pending`).  A
    decision with no legal action is skipped.  ``ready(ctx, state, task)``, if given, is a
    cheaper test of whether there is a legal action, used by :meth:`Kernel.advance` instead of
    listing them (:func:`always` for a decision that can always be answered, e.g. ``done``).
    """

    seat: Callable[[Any], int]
    legal: Callable[[C, S, Any], list[int]]
    apply: Callable[[C, S, Any, int], None]
    prompt: str
    rule: str = ""
    shown: tuple[str, ...] = ()
    ready: Callable[[C, S, Any], bool] | None = None


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Chance(Generic[C, S]):
    """A chance node: ``outcomes(ctx, state, task)`` lists ``(outcome, probability)`` pairs
    sorted by outcome; ``apply(ctx, state, task, outcome)`` carries one out (task popped).
    ``shown`` is the allow-list of the task's public fields.  A chance node with no outcome is
    skipped; ``ready``, if given, tests that cheaply instead (as for :class:`Decision`).
    ``prepare(ctx, state, task)``, if given, runs when the node comes to the top of the stack,
    before its outcomes are listed; it may change the state (the task stays on top)."""

    outcomes: Callable[[C, S, Any], list[tuple[int, float]]]
    apply: Callable[[C, S, Any, int], None]
    shown: tuple[str, ...] = ()
    ready: Callable[[C, S, Any], bool] | None = None
    prepare: Callable[[C, S, Any], None] | None = None


def always(ctx: Any, state: Any, task: Any) -> bool:
    """A ``ready`` test for a decision or chance node that always has something to choose."""
    return True


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Interjections(Generic[C, S]):
    """Actions a seat may take at its pending decision without answering it.

    ``legal(ctx, state, task)`` lists them for the decision ``task`` on top of the stack (merged
    with the decision's own legal actions, sorted and unique); ``apply(ctx, state, task,
    action)`` carries one out on the new state with the decision still on the stack and returns
    ``True``, or returns ``False`` for an action that answers the decision (then the decision's
    handler takes it).
    """

    legal: Callable[[C, S, Any], list[int]]
    apply: Callable[[C, S, Any, int], bool]


Handler: TypeAlias = "Automatic[Any, Any] | Decision[Any, Any] | Chance[Any, Any]"
"""Any handler (a string for the type checker: the compiled build's handler classes, plain Python
classes, cannot be subscripted at run time)."""


@dataclass(frozen=True)
class Pending:
    """Who must decide what now.

    ``seat`` is the seat to decide, :data:`CHANCE_SEAT` at a chance node, or ``None`` once the
    game is over; ``kind`` is the task's kind, ``prompt`` says in words what is decided,
    ``rule`` names the rule that applies, and ``data`` holds the task's arguments that its
    handler lists as public (``shown``).
    """

    seat: int | None
    kind: str
    prompt: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt, "rule": self.rule, "data": self.data}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_constructor(self)  # the compiled build copies and pickles no other way


# the compiled build: subclasses in Python, and copies as in Python (docs/performance.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class Rulebook:
    """One game's table from task type to handler, declared in one place."""

    def __init__(self, handlers: Mapping[type[Task], Handler]) -> None:
        self.handlers: dict[type[Task], Handler] = dict(handlers)
        self.by_kind: dict[str, type[Task]] = {task_kind(t): t for t in self.handlers}
        if len(self.by_kind) != len(self.handlers):
            raise ValueError("two task types share a kind")

    def handler(self, task: Task) -> Handler:
        try:
            return self.handlers[type(task)]
        except KeyError:
            raise StateFormatError(f"no rule handles the task {type(task).__name__}") from None

    def task_from_json(self, data: Mapping[str, Any]) -> Task:
        """Rebuild a task from :meth:`Task.to_json` data (lists become tuples)."""
        try:
            args = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "task"}
            return self.by_kind[str(data["task"])](**args)
        except (KeyError, TypeError) as exc:
            raise StateFormatError(f"bad task {dict(data)!r}: {exc}") from exc


@mypyc_attr(allow_interpreted_subclasses=True)  # as Rulebook
class Kernel(Generic[C, S]):
    """The engine loop shared by every game built on tasks.

    ``is_over(state)`` tells whether the game has ended (an empty stack also ends it; ``None``:
    only an empty stack does).  The optional hooks (see the module's documentation):
    ``interjections``, ``seat_out(state, seat)``, ``before_apply(state, action)`` and
    ``after_apply(ctx, state)``.
    """

    def __init__(
        self,
        rulebook: Rulebook,
        is_over: Callable[[S], bool] | None = None,
        *,
        interjections: Interjections[C, S] | None = None,
        seat_out: Callable[[S, int], bool] | None = None,
        before_apply: Callable[[S, int], None] | None = None,
        after_apply: Callable[[C, S], None] | None = None,
    ) -> None:
        self.rulebook = rulebook
        self.is_over = is_over
        self.interjections = interjections
        self.seat_out = seat_out
        self.before_apply = before_apply
        self.after_apply = after_apply
        self._handlers = rulebook.handlers  # looked up on every step: a plain dict

    def _handler(self, task: Task) -> Handler:
        return self._handlers.get(type(task)) or self.rulebook.handler(task)

    def _over(self, state: S) -> bool:
        return self.is_over is not None and self.is_over(state)

    def advance(self, ctx: C, state: S, budget: int = 1_000_000) -> list[int] | None:
        """Run automatic work (and skip decisions and chance nodes with nothing to choose) until
        a seat or chance must act or the game is over.

        Returns the decision's own legal actions when it had to list them to know that the
        decision it stopped at is not empty (else ``None``): :meth:`apply` caches them."""
        handlers = self._handlers
        is_over = self.is_over
        seat_out = self.seat_out
        stack = state.stack
        while stack and not (is_over is not None and is_over(state)):
            budget -= 1
            if budget < 0:
                raise RuntimeError(f"engine loop: automatic work never ends at {stack[-3:]}")
            task = stack[-1]
            handler = handlers.get(type(task)) or self.rulebook.handler(task)
            if isinstance(handler, Automatic):
                stack.pop()
                handler.run(ctx, state, task)
                stack = state.stack  # the work may have replaced the stack
            elif isinstance(handler, Decision):
                if seat_out is None or not seat_out(state, handler.seat(task)):
                    if handler.ready is not None:
                        if handler.ready(ctx, state, task):
                            return None
                    else:
                        legal = handler.legal(ctx, state, task)
                        if legal:
                            return legal
                stack.pop()
            else:
                if handler.prepare is not None:
                    handler.prepare(ctx, state, task)
                    stack = state.stack
                ready = handler.ready
                if ready(ctx, state, task) if ready is not None else handler.outcomes(ctx, state, task):
                    return None
                stack.pop()
        return None

    def top(self, state: S) -> Task | None:
        """The task waiting for a seat or chance, or ``None`` when the game is over."""
        stack = state.stack
        if not stack or self._over(state):
            return None
        return stack[-1]

    def current_player(self, state: S) -> int | None:
        """The seat to decide, :data:`CHANCE_SEAT`, or ``None`` once the game is over."""
        stack = state.stack
        if not stack or self._over(state):
            return None
        task = stack[-1]
        handler = self._handler(task)
        return handler.seat(task) if isinstance(handler, Decision) else CHANCE_SEAT

    def legal_actions(self, ctx: C, state: S) -> list[int]:
        """Sorted legal actions; at a chance node the outcomes; empty once the game is over.
        A new list: the state's cached listing when it has one."""
        cached = state.legal
        if cached is not None:
            return cached[:]
        return self.list_legal(ctx, state)

    def list_legal(self, ctx: C, state: S) -> list[int]:
        """:meth:`legal_actions` listed from the rules, whatever the state has cached."""
        stack = state.stack
        if not stack or self._over(state):
            return []
        task = stack[-1]
        handler = self._handler(task)
        if isinstance(handler, Decision):
            return self._with_interjections(ctx, state, task, handler.legal(ctx, state, task))
        if isinstance(handler, Chance):
            return [outcome for outcome, _ in handler.outcomes(ctx, state, task)]
        return []

    def _with_interjections(self, ctx: C, state: S, task: Task, legal: list[int]) -> list[int]:
        """A decision's legal actions merged with the interjections at it."""
        if self.interjections is not None:
            extra = self.interjections.legal(ctx, state, task)
            if extra:
                return _merged(legal, extra)
        return legal

    def chance_outcomes(self, ctx: C, state: S) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node; else empty."""
        task = self.top(state)
        if task is None:
            return []
        handler = self._handler(task)
        return handler.outcomes(ctx, state, task) if isinstance(handler, Chance) else []

    def apply(self, ctx: C, state: S, action: object, *, checked: bool = True) -> S:
        """A new state: ``action`` carried out on a copy of ``state``, then :meth:`advance`.

        An interjection leaves the decision on the stack; any other action pops the task and
        hands it to its handler.  ``after_apply`` runs before :meth:`advance`.  ``action`` is
        taken as any object and checked (:func:`~shadowtable.core.game.action_id`), even with
        ``checked=False``: a compiled ``int`` parameter would read ``True`` as 1."""
        return self._carry_out(ctx, state, _as_action(action), checked)[0]

    def apply_recorded(self, ctx: C, state: S, action: object, *, checked: bool = True) -> tuple[S, list[Event]]:
        """:meth:`apply` while recording: the new state and the events the rules noted
        (:func:`shadowtable.core.events.note`) while carrying out ``action`` and the automatic
        work after it."""
        return self._carry_out(ctx, state, _as_action(action), checked, record=True)

    def _carry_out(self, ctx: C, state: S, action: int, checked: bool, record: bool = False) -> tuple[S, list[Event]]:
        if checked:
            self.check_legal(ctx, state, action)
        new = state.copy()
        if record:
            new.journal = []
        self._list_into(ctx, new, self._change(ctx, new, action))
        if not record:
            return new, []
        journal, new.journal = new.journal or [], None
        return new, journal

    def apply_in_place(self, ctx: C, state: S, action: int) -> None:
        """Carry out a legal ``action`` on ``state`` itself, with no copy and no check: only for
        a state the caller owns (a search's rollout).  The listing is cached only where
        :meth:`advance` made it anyway."""
        listed = self._change(ctx, state, action)
        state.legal = None if listed is None else self._with_interjections(ctx, state, state.stack[-1], listed)

    def random_rollout(self, ctx: C, state: S, rng: random.Random, limit: int) -> int:
        """Play on ``state`` itself, as :meth:`apply_in_place` does, for at most ``limit`` steps
        or to the end: each decision a uniformly random legal action (``legal[rng.randrange(n)]``),
        each chance node an outcome by its odds (:func:`~shadowtable.core.rng.sample_outcome`).
        Returns the steps played.  Only for a state the caller owns (a search's rollout)."""
        steps = 0
        while steps < limit:
            seat = self.current_player(state)
            if seat is None:
                break
            if seat == CHANCE_SEAT:
                action = sample_outcome(self.chance_outcomes(ctx, state), rng)
            else:
                legal = state.legal
                if legal is None:
                    legal = self.list_legal(ctx, state)
                action = legal[randbelow(rng, len(legal))]
            self.apply_in_place(ctx, state, action)
            steps += 1
        return steps

    def _change(self, ctx: C, state: S, action: int) -> list[int] | None:
        """Carry out ``action`` on ``state`` and :meth:`advance` (returning its listing)."""
        if self.before_apply is not None:
            self.before_apply(state, action)
        task = state.stack[-1]
        handler = self._handler(task)
        if isinstance(handler, Automatic):
            raise StateFormatError(f"task {type(task).__name__} is automatic: nothing to decide")
        interjections = self.interjections
        if (
            interjections is None
            or not isinstance(handler, Decision)
            or not interjections.apply(ctx, state, task, action)
        ):
            state.stack.pop()
            handler.apply(ctx, state, task, action)
        if self.after_apply is not None:
            self.after_apply(ctx, state)
        return self.advance(ctx, state)

    def check_legal(self, ctx: C, state: S, action: object) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is an integer
        (:func:`~shadowtable.core.game.action_id`) legal in ``state``."""
        action = _as_action(action)
        legal = state.legal
        if legal is None:
            legal = self.list_legal(ctx, state)
        if action not in legal:
            raise IllegalActionError(f"action {action} is not legal now")

    def _list_into(self, ctx: C, state: S, listed: list[int] | None) -> None:
        """Cache the legal actions (or chance outcomes) in a state the kernel has just built
        (``listed``: the decision's own actions, when :meth:`advance` had to list them)."""
        if listed is None:
            state.legal = self.list_legal(ctx, state)
        else:
            state.legal = self._with_interjections(ctx, state, state.stack[-1], listed)

    def prepare(self, ctx: C, state: S) -> None:
        """:meth:`advance` a state the game has just built (the initial state) and cache its
        legal actions."""
        self._list_into(ctx, state, self.advance(ctx, state))

    def pending(self, state: S) -> Pending:
        """Who must decide what now, in words and as data."""
        task = self.top(state)
        if task is None:
            return Pending(seat=None, kind="over", prompt="the game is over")
        handler = self._handler(task)
        if isinstance(handler, Automatic):
            raise StateFormatError(f"task {type(task).__name__} is automatic: it never waits")
        data = {name: _json_value(getattr(task, name)) for name in handler.shown}
        kind = task_kind(type(task))
        if isinstance(handler, Decision):
            return Pending(handler.seat(task), kind, handler.prompt, handler.rule, data)
        return Pending(CHANCE_SEAT, kind, "chance decides", "", data)


def _as_action(action: object) -> int:
    """``action`` as a plain ``int`` (:func:`~shadowtable.core.game.action_id`): the kernel's
    entry points take any object, so that the compiled build refuses what the pure build does."""
    if type(action) is int:
        return action
    return action_id(action)


def _merged(legal: list[int], extra: list[int]) -> list[int]:
    """The sorted union of ``legal`` (sorted, no repeats) and ``extra``: joined end to end when
    ``extra`` is ascending and comes after ``legal`` (interjections usually have ids of their
    own, above the decision's), else sorted again."""
    previous = legal[-1] if legal else -1
    for action in extra:
        if action <= previous:
            return sorted(set(legal).union(extra))
        previous = action
    return legal + extra


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
