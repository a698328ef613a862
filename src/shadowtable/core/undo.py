"""Taking back a move: which of a seat's last decisions may be undone, decided from the game's steps.

The rule, the same for every game: a seat may take back its own most recent decisions as long as,
since them, no chance outcome happened (a card drawn or shown, a die rolled), no other seat
decided, and nothing hidden was revealed to anyone.  The first two are read from who took each
step (:class:`~shadowtable.core.table.Step`'s ``seat``); the third is checked for each decision
step by :func:`quiet` (:func:`reveals`): every reader (each seat and the spectators) must have learned nothing from
it beyond the action itself, i.e. in every world that reader could not tell from the true one
(``game.determinize`` of its observation) the same action is legal and leads to the same
observation and the same events told to it.

An undo is stored as a row of its own (:data:`UNDO_SEAT`, the number of decisions taken back), so
a log stays append-only; :func:`effective_rows` folds a stored log into the rows the game played.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.core.errors import RecordError
from shadowtable.core.game import Game
from shadowtable.core.rng import derive_seed

UNDO_SEAT = -2
"""The ``seat`` of an undo row in a stored log; its ``action`` is how many decisions it took back."""
TWINS = 6
"""Worlds sampled per reader when checking that a step revealed nothing."""
SEAT_TWINS = 2
"""Worlds the undoing seat cannot tell from the true one, each checked as the true one is."""
MAX_UNDO = 50
"""The most decisions one undo may take back (bounded work per request)."""


@dataclass(frozen=True)
class Undone:
    """An undo as a record keeps it: ``seat`` took back ``actions`` (its own decisions, oldest
    first), which had followed the first ``at`` actions of the game."""

    seat: int
    at: int
    actions: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "at": self.at, "actions": list(self.actions)}


def trailing_run(seats: Sequence[int]) -> tuple[int | None, int]:
    """The seat whose own decisions end the log and how many they are (``(None, 0)`` when the log
    ends with a chance step or is empty): the decisions since the last chance step or decision of
    another seat."""
    if not seats or seats[-1] < 0:
        return None, 0
    seat, count = seats[-1], 0
    for who in reversed(seats):
        if who != seat:
            break
        count += 1
    return seat, count


def _encoded(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def reveals(game: Game[Any], before: Any, action: int, after: Any, events: Sequence[Any], key: int) -> bool:
    """Whether the step ``before`` -> ``after`` (``action``, noting ``events``) told any reader
    something hidden.  For each reader, in each of :data:`TWINS` worlds it cannot tell from
    ``before`` (``game.determinize``), some legal action (``action`` itself, or for a reader that
    does not see it, another one) must lead to what that reader observed and was told; ``key``
    seeds the sampling (the same step, the same answer)."""
    for reader in [None, *range(game.players)]:
        seen = (_encoded(game.observe(after, reader)), _encoded(game.words.told(before, action, list(events), reader)))
        rng = random.Random(derive_seed(key, "undo", -1 if reader is None else reader))
        observation = game.observe(before, reader)
        for _ in range(TWINS):
            try:
                twin = game.determinize(observation, rng)
                if not _looks_the_same(game, twin, action, reader, seen):
                    return True
            except Exception:  # a world the rules cannot carry on from: take no risk
                return True
    return False


def quiet(game: Game[Any], before: Any, seat: int, action: int, key: int) -> bool:
    """Whether ``seat``'s decision ``action`` from ``before`` may be taken back: it revealed nothing
    (:func:`reveals`), nor would it have in :data:`SEAT_TWINS` worlds ``seat`` cannot tell from
    ``before``.  The second half makes the answer one ``seat`` could have worked out itself: told
    "yes", it learns nothing about what it cannot see (the tests check that a decision revealing
    something in the true world reveals something in the seat's twins too)."""
    after, events = game.apply_recorded(before, action, checked=False)
    if reveals(game, before, action, after, events, key):
        return False
    rng = random.Random(derive_seed(key, "undo-seat", seat))
    observation = game.observe(before, seat)
    for _ in range(SEAT_TWINS):
        try:
            twin = game.determinize(observation, rng)
            if action not in game.legal_actions(twin):
                return False
            twin_after, twin_events = game.apply_recorded(twin, action)
            if reveals(game, twin, action, twin_after, twin_events, key):
                return False
        except Exception:  # a world the rules cannot carry on from: take no risk
            return False
    return True


def _looks_the_same(game: Game[Any], twin: Any, action: int, reader: int | None, seen: tuple[str, str]) -> bool:
    """Whether in ``twin`` ``action`` (or, when it is not legal there, another legal action) leads
    to what ``reader`` saw: ``seen`` (its observation and the events it was told)."""
    legal = game.legal_actions(twin)
    tried = [action] if action in legal else [a for a in legal if a != action]
    for candidate in tried:
        twin_after, twin_events = game.apply_recorded(twin, candidate)
        told = game.words.told(twin, candidate, twin_events, reader)
        shown = (_encoded(game.observe(twin_after, reader)), _encoded(told))
        if shown == seen:
            return True
    return False


def effective_rows(rows: Iterable[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[Undone]]:
    """A stored log folded: the ``(seat, action)`` rows the game played (undone ones left out) and
    the undos in order.  :class:`RecordError` for an undo row that takes back more than the seat's
    own trailing decisions."""
    played: list[tuple[int, int]] = []
    undos: list[Undone] = []
    for seat, action in rows:
        if seat != UNDO_SEAT:
            played.append((seat, action))
            continue
        who, run = trailing_run([s for s, _ in played[-action - 1 :]] if action > 0 else [])
        if who is None or not 0 < action <= run:
            raise RecordError(f"an undo of {action} decisions does not follow that many decisions of one seat")
        taken = tuple(a for _, a in played[-action:])
        del played[-action:]
        undos.append(Undone(who, len(played), taken))
    return played, undos


def undo_event(undone: Undone) -> dict[str, Any]:
    """The event every reader is told of an undo (public: the undone decisions revealed nothing)."""
    moves = "a move" if len(undone.actions) == 1 else f"{len(undone.actions)} moves"
    return {
        "kind": "undo",
        "text": f"seat {undone.seat} took back {moves}",
        "rule": "",
        "data": {"seat": undone.seat, "count": len(undone.actions)},
    }


def undo_refusal(allowed: int, asked: int) -> str:
    """Why an undo of ``asked`` decisions is refused when ``allowed`` may be taken back."""
    if allowed == 0:
        return (
            "nothing to take back: only your own last decisions can be undone, before a card is drawn or"
            " shown, a die rolled or another player decides"
        )
    last = "only your last decision" if allowed == 1 else f"only your last {allowed} decisions"
    return f"{last} can be taken back now, not {asked}"


def undo_metadata(undos: Sequence[Undone]) -> dict[str, Any]:
    """A record's ``undos`` entry (none without an undo)."""
    return {"undos": [undone.to_json() for undone in undos]} if undos else {}
