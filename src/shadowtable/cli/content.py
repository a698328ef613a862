"""``shadowtable content check``: validate a game's content (card and board data) file."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from shadowtable.cli.checks import read_json_file
from shadowtable.cli.errors import CliError
from shadowtable.core.registry import game_class

content_app = typer.Typer(help="Validate content (card and board data) files.", no_args_is_help=True)


@dataclass(frozen=True)
class ContentCheckSettings:
    """The content file, and its game when the file does not name it."""

    file: Path
    game: str | None = None


@content_app.command("check")
def content_check(
    file: Annotated[Path, typer.Argument(help="a content JSON file")],
    game: Annotated[str | None, typer.Option(help="game id (default: the file's 'game' field)")] = None,
) -> None:
    """Validate a content file; errors name the file, the card and the field."""
    check_content(ContentCheckSettings(file, game))


def check_content(settings: ContentCheckSettings) -> None:
    """Run the game package's ``check_content_file`` on the file and print what it says."""
    file = settings.file
    data = read_json_file(file)
    game_id = settings.game or content_game(file, data)
    package = importlib.import_module(game_class(game_id).__module__.rsplit(".", 1)[0])
    checker = getattr(package, "check_content_file", None)
    if checker is None:
        raise CliError(f"game {game_id!r} has no content files to check")
    for line in checker(str(file)):
        typer.echo(line)
    typer.echo(f"{file}: OK")


def content_game(file: Path, data: Any) -> str:
    """The game a content file names in its ``game`` or ``format`` field."""
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        return str(data["game"])
    fmt = data.get("format") if isinstance(data, dict) else None
    if isinstance(fmt, str) and "-content/" in fmt:
        return fmt.split("-content/")[0]
    raise CliError(f"{file}: no 'game' or 'format' field naming the game; pass --game")
