"""The Shadowlord! board names what its codes mean, so a newcomer can read the grid."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

from shadowtable import make  # noqa: E402
from shadowtable.tui.boards import board  # noqa: E402


def _screen_text(game_id: str, players: int) -> str:
    game = make(game_id, players=players)
    console = Console(width=200, record=True)
    console.print(board(game, game.observe(game.initial_state(), 0)))
    return console.export_text()


def test_the_shadowlord_board_has_a_legend_of_colours_characters_and_marks() -> None:
    text = " ".join(_screen_text("shadowlord", 2).split())
    for words in ("r red", "k black", "M Master", "T Merchant", "SL Shadowlord", "Power Stone", "loose Space Ships"):
        assert words in text, words
    assert "rM:0" in text  # the codes it explains are on the grid
