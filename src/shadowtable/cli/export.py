"""``shadowtable export``: records flattened to one row per game and seat, as CSV or Parquet."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_output
from shadowtable.cli.errors import CliError
from shadowtable.cli.params import ForceOut
from shadowtable.core.records_io import iter_records


@dataclass(frozen=True)
class ExportSettings:
    """Which record files are flattened into which table file."""

    files: tuple[Path, ...]
    out: Path
    force: bool = False


def export(
    files: Annotated[list[Path], typer.Argument(help="record files (JSON lines)")],
    out: Annotated[Path, typer.Option(help="output file: .csv or .parquet")],
    force: ForceOut = False,
) -> None:
    """Flatten records to one row per game and seat, as CSV or Parquet (with pyarrow)."""
    export_records(ExportSettings(tuple(files), out, force))


def export_records(settings: ExportSettings) -> None:
    """Check the output, then write the rows (:mod:`shadowtable.sim.export`) and say how many."""
    from shadowtable.sim.export import require_pyarrow, write_csv, write_parquet

    out = settings.out
    if out.suffix not in (".csv", ".parquet"):
        raise CliError(f"--out must end in .csv or .parquet, got {out.name!r}")
    check_output(out, "--out", force=settings.force)
    if out.suffix == ".parquet":
        require_pyarrow()
    records = [record for file in settings.files for record in iter_records(file)]
    count = write_csv(records, out) if out.suffix == ".csv" else write_parquet(records, out)
    typer.echo(f"{count} rows written to {out}")
