"""Shadowlord!: the game's text grid redrawn as a Rich table that fits the panel."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from shadowtable.core.game import Game
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.render import COLOUR_CODE, SHORT
from shadowtable.games.shadowlord.view import LordObservation


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


def shadowlord_board(game: Game[Any], obs: object) -> RenderableType:
    """The galaxy grid with rings, ships, discs and control, then the turn, timer and hands, of a
    seat's typed observation (drawn from the game's own text rendering of it)."""
    if not isinstance(obs, LordObservation):
        raise TypeError(f"the Shadowlord! board draws a LordObservation, not {type(obs).__name__}")
    text = game.words.render(obs.to_json())
    rows, rest = split_grid(text)
    if not rows:
        return Text(text)
    grid = Table(box=box.SQUARE, show_header=False, show_lines=True, expand=True, padding=(0, 0))
    for _ in rows[0]:
        grid.add_column(ratio=1, overflow="fold")
    for row in rows:
        grid.add_row(*(Text(cell) for cell in row))
    parts: list[RenderableType] = [grid]
    if isinstance(game, ShadowlordGame):
        parts.append(legend(game))
    parts.append(Text("\n".join(line for line in rest if line.strip())))
    return Group(*parts)


def legend(game: ShadowlordGame) -> Text:
    """What the grid's codes mean: colours, characters, ships and marks, by name."""
    colours = game.words.reference()["colours"]
    named = ", ".join(f"{code} {name}" for code, name in zip(COLOUR_CODE, colours, strict=False))
    kinds = ", ".join(f"{code} {name}" for name, code in SHORT.items())
    return Text(
        f"Legend: {named} (shadows); {kinds} (S1-S8 the eight Shadows; a number after W, T or D: a "
        "character found on a disc, e.g. yW1 is Warrior W1, now yellow); "
        ":n Space Ships on the ring, * holds the Power Stone, +n loose Space Ships, ? a face-down disc",
        style="dim",
    )
