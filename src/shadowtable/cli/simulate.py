"""``shadowtable simulate``: seeded games between bots, a summary, and optionally every record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_bots, check_output, import_plugins, shown
from shadowtable.cli.errors import CliError
from shadowtable.cli.options import game_options
from shadowtable.cli.params import ForceOut, GameId, GameOptions, Players, Plugins, Workers
from shadowtable.core.registry import make
from shadowtable.sim.parallel import BACKENDS, BatchJob, default_workers, run_batch
from shadowtable.sim.progress import batch_progress
from shadowtable.sim.summary import format_summary, summarize


@dataclass(frozen=True)
class SimulateSettings:
    """One ``simulate`` run: the batch, where its records go, and how it is run."""

    job: BatchJob
    out: Path | None = None
    resume: bool = False
    force: bool = False
    workers: int = 0
    backend: str = "local"
    address: str | None = None
    progress: bool = True


def simulate(
    game: GameId,
    players: Players,
    games: Annotated[int, typer.Option("--games", help="number of games", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="master seed; every game's seed derives from it")] = 0,
    bots: Annotated[
        str,
        typer.Option(help="one bot for every seat, or one per seat, comma-separated; a ladder level plays its spec"),
    ] = "random",
    out: Annotated[Path | None, typer.Option(help="stream every game record as JSON lines here")] = None,
    option: GameOptions = None,
    workers: Workers = 0,
    resume: Annotated[bool, typer.Option(help="keep the games already in --out and play the rest")] = False,
    force: ForceOut = False,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (with --backend ray)")] = None,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    plugin: Plugins = None,
) -> None:
    """Play seeded games between bots and print win rate by seat and game length.

    A bot may be named by its ladder level (``level0``..``level2``, ``random``, ``heuristic``,
    ``ismcts``, ``policy``): it then plays the level's spec for this game, as in ``tournament``."""
    from shadowtable.bots.ladder import resolve_line_up

    specs = resolve_line_up(bots, game)
    job = BatchJob(game, players, specs, games, seed, game_options(option), tuple(plugin or []))
    run_simulation(SimulateSettings(job, out, resume, force, workers, backend, address, progress))


def check_simulation(settings: SimulateSettings) -> None:
    """Refuse, before any game is played, a bad output, backend, plugin, game, option or bot."""
    if settings.resume and settings.out is None:
        raise CliError("--resume needs --out")
    check_output(settings.out, "--out", force=settings.force, resume=settings.resume)
    if settings.backend not in BACKENDS:
        raise CliError(f"--backend {shown(settings.backend)}: use {' or '.join(BACKENDS)}")
    if settings.backend == "ray":
        from shadowtable.sim.ray_backend import require_ray

        require_ray()
    job = settings.job
    import_plugins(job.plugins)
    make(job.game, players=job.players, **job.options)  # fail fast on a bad game, count or option
    check_bots(job.bot_specs, job.players)


def run_simulation(settings: SimulateSettings) -> None:
    """Check the settings, play the batch (:func:`~shadowtable.sim.parallel.run_batch`), print its summary."""
    check_simulation(settings)
    with batch_progress(settings.job.games, enabled=settings.progress) as bar:
        records = run_batch(
            settings.job,
            out=settings.out,
            resume=settings.resume,
            workers=settings.workers or default_workers(),
            backend=settings.backend,
            address=settings.address,
            progress=bar.advance,
            on_start=bar.start,
        )
    typer.echo(format_summary(summarize(records)))
    if settings.out:
        typer.echo(f"{len(records)} records in {settings.out}")
