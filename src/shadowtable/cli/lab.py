"""``shadowtable lab``: the designer's lab, variants and restricted play over seeded games."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_output, read_json_file, shown
from shadowtable.cli.errors import CliError
from shadowtable.cli.params import ForceOut, Workers
from shadowtable.lab.spec import LabSpecError
from shadowtable.sim.parallel import BACKENDS

lab_app = typer.Typer(
    help="The designer's lab: game variants, bots and restricted play over seeded games.", no_args_is_help=True
)

EXPORT_FORMATS = ("csv", "parquet")


@dataclass(frozen=True)
class LabRunSettings:
    """One ``lab run``: the spec file, the run folder and how the games are played."""

    spec: Path
    out: Path
    resume: bool = False
    force: bool = False
    workers: int = 0
    backend: str = "local"
    address: str | None = None
    progress: bool = True


@lab_app.command("run")
def lab_run(
    spec: Annotated[Path, typer.Argument(help="the lab spec (JSON; see `shadowtable lab spec`)")],
    out: Annotated[Path, typer.Option(help="the run folder: spec.json, rows.jsonl, figures.json")],
    resume: Annotated[bool, typer.Option(help="keep the games already in --out and play the rest")] = False,
    force: Annotated[bool, typer.Option(help="replace a run already in --out")] = False,
    workers: Workers = 0,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (with --backend ray)")] = None,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
) -> None:
    """Play every arm of a lab spec and print its figures (written to OUT/figures.json)."""
    run_lab_command(LabRunSettings(spec, out, resume, force, workers, backend, address, progress))


def check_run_folder(out: Path, *, resume: bool, force: bool) -> None:
    """Refuse a folder that cannot hold the run, or one holding a run without ``--resume``/``--force``."""
    from shadowtable.lab.store import ROWS_FILE, SPEC_FILE

    if resume and force:
        raise CliError("--resume and --force exclude each other")
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is a file; name a folder")
    if not out.exists():
        check_output(out, "--out", force=False)
        return
    holds_run = (out / SPEC_FILE).exists() or (out / ROWS_FILE).exists()
    if holds_run and not (resume or force):
        raise CliError(f"--out {out} already holds a run; pass --resume to continue it or --force to replace it")


def run_lab_command(settings: LabRunSettings) -> None:
    """Check everything before any game, play the run (:func:`~shadowtable.lab.store.run_lab`), print its figures."""
    from shadowtable.lab.run import arms
    from shadowtable.lab.spec import check_spec
    from shadowtable.lab.store import run_lab
    from shadowtable.lab.text import format_figures
    from shadowtable.sim.parallel import default_workers
    from shadowtable.sim.progress import batch_progress

    data = read_json_file(settings.spec)
    try:
        spec = check_spec(data)
    except LabSpecError as exc:
        raise CliError(f"{settings.spec}: {exc}") from exc
    check_run_folder(settings.out, resume=settings.resume, force=settings.force)
    if settings.backend not in BACKENDS:
        raise CliError(f"--backend {shown(settings.backend)}: use {' or '.join(BACKENDS)}")
    if settings.backend == "ray":
        from shadowtable.sim.ray_backend import require_ray

        require_ray()
    with batch_progress(len(arms(spec)) * spec.games, enabled=settings.progress) as bar:
        figures = run_lab(
            spec,
            settings.out,
            resume=settings.resume,
            workers=settings.workers or default_workers(),
            backend=settings.backend,
            address=settings.address,
            progress=bar.advance,
            on_start=bar.start,
        )
    typer.echo(format_figures(figures))
    typer.echo(f"figures in {settings.out / 'figures.json'}")


def run_figures(folder: Path) -> dict[str, object]:
    """A run folder's figures: its ``figures.json``, or worked out from its rows when it has none yet."""
    from shadowtable.lab.figures import lab_figures
    from shadowtable.lab.store import FIGURES_FILE, load_run, rows_by_arm

    if not folder.is_dir():
        raise CliError(f"{folder} is not a lab run folder")
    path = folder / FIGURES_FILE
    if path.is_file():
        data = read_json_file(path)
        if isinstance(data, dict):
            return data
        raise CliError(f"{path}: not a figures file")
    spec, rows = load_run(folder)
    return lab_figures(spec, rows_by_arm(rows))


