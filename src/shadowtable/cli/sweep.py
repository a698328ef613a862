"""``shadowtable sweep``: the same batch over a grid of game options."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from shadowtable.cli.checks import check_bots, check_output
from shadowtable.cli.params import ForceOut, Players, Workers
from shadowtable.core.registry import make
from shadowtable.sim.parallel import default_workers


@dataclass(frozen=True)
class SweepSettings:
    """One sweep: the grid (option name to its values) and the batch played at every point."""

    game: str
    players: int
    grid: dict[str, list[Any]]
    games: int = 200
    seed: int = 0
    bots: tuple[str, ...] = ("random",)
    workers: int = 0
    out: Path | None = None
    force: bool = False


def sweep(
    game: Annotated[str, typer.Argument(help="game id")],
    players: Players,
    set_: Annotated[list[str], typer.Option("--set", help="option=value1,value2,... (repeatable: a grid)")],
    games: Annotated[int, typer.Option("--games", help="games per grid point", min=1)] = 200,
    seed: Annotated[int, typer.Option(help="master seed, shared by every grid point")] = 0,
    bots: Annotated[str, typer.Option(help="bot specs, comma-separated; a ladder level plays its spec")] = "random",
    workers: Workers = 0,
    out: Annotated[Path | None, typer.Option(help="write the sweep as JSON here")] = None,
    force: ForceOut = False,
) -> None:
    """Run a grid over game options and report how each point changes the balance."""
    from shadowtable.bots.ladder import resolve_line_up
    from shadowtable.sim.sweep import parse_grid

    specs = resolve_line_up(bots, game)
    settings = SweepSettings(game, players, parse_grid(set_), games, seed, specs, workers, out, force)
    run_sweep_command(settings)


def check_sweep(settings: SweepSettings) -> None:
    """Refuse, before any game, a bad output, game, player count, grid point or bot."""
    from shadowtable.sim.sweep import grid_points, point_options

    check_output(settings.out, "--out", force=settings.force)
    with tempfile.TemporaryDirectory(prefix="shadowtable-sweep-check-") as folder:
        for point in grid_points(settings.grid):
            make(settings.game, players=settings.players, **point_options(settings.game, point, {}, Path(folder)))
    check_bots(settings.bots, settings.players)


def run_sweep_command(settings: SweepSettings) -> None:
    """Check the settings, run the sweep (:func:`~shadowtable.sim.sweep.run_sweep`), print and save it."""
    from shadowtable.sim.sweep import format_sweep, run_sweep

    check_sweep(settings)
    workers = settings.workers or default_workers()
    points = run_sweep(
        settings.game,
        settings.players,
        list(settings.bots),
        settings.games,
        settings.seed,
        settings.grid,
        workers=workers,
    )
    typer.echo(format_sweep(points))
    if settings.out is not None:
        settings.out.write_text(json.dumps([p.to_json() for p in points], indent=2) + "\n", encoding="utf-8")
