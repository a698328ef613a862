"""The games and bot levels this server offers, and each game's printed material."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from shadowtable.core.registry import available_games, game_class, make
from shadowtable.server.bot_levels import LEVELS, plays
from shadowtable.server.routes.models import ERRORS, BotLevelOut, Catalogue, GameOut

router = APIRouter()


def game_out(game_id: str) -> GameOut:
    """What the catalogue says of one game."""
    spec = game_class(game_id).SPEC
    return GameOut(
        id=spec.id,
        name=spec.name,
        min_players=spec.min_players,
        max_players=spec.max_players,
        options={option.name: option.default for option in spec.options},
    )


@router.get("/api/games", response_model=Catalogue)
async def games() -> Catalogue:
    """The games and bots this server offers."""
    levels = [BotLevelOut(name=lv.name, description=lv.description, plays=plays(lv.name)) for lv in LEVELS.values()]
    return Catalogue(
        games=[game_out(game_id) for game_id in available_games()],
        bots=[level.name for level in levels if level.plays],
        levels=levels,
    )


@router.get("/api/games/{game_id}/reference", responses=ERRORS)
async def reference(game_id: Annotated[str, Path(max_length=64)], players: int = Query(ge=1, le=16)) -> Any:
    """The printed material of a game (cards, board, how each role wins): nothing secret."""
    return make(game_id, players=players).words.reference()
