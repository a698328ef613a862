"""Both terminal boards draw exactly what they drew before they read the typed observation.

Each seeded game is played by heuristic bots through :class:`shadowtable.core.table.Table`; at
every step the board of every seat and of the spectator is printed to a fixed-width console
and the text is hashed.  The expected hashes are a golden: they were computed from the boards
while they still read the JSON observation by its string keys, so any change in what a board
shows (a word, a number, a style, a column) fails this test.  The Shadowlord! hash was computed
again, by the same board code, when the heuristic bot learnt to besiege the rival Star Masters
(which changed the game the seed plays).
"""

from __future__ import annotations

import hashlib
import io

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

from shadowtable import make  # noqa: E402
from shadowtable.bots import make_bot  # noqa: E402
from shadowtable.core.table import Table  # noqa: E402
from shadowtable.tui.boards import board  # noqa: E402

GOLDEN = {
    ("shadow-planet", 3, 1): "e82e5174fbb3f1dd60aa2964071b86132737297cd9df3b53c97d54fb8f9977b9",
    ("shadowlord", 2, 4): "6d2c82767023cde12d34f5f464910f1d63e582b6d4ce0f77a728d8f638d75438",
}


def board_text(table: Table, seat: int | None) -> str:
    """The board ``seat`` sees now, 120 columns wide, as text with its styles (ANSI codes)."""
    console = Console(width=120, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(board(table.game, table.view(seat).observation))
    return console.export_text(styles=True)


def boards_digest(game_id: str, players: int, seed: int) -> tuple[str, int]:
    """The hash of every audience's board at every step of a seeded bot game, and the steps."""
    game = make(game_id, players=players)
    table = Table(game, [make_bot("heuristic") for _ in range(players)], seed=seed)
    digest = hashlib.sha256()
    steps = 0
    while True:
        for seat in [*range(players), None]:
            digest.update(board_text(table, seat).encode())
        if table.is_over():
            return digest.hexdigest(), steps
        table.step()
        steps += 1


@pytest.mark.parametrize(("game_id", "players", "seed"), sorted(GOLDEN))
def test_every_board_at_every_step_is_drawn_as_before(game_id: str, players: int, seed: int) -> None:
    digest, steps = boards_digest(game_id, players, seed)
    assert steps > 50
    assert digest == GOLDEN[game_id, players, seed]