@lab_app.command("show")
def lab_show(
    folder: Annotated[Path, typer.Argument(help="a lab run folder")],
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Print a run's figures (those of the games played so far if it is unfinished)."""
    from shadowtable.lab.text import format_figures

    figures = run_figures(folder)
    typer.echo(json.dumps(figures, indent=2) if as_json else format_figures(figures))


@dataclass(frozen=True)
class LabExportSettings:
    """One ``lab export``: the run folder, the table format and the file."""

    folder: Path
    format: str
    out: Path
    force: bool = False


@lab_app.command("export")
def lab_export(
    folder: Annotated[Path, typer.Argument(help="a lab run folder")],
    out: Annotated[Path, typer.Option(help="the table file to write")],
    format: Annotated[str, typer.Option("--format", help="csv or parquet")] = "csv",
    force: ForceOut = False,
) -> None:
    """Write a run's games as a table: one row per game and seat (arm, seed, bot, role, result, length)."""
    export_lab(LabExportSettings(folder, format, out, force))


def export_lab(settings: LabExportSettings) -> None:
    """Check the format and the output, then write the table."""
    from shadowtable.lab.export import rows_csv, rows_parquet
    from shadowtable.lab.run import arms
    from shadowtable.lab.store import load_run
    from shadowtable.sim.export import require_pyarrow

    if settings.format not in EXPORT_FORMATS:
        raise CliError(f"--format {shown(settings.format)}: use {' or '.join(EXPORT_FORMATS)}")
    if not settings.folder.is_dir():
        raise CliError(f"{settings.folder} is not a lab run folder")
    check_output(settings.out, "--out", force=settings.force)
    if settings.format == "parquet":
        require_pyarrow()
    spec, rows = load_run(settings.folder)
    labels = {arm.number: arm.label for arm in arms(spec)}
    ordered = sorted(rows, key=lambda row: (int(row["arm"]), int(row["index"])))
    writer = rows_parquet if settings.format == "parquet" else rows_csv
    count = writer(ordered, settings.out, labels)
    typer.echo(f"{count} rows ({len(ordered)} games) written to {settings.out}")


@lab_app.command("spec")
def lab_spec(
    game: Annotated[str, typer.Argument(help="game id, see `shadowtable games`")],
    players: Annotated[int, typer.Argument(help="number of players")],
) -> None:
    """Print a template lab spec: a baseline with default options, level-1 bots, 100 games, no probes."""
    typer.echo(json.dumps(template_spec(game, players), indent=2))


def template_spec(game: str, players: int) -> dict[str, object]:
    """A checked template: the baseline with the game's default options, heuristic bots, no probes."""
    from shadowtable.lab.spec import check_spec

    data: dict[str, object] = {
        "game": game,
        "players": players,
        "variants": [{"name": "baseline", "options": {}, "content": None}],
        "bots": ["level1"],
        "games": 100,
        "seed": 0,
        "probes": [],
    }
    try:
        check_spec(data)
    except LabSpecError as exc:
        raise CliError(str(exc)) from exc
    return data


@lab_app.command("kinds")
def lab_kinds(
    game: Annotated[str, typer.Argument(help="game id, see `shadowtable games`")],
    players: Annotated[int, typer.Argument(help="number of players")],
) -> None:
    """List the roles and the kinds of action a probe may name (restricted play)."""
    from shadowtable.lab.kinds import action_kinds
    from shadowtable.lab.spec import probe_roles

    template_spec(game, players)  # checks the game and the player count
    typer.echo("roles: " + ", ".join(probe_roles(game, players)))
    typer.echo("kinds:")
    for kind in action_kinds(game):
        typer.echo(f"  {kind}")
