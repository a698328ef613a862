"""Rich boards for the terminal app: the drawing a game's manifest names, or its text rendering."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from shadowtable.core.game import Game, Observation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.views import typed_view


def board(game: Game[Any], observation: Observation) -> RenderableType:
    """The board as ``observation``'s seat sees it: the game's terminal board drawing its typed
    observation (:func:`~shadowtable.core.views.typed_view`), else its text rendering."""
    reference = manifest_of(type(game)).terminal_board
    if reference is None:
        return Text(game.words.render(observation))
    drawn: RenderableType = load(reference)(game, typed_view(game, observation))
    return drawn
