"""Shadowlord!: the game's text grid redrawn as a Rich table that fits the panel."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from shadowtable.core.game import Game, Observation


def split_grid(text: str) -> tuple[list[list[str]], list[str]]:
    """The ``+---+`` / ``|`` grid of a text rendering as rows of cell texts, and the other lines."""
    rows: list[list[str]] = []
    current: list[list[str]] | None = None
    rest: list[str] = []
    for line in text.splitlines():
        if line.startswith("+"):
            if current is not None:
                rows.append(["\n".join(part for part in cell if part).strip() for cell in current])
            current = []
        elif line.startswith("|") and current is not None:
            cells = line.strip().strip("|").split("|")
            if not current:
                current.extend([] for _ in cells)
            for column, cell in enumerate(cells[: len(current)]):
                current[column].append(cell.strip())
        else:
            rest.append(line)
    return rows, rest


def shadowlord_board(game: Game[Any], obs: Observation) -> RenderableType:
    """The galaxy grid with rings, ships, discs and control, then the turn, timer and hands."""
    rows, rest = split_grid(game.render(obs))
    if not rows:
        return Text(game.render(obs))
    grid = Table(box=box.SQUARE, show_header=False, show_lines=True, expand=True, padding=(0, 0))
    for _ in rows[0]:
        grid.add_column(ratio=1, overflow="fold")
    for row in rows:
        grid.add_row(*(Text(cell) for cell in row))
    return Group(grid, Text("\n".join(line for line in rest if line.strip())))
