"""``shadowtable analyse``: judge every decision of a finished game from what each seat knew."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.analysis import AnalysisSettings, analyse_record, analysis_html
from shadowtable.analysis.decisions import check_settings
from shadowtable.analysis.model import MIN_LABEL_SAMPLES, GameAnalysis, SeatSummary
from shadowtable.cli.checks import check_output
from shadowtable.cli.errors import CliError
from shadowtable.core.record import GameRecord, game_for_record
from shadowtable.core.records_io import iter_records


@dataclass(frozen=True)
class AnalyseSettings:
    """One ``analyse`` run: which record, how it is analysed, where the two files go."""

    file: Path
    analysis: AnalysisSettings
    out: Path | None = None
    number: int = 1
    force: bool = False


def analyse(
    record: Annotated[Path, typer.Argument(help="a record file (from simulate --out, play, or the server)")],
    seat: Annotated[int | None, typer.Option(help="analyse this seat's decisions only (default: every seat)")] = None,
    budget: Annotated[float | None, typer.Option(help="seconds; no rollout starts after (not reproducible)")] = None,
    rollouts: Annotated[int, typer.Option(help="sampled states per choice at each decision", min=1)] = 16,
    seed: Annotated[int, typer.Option(help="seed of every random stream of the analysis", min=0)] = 0,
    policy: Annotated[str, typer.Option(help="the bot every seat plays in rollouts")] = "heuristic",
    most_choices: Annotated[
        int | None,
        typer.Option(help="choices compared at a decision, at most: the one made, the policy's, others at random"),
    ] = None,
    horizon: Annotated[
        int | None, typer.Option(help="cut rollouts off after this many steps, scored by the game's evaluation")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="write OUT.json and OUT.html (default: RECORD-analysis)")] = None,
    number: Annotated[int, typer.Option("--record", help="which record of the file (1: the first)", min=1)] = 1,
    force: Annotated[bool, typer.Option(help="replace existing output files")] = False,
) -> None:
    """Judge each decision of a game from what the deciding seat knew; write JSON and HTML."""
    settings = AnalysisSettings(
        seat=seat,
        rollouts=rollouts,
        budget=budget,
        seed=seed,
        policy=policy,
        most_choices=most_choices,
        horizon=horizon,
    )
    run_analysis(AnalyseSettings(record, settings, out, number, force))


def output_paths(settings: AnalyseSettings) -> tuple[Path, Path]:
    """The JSON and HTML files an ``analyse`` run writes."""
    base = settings.out or settings.file.with_name(f"{settings.file.stem}-analysis")
    return Path(f"{base}.json"), Path(f"{base}.html")


def chosen_record(file: Path, number: int) -> GameRecord:
    """Record ``number`` (from 1) of ``file``; :class:`CliError` when the file has fewer."""
    for index, record in enumerate(iter_records(file), start=1):
        if index == number:
            return record
    raise CliError(f"{file} has no record {number}")


def seat_line(analysis: GameAnalysis, summary: SeatSummary) -> str:
    """One seat's figures: its decisions, how many could be judged, its accuracy (``—`` where
    fewer than half were judged) and its marks."""
    decisions = summary.decisions + summary.unanalysed
    return (
        f"seat {summary.seat} ({summary.name}): {decisions} decisions, {analysis.judged(summary.seat)} judged, "
        f"accuracy {analysis.accuracy_words(summary)}, "
        f"{summary.inaccuracies} inaccuracies, {summary.mistakes} mistakes, {summary.blunders} blunders"
    )


def run_analysis(settings: AnalyseSettings) -> None:
    """Check the outputs, record and settings first, then analyse and write both files."""
    json_path, html_path = output_paths(settings)
    check_output(json_path, "--out", force=settings.force)
    check_output(html_path, "--out", force=settings.force)
    record = chosen_record(settings.file, settings.number)
    check_settings(settings.analysis, game_for_record(record))
    analysis = analyse_record(record, settings.analysis)
    mode = "w" if settings.force else "x"
    with open(json_path, mode, encoding="utf-8") as stream:
        json.dump(analysis.to_json(), stream, indent=1)
    with open(html_path, mode, encoding="utf-8") as stream:
        stream.write(analysis_html(analysis, title=f"Analysis of {settings.file.name}"))
    for summary in analysis.seats:
        typer.echo(seat_line(analysis, summary))
    if not analysis.complete:
        cut = sum(d.cut_short for d in analysis.decisions)
        typer.echo(
            f"the budget ran out: {analysis.unanalysed} decisions not analysed, {cut} analysed on fewer samples "
            f"than --rollouts; a decision is judged (and can be marked) on {MIN_LABEL_SAMPLES} or more: "
            "a larger --budget judges more"
        )
    typer.echo(f"analysis written to {json_path} and {html_path}")
