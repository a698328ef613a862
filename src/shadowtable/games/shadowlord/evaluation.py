"""Shadowlord!'s material evaluation: each seat's share of the characters' strength and Space
Ships on the table, the Power Stone counting for its holder (named in the game's manifest)."""

from __future__ import annotations

from typing import Any, cast

from shadowtable.bots.evaluation import material_shares
from shadowtable.core.game import Game
from shadowtable.games.shadowlord.heuristic import make_view
from shadowtable.games.shadowlord.view import LordObservation


def material(game: Game[Any], state: Any) -> list[float]:
    """Each seat's share of the material on the table (public information only)."""
    view = make_view(game, 0, cast(LordObservation, game.observe_typed(state, 0)))
    return material_shares([alive_material(view, seat) for seat in range(game.players)])


POWER_STONE_BONUS = 20.0
"""Material the Power Stone is worth to the seat whose character holds it (the Shadowlord's
Strength twice over: taking it is the way to win)."""


def alive_material(view: Any, seat: int) -> float:
    if view.pub.seat_out[seat]:
        return 0.0
    stone = view.pub.stone
    holds = 0 <= stone < len(view.owner_list) and view.owner(stone) in view.mine_of(seat)
    return float(view.seat_material(seat)) + (POWER_STONE_BONUS if holds else 0.0)
