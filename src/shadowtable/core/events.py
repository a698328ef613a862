"""Game events: what happened, in words and as data, with the rule that caused it.

Applying an action yields events: the action itself (worded for each reader by
:meth:`shadowtable.core.game.Game.event_text`) and what the rules did in consequence (a
Countdown moved, a Duel was fought, a card was stolen).  Rules note an event with :func:`note`
while they run; the note goes into the state's ``journal`` only while the kernel records (see
:meth:`shadowtable.core.kernel.Kernel.apply_recorded`), so simulations pay one attribute test.

Every event names its audience: ``seats=None`` is public (every seat and spectators); a tuple
names the only seats told.  A rule that handles a hidden value notes it twice: once, with the
value, to the seats that know it, and once, without it, to the others.  What a reader is told is
the events whose audience holds it: :func:`visible`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from shadowtable.core.game import Game


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``kind`` names it for programs (``"duel"``, ``"countdown"``...); ``text`` says it in words,
    with its numbers; ``rule`` is the rules-help entry that caused it (empty: none); ``data``
    holds its numbers as JSON data; ``seats`` is its audience (``None``: everyone).
    """

    kind: str
    text: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) is told this event."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "text", "rule", "data"}``: the event as a reader receives it."""
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "data": self.data}


class Journaled(Protocol):
    """A state that can hold the events of the action being carried out."""

    journal: list[Event] | None


def note(
    state: Journaled,
    kind: str,
    text: str,
    *,
    rule: str = "",
    seats: Iterable[int] | None = None,
    **data: Any,
) -> None:
    """Note an event on ``state`` if the kernel is recording (else do nothing)."""
    journal = state.journal
    if journal is not None:
        journal.append(Event(kind, text, rule, data, None if seats is None else tuple(sorted(set(seats)))))


def others(players: int, *seats: int) -> tuple[int, ...]:
    """Every seat of a ``players``-seat game but ``seats``: the audience that must not see a value."""
    return tuple(k for k in range(players) if k not in seats)


def visible(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` is told, as JSON data, in order."""
    return [event.to_json() for event in events if event.visible_to(seat)]


def game_log(game: Game[Any], actions: Sequence[int], seat: int | None) -> list[dict[str, Any]]:
    """Every event of a game from its start (the actions taken so far) as ``seat`` is told them."""
    told: list[dict[str, Any]] = []
    state = game.initial_state()
    for action in actions:
        new, events = game.apply_recorded(state, action)
        told.extend(game.words.told(state, action, events, seat))
        state = new
    return told
