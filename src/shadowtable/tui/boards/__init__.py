"""Rich boards for the terminal app: a game's own drawing, or its text rendering."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from shadowtable.core.game import Game, Observation


def board(game: Game[Any], observation: Observation) -> RenderableType:
    """The board as ``observation``'s seat sees it."""
    if game.spec.id == "shadow-planet":
        from shadowtable.tui.boards.shadow_planet import shadow_planet_board

        return shadow_planet_board(game, observation)
    if game.spec.id == "shadowlord":
        from shadowtable.tui.boards.shadowlord import shadowlord_board

        return shadowlord_board(game, observation)
    return Text(game.render(observation))
