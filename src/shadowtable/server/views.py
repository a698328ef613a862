"""What a seat is sent: the core table's seat view (:class:`~shadowtable.core.table.SeatView`)
as the server's JSON messages.

These functions are pure, so the secrecy tests can build the message a seat would receive from
two states it cannot tell apart and compare the bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.table import encode, groups_of, view_of

__all__ = ["choice_groups", "encode", "joined", "legal_words", "seat_view", "to_decide", "view_parts"]


def to_decide(game: Game[Any], state: Any, seat: int | None) -> bool:
    """Whether ``seat`` decides now (a seat knows this from its own observation's ``pending``)."""
    return seat is not None and game.current_player(state) == seat


def legal_words(game: Game[Any], state: Any) -> list[list[Any]]:
    """``[[action id, words], ...]`` for the seat to decide."""
    return [[action, game.words.action_to_str(state, action)] for action in game.legal_actions(state)]


def choice_groups(game: Game[Any], state: Any) -> list[dict[str, Any]]:
    """The legal actions grouped (:meth:`Game.choice_groups`), each group listing action ids."""
    return [group.to_json() for group in groups_of(game, state)]


def view_parts(game: Game[Any], state: Any, seat: int | None, turn: int | None) -> dict[str, Any]:
    """The parts of a ``view`` that depend only on the state and the audience: ``obs``,
    ``pending``, and (for the seat that decides now) ``legal``, ``groups`` and ``turn``."""
    return view_of(game, state, seat, v=0, events=(), turn=turn).parts()


def seat_view(
    game: Game[Any],
    state: Any,
    seat: int | None,
    *,
    v: int,
    events: list[dict[str, Any]],
    after: int = 0,
    turn: int | None,
    clock: Mapping[str, object] | None = None,
    presence: Sequence[Mapping[str, object]] | None = None,
) -> dict[str, Any]:
    """The ``view`` message for ``seat`` (``None``: a spectator): the core seat view's JSON.

    ``legal``, ``groups`` and ``turn`` go only to the seat that decides now; everything else comes
    from ``observe(state, seat)`` and the events told to that seat.  ``events`` are those of the
    versions after ``after`` (0: the whole log)."""
    view = view_of(game, state, seat, v=v, events=events, after=after, turn=turn)
    return view.to_json(clock=clock, presence=presence)


def joined(fields: dict[str, str]) -> str:
    """A JSON object from its fields' encoded values: the same bytes :func:`encode` gives the
    decoded object (keys sorted, no spaces), so encoded parts can be reused without decoding."""
    return "{" + ",".join(f"{json.dumps(name)}:{fields[name]}" for name in sorted(fields)) + "}"
