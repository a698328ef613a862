"""``shadowtable view``: step through a recorded game in the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from shadowtable.cli.checks import check_seat, replayed
from shadowtable.cli.errors import CliError
from shadowtable.core.records_io import iter_records
from shadowtable.core.wording import counted


@dataclass(frozen=True)
class ViewSettings:
    """Which record of which file, seen from which seat (``None``: a spectator)."""

    file: Path
    seat: int | None = None
    index: int = 0


def view(
    file: Annotated[Path, typer.Argument(help="a record file (the first record is shown unless --index)")],
    seat: Annotated[int | None, typer.Option(help="whose view (default: spectator)")] = None,
    index: Annotated[int, typer.Option(help="which record of the file, from 0")] = 0,
) -> None:
    """Step through a recorded game in the terminal from one seat's view or a spectator's."""
    view_record(ViewSettings(file, seat, index))


def view_record(settings: ViewSettings) -> None:
    """Check the record replays, then run the viewer (:class:`~shadowtable.tui.replay_view.ReplayApp`)."""
    try:
        from shadowtable.tui.replay_view import ReplayApp
    except ImportError as exc:
        raise CliError("the replay viewer needs the [tui] extra: pip install 'shadowtable[tui]'") from exc
    file, index = settings.file, settings.index
    records = list(iter_records(file))
    if not 0 <= index < len(records):
        raise CliError(f"{file} has {counted(len(records), 'record')}; --index {index} is out of range")
    record = records[index]
    check_seat(settings.seat, record.players)
    replayed(record, f"{file}: record {index}")  # a record that does not replay is refused before the viewer starts
    ReplayApp(record, settings.seat).run()
