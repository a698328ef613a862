"""A live table in memory: the state, every action, and what each seat has been told.

Changes come in two halves so that nothing is acknowledged before it is stored:
:func:`plan` works out the steps an action leads to (the action, then any chance outcomes drawn
from the operating system) without changing the table; the caller persists them, then
:meth:`LiveTable.commit` makes them the table's own.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.events import Event
from shadowtable.core.game import CHANCE, Game
from shadowtable.core.rng import sample_outcome
from shadowtable.server.views import encode

CHANCE_SEAT = -1
"""The ``seat`` of a chance outcome in the action log."""

_SYSTEM = secrets.SystemRandom()


@dataclass(frozen=True)
class Step:
    """One action (``seat`` -1: a chance outcome) and the state it led to."""

    seat: int
    action: int
    before: Any
    after: Any
    events: list[Event]


def plan(game: Game[Any], state: Any, seat: int | None, action: int | None, rng: random.Random = _SYSTEM) -> list[Step]:
    """The steps ``action`` by ``seat`` leads to (checked: raises if illegal), then every chance
    step that follows, drawn from ``rng`` (the operating system's randomness).  With ``action``
    ``None``, only the chance steps.  ``state`` is not changed."""
    steps: list[Step] = []
    if action is not None and seat is not None:
        after, events = game.apply_recorded(state, action)
        steps.append(Step(seat, action, state, after, events))
        state = after
    while game.current_player(state) == CHANCE:
        outcome = sample_outcome(game.chance_outcomes(state), rng)
        after, events = game.apply_recorded(state, outcome, checked=False)
        steps.append(Step(CHANCE_SEAT, outcome, state, after, events))
        state = after
    return steps


def replayed(game: Game[Any], rows: Iterable[tuple[int, int]], state: Any = None) -> list[Step]:
    """The steps of a stored log of ``(seat, action)`` rows, from ``state`` (default: the initial
    state)."""
    steps: list[Step] = []
    state = game.initial_state() if state is None else state
    for seat, action in rows:
        after, events = game.apply_recorded(state, action)
        steps.append(Step(seat, action, state, after, events))
        state = after
    return steps


@dataclass
class Channel:
    """What one audience (a seat, or ``None``: spectators) has been told: a version ``v`` that
    moves only when its view changes, and the events of each version.

    ``log[k]`` holds the events of version ``k + 1`` as encoded JSON without its brackets: a
    string per version instead of a dictionary per event keeps a long game's log out of the
    garbage collector's full passes, and the events after any version are one join away."""

    v: int = 0
    last: str = ""
    log: list[str] = field(default_factory=list)

    def add(self, events: list[dict[str, Any]]) -> None:
        """A new version with ``events``."""
        self.v += 1
        self.log.append(encode(events)[1:-1])

    def since_text(self, v: int) -> str:
        """The events of every version after ``v`` as encoded JSON (all of them if ``v`` is not
        one this channel has reached)."""
        if not 0 <= v <= self.v:
            v = 0
        return "[" + ",".join(text for text in self.log[v:] if text) + "]"

    def through(self, v: int) -> list[dict[str, Any]]:
        """The events of the versions up to and including ``v`` (what a seat at version ``v`` had
        been told)."""
        events: list[dict[str, Any]] = json.loads("[" + ",".join(text for text in self.log[:v] if text) + "]")
        return events

    def since(self, v: int) -> list[dict[str, Any]]:
        """The events of every version after ``v`` (see :meth:`since_text`)."""
        events: list[dict[str, Any]] = json.loads(self.since_text(v))
        return events


@dataclass
class LiveTable:
    """A game in progress (or over) with its log and per-audience channels."""

    game: Game[Any]
    state: Any
    rows: list[tuple[int, int]] = field(default_factory=list)
    channels: dict[int | None, Channel] = field(default_factory=dict)

    @classmethod
    def new(cls, game: Game[Any]) -> LiveTable:
        table = cls(game, game.initial_state())
        for audience in table.audiences():
            channel = table.channels.setdefault(audience, Channel())
            channel.last = encode(game.observe(table.state, audience))
        return table

    def audiences(self) -> list[int | None]:
        return [None, *range(self.game.players)]

    def decisions(self, seat: int) -> int:
        """How many decisions ``seat`` has made: the ``turn`` of its next one."""
        return sum(1 for s, _ in self.rows if s == seat)

    def commit(self, steps: list[Step]) -> None:
        """Make ``steps`` (planned from this table's state, now stored) the table's own."""
        for step in steps:
            for audience in self.audiences():
                channel = self.channels[audience]
                told = self.game.told(step.before, step.action, step.events, audience)
                seen = encode(self.game.observe(step.after, audience))
                if told or seen != channel.last:
                    channel.add(told)
                    channel.last = seen
            self.rows.append((step.seat, step.action))
            self.state = step.after

    @property
    def actions(self) -> list[int]:
        return [action for _, action in self.rows]
