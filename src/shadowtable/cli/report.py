"""``shadowtable report``: a self-contained HTML balance report from game records."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_output
from shadowtable.cli.params import ForceOut
from shadowtable.core.records_io import iter_records


@dataclass(frozen=True)
class ReportSettings:
    """Which record files go into which report."""

    files: tuple[Path, ...]
    out: Path = Path("report.html")
    title: str = "ShadowTable balance report"
    force: bool = False


def report(
    files: Annotated[list[Path], typer.Argument(help="record files (JSON lines) to include")],
    out: Annotated[Path, typer.Option(help="the HTML report to write")] = Path("report.html"),
    title: Annotated[str, typer.Option(help="the report's title")] = "ShadowTable balance report",
    force: ForceOut = False,
) -> None:
    """Build a self-contained HTML balance report (plots embedded) from game records."""
    write_report_command(ReportSettings(tuple(files), out, title, force))


def write_report_command(settings: ReportSettings) -> None:
    """Check the output and matplotlib, then write the report (:func:`~shadowtable.sim.report.write_report`)."""
    from shadowtable.sim.report import require_matplotlib, write_report

    check_output(settings.out, "--out", force=settings.force)
    require_matplotlib()
    records = [record for file in settings.files for record in iter_records(file)]
    write_report(records, settings.out, title=settings.title)
    typer.echo(f"report of {len(records)} games written to {settings.out}")
