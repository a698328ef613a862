"""``shadowtable games``: the registered games with their player counts and options."""

from __future__ import annotations

import typer

from shadowtable.core.registry import available_games, game_class


def games() -> None:
    """List the available games with their player counts and options."""
    for game_id in available_games():
        spec = game_class(game_id).SPEC
        typer.echo(f"{spec.id:<16} {spec.name} v{spec.version}, {spec.min_players}-{spec.max_players} players")
        for opt in spec.options:
            people = "" if opt.people_default is None else f"; {opt.people_default!r} in play and on tables"
            typer.echo(f"    --option {opt.name}=<{opt.type.__name__}> (default {opt.default!r}{people}): {opt.doc}")
