"""Argument and option types shared by several commands."""

from __future__ import annotations

from typing import Annotated

import typer

GameId = Annotated[str, typer.Argument(help="game id, see `shadowtable games`")]
Players = Annotated[int, typer.Option(help="number of players")]
GameOptions = Annotated[list[str] | None, typer.Option(help="game option key=value (repeatable)")]
Plugins = Annotated[list[str] | None, typer.Option(help="module to import first, e.g. one registering a game")]
Workers = Annotated[int, typer.Option(help="worker processes (0: all cores)", min=0)]
ForceOut = Annotated[bool, typer.Option(help="replace an existing --out file")]
