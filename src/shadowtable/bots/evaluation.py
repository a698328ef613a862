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

Evaluator = Callable[[Game[Any], Any], list[float]]


def _shadowlord_material(game: Game[Any], state: Any) -> list[float]:
    from shadowtable.bots.heuristic_shadowlord import make_view

    view = make_view(game, 0, game.observe(state, 0))
    return material_shares([_alive_material(view, seat) for seat in range(game.players)])


POWER_STONE_BONUS = 20.0
"""Material the Power Stone is worth to the seat whose character holds it (the Shadowlord's
Strength twice over: taking it is the way to win)."""


def _alive_material(view: Any, seat: int) -> float:
    if view.pub["seat_out"][seat]:
        return 0.0
    stone = int(view.pub["stone"])
    holds = 0 <= stone < len(view.owner_list) and view.owner(stone) in view.mine_of(seat)
    return float(view.seat_material(seat)) + (POWER_STONE_BONUS if holds else 0.0)


def material_shares(material: Sequence[float]) -> list[float]:
    """Each seat's share of the material on the table (equal shares when nobody has any)."""
    total = sum(material)
    if total <= 0:
        return [1.0 / len(material)] * len(material)
    return [m / total for m in material]


_EVALUATORS: dict[tuple[str, str], Evaluator] = {("shadowlord", "heuristic"): _shadowlord_material}


def register_evaluator(game_id: str, name: str, evaluator: Evaluator) -> None:
    """Make ``evaluator`` available as evaluation ``name`` for ``game_id``."""
    _EVALUATORS[(game_id, name)] = evaluator


def evaluators_for(game_id: str) -> list[str]:
    """The evaluation names registered for ``game_id``, sorted."""
    return sorted(name for gid, name in _EVALUATORS if gid == game_id)


def evaluator(game_id: str, name: str) -> Evaluator:
    """The evaluator ``name`` of ``game_id``; :class:`BotError` if there is none."""
    found = _EVALUATORS.get((game_id, name))
    if found is None:
        known = ", ".join(evaluators_for(game_id)) or "none"
        raise BotError(f"no evaluation {name!r} for game {game_id!r}; available: {known}")
    return found
