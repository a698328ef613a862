"""Both terminal boards draw exactly what they drew before they read the typed observation.

Each seeded game is played by heuristic bots through :class:`shadowtable.core.table.Table`; at
every third step and at the end the board of every seat and of the spectator is printed to a
fixed-width console and the text is hashed.  The expected hashes are a golden: they were computed from the boards
while they still read the JSON observation by its string keys, so any change in what a board
shows (a word, a number, a style, a column) fails this test.  The Shadowlord! hash was computed
again, by the same board code, when the heuristic bot learnt to besiege the rival Star Masters
(which changed the game the seed plays), and again when two lines were reworded (before the
first turn "setting up, before the first turn" for "turn 1, - to play"; the offer's prompt "add
an item (up to 4), send it, or withdraw it"): with those two lines written as before, the new
boards hash to the earlier golden, so nothing else changed.  The Shadow Planet's hash was computed
again when the printed reference's counts came to be worded for people ("2 steps" for "2
step(s)", "take the top card" for "the top 1 card(s)"): the boards of the earlier and the new
code, compared line by line, differ in those words and the padding after them only; and again
when the hand, the cards played and the known tops of the decks came to be named without card
ids ("Search (Search 1)" for "Search (Search 1) #83"): with the ids written as before, the boards
hash to the digest before.  The hashes
of every third step were computed from the
boards that gave the every-step hashes (same code, same games), to make the test a third as long.
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
    ("shadow-planet", 3, 1): "02f7801c9828f53dd67b39f1986cc1698ab8540f9dc10f74cb07b3ec964da11b",
    ("shadowlord", 2, 4): "86fe617587c7934000296c743691e05f34e086f9bc92593929cca7afb3f18675",
}


def board_text(table: Table, seat: int | None) -> str:
    """The board ``seat`` sees now, 120 columns wide, as text with its styles (ANSI codes)."""
    console = Console(width=120, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(board(table.game, table.view(seat).observation))
    return console.export_text(styles=True)


STRIDE = 3
"""Boards are hashed at every ``STRIDE``-th step and at the end."""


def boards_digest(game_id: str, players: int, seed: int, stride: int = STRIDE) -> tuple[str, int]:
    """The hash of every audience's board at every ``stride``-th step of a seeded bot game and at
    its end, and the steps."""
    game = make(game_id, players=players)
    table = Table(game, [make_bot("heuristic") for _ in range(players)], seed=seed)
    digest = hashlib.sha256()
    steps = 0
    while True:
        if steps % stride == 0 or table.is_over():
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
