"""A Rich progress bar for batches: games done, games per second, time left."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)


@contextmanager
def batch_progress(total: int, *, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; draws a bar on stderr when ``enabled`` and stderr is a terminal."""
    if not enabled:
        yield lambda n: None
        return
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
    )
    console = Console(stderr=True)
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("games", total=total, rate="-")

        def advance(n: int) -> None:
            bar.advance(task, n)
            speed = bar.tasks[task].speed
            bar.update(task, rate=f"{speed:.1f}" if speed else "-")

        yield advance
