"""``shadowtable replay``: replay every record of a file and check it reproduces its result."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_seat, replayed
from shadowtable.core.records_io import iter_records
from shadowtable.core.wording import counted


@dataclass(frozen=True)
class ReplaySettings:
    """Which records to replay, and whether (and from which seat) to show each final position."""

    file: Path
    seat: int | None = None
    show: bool = False


def replay(
    file: Annotated[Path, typer.Argument(help="a record file: JSON lines or one JSON record")],
    seat: Annotated[int | None, typer.Option(help="show the final position from this seat's view")] = None,
    show: Annotated[bool, typer.Option(help="print the final position")] = False,
) -> None:
    """Replay every record of FILE, check it reproduces its result, and report it."""
    replay_records(ReplaySettings(file, seat, show))


def replay_records(settings: ReplaySettings) -> None:
    """Check every record's seat first, then replay each (:func:`~shadowtable.cli.checks.replayed`) and report it."""
    file, seat = settings.file, settings.seat
    records = list(iter_records(file))
    for number, record in enumerate(records, start=1):
        check_seat(seat, record.players, where=f"record {number}: " if len(records) > 1 else "")
    for number, record in enumerate(records, start=1):
        game, state = replayed(record, f"{file}: record {number}")
        status = f"returns {game.returns(state)}" if game.is_terminal(state) else "unfinished"
        typer.echo(
            f"record {number}: {record.game} v{record.version}, {record.players} players, "
            f"{len(record.actions)} actions, {status}"
        )
        if settings.show or seat is not None:
            typer.echo(game.words.render(game.observe(state, seat)))
    typer.echo(f"{counted(len(records), 'record')} replayed identically")
