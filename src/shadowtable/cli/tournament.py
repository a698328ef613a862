"""``shadowtable tournament``: bots with seats rotated fairly, win rates with intervals, ratings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from shadowtable.cli.checks import check_output, same_path
from shadowtable.cli.errors import CliError
from shadowtable.cli.options import game_options
from shadowtable.cli.params import GameId, GameOptions, Players, Workers
from shadowtable.sim.parallel import default_workers
from shadowtable.sim.progress import batch_progress


@dataclass(frozen=True)
class TournamentSettings:
    """One tournament: who plays what, and where its result and records go."""

    game: str
    players: int
    bots: tuple[str, ...]
    games: int = 100
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    out: Path | None = None
    records: Path | None = None
    workers: int = 1
    resume: bool = False
    force: bool = False
    progress: bool = True


def tournament(
    game: GameId,
    players: Players,
    bots: Annotated[
        str,
        typer.Option(help="bot specs, comma-separated; SPEC*K gives a bot K places, e.g. ismcts,heuristic*3"),
    ],
    games: Annotated[int, typer.Option("--games", help="number of games (with --resume: in all)", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="write the result as JSON here")] = None,
    records: Annotated[
        Path | None, typer.Option(help="write every game record as JSON lines here, flushed after each game")
    ] = None,
    option: GameOptions = None,
    workers: Workers = 1,
    resume: Annotated[
        bool,
        typer.Option(help="count the games already in --records, play the rest up to --games (and rewrite --out)"),
    ] = False,
    force: Annotated[bool, typer.Option(help="replace an existing --out or --records file")] = False,
    progress: Annotated[bool, typer.Option(help="show the games done, time elapsed and time left")] = True,
) -> None:
    """Seats rotated fairly; win rates by bot, seat and role with 95% intervals; openskill ratings.

    A bot may be named by its ladder level (``level0``..``level2``, ``random``, ``heuristic``,
    ``ismcts``, ``policy``): it then plays the level's spec for this game, as the lobby's does."""
    from shadowtable.bots.ladder import resolve_entry

    specs = tuple(resolve_entry(b.strip(), game) for b in bots.split(",") if b.strip())
    settings = TournamentSettings(
        game, players, specs, games, seed, game_options(option), out, records, workers, resume, force, progress
    )
    run_tournament_command(settings)


def check_tournament_outputs(settings: TournamentSettings) -> None:
    """Refuse, before any game, outputs that clash, exist without --force, or cannot be written."""
    if settings.resume and settings.records is None:
        raise CliError("--resume needs --records, the records file of the run to resume")
    if settings.out is not None and settings.records is not None and same_path(settings.out, settings.records):
        raise CliError("--out and --records must be different files")
    check_output(settings.records, "--records", force=settings.force, resume=settings.resume)
    check_output(settings.out, "--out", force=settings.force, resume=settings.resume)


def run_tournament_command(settings: TournamentSettings) -> None:
    """Check the outputs, play the tournament (:func:`~shadowtable.sim.tournament.run_tournament`), print it."""
    from shadowtable.sim.tournament import format_table, run_tournament

    check_tournament_outputs(settings)
    with batch_progress(settings.games, enabled=settings.progress) as bar:
        result = run_tournament(
            settings.game,
            settings.players,
            list(settings.bots),
            settings.games,
            settings.seed,
            settings.options,
            lambda done, total: bar.update(done),
            records_path=settings.records,
            workers=settings.workers or default_workers(),
            resume=settings.resume,
            on_start=lambda done, total: bar.start(done),
        )
    typer.echo(format_table(result))
    if settings.out is not None:
        settings.out.write_text(result.dumps() + "\n", encoding="utf-8")
        typer.echo(f"result written to {settings.out}")
