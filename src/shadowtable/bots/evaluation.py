"""State evaluators: a quick estimate of each seat's return, for search cut-offs.

An evaluator maps ``(game, state)`` to one value per seat in ``[0, 1]`` (the game's utility range
rescaled, as search bots score returns).  Search bots use one to score a rollout cut off before
the game ends (``ismcts:max_rollout_steps=...:evaluate=heuristic``).  Evaluators read only
public information (the game's observation of seat 0 with no private part used), so a
determinized state and the true state of the same position evaluate alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from shadowtable.core.errors import BotError
from shadowtable.core.game import Game
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class

Evaluator = Callable[[Game[Any], Any], list[float]]


def material_shares(material: Sequence[float]) -> list[float]:
    """Each seat's share of the material on the table (equal shares when nobody has any)."""
    total = sum(material)
    if total <= 0:
        return [1.0 / len(material)] * len(material)
    return [m / total for m in material]


_EVALUATORS: dict[tuple[str, str], Evaluator] = {}
"""Evaluations registered at run time (a game's own are named in its manifest)."""


def register_evaluator(game_id: str, name: str, evaluator: Evaluator) -> None:
    """Make ``evaluator`` available as evaluation ``name`` for ``game_id``."""
    _EVALUATORS[(game_id, name)] = evaluator


def evaluators_for(game_id: str) -> list[str]:
    """The evaluation names of ``game_id`` (its manifest's and any registered), sorted."""
    return sorted({name for gid, name in _EVALUATORS if gid == game_id} | set(_manifest_evaluations(game_id)))


def evaluator(game_id: str, name: str) -> Evaluator:
    """The evaluator ``name`` of ``game_id``; :class:`BotError` if there is none."""
    found = _EVALUATORS.get((game_id, name))
    if found is None and name in _manifest_evaluations(game_id):
        found = load(_manifest_evaluations(game_id)[name])
        _EVALUATORS[(game_id, name)] = found
    if found is None:
        known = ", ".join(evaluators_for(game_id)) or "none"
        raise BotError(f"no evaluation {name!r} for game {game_id!r}; available: {known}")
    return found


def _manifest_evaluations(game_id: str) -> dict[str, str]:
    if game_id not in available_games():
        return {}
    return dict(manifest_of(game_class(game_id)).evaluations)
