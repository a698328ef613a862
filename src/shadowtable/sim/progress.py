"""Progress of batches and tournaments: games done, games per second, time elapsed and left.

On a terminal, a Rich bar; otherwise (a log file, a pipe) a plain line when play starts and then
at most every ``interval`` seconds, so a long run is never silent.  Nothing is shown before
:meth:`BatchProgress.start` (or the first advance): an error found while checking the arguments
stays the only line on stderr.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

PLAIN_INTERVAL_SECONDS = 30.0
"""Without a terminal: at most one progress line this often (plus the first and the last)."""


class BatchProgress:
    """Games done out of ``total``, shown on ``console`` (``None``: nothing is shown)."""

    def __init__(
        self,
        total: int,
        console: Console | None,
        *,
        interval: float = PLAIN_INTERVAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.done = 0
        self.console = console
        self.interval = interval
        self.clock = clock
        self.started = False
        self._first_done = 0
        self._start_time = 0.0
        self._last_line = 0.0
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def start(self, done: int = 0) -> None:
        """Show the progress now, ``done`` games being complete already (say, from a resumed run)."""
        if self.started:
            return
        self.started = True
        self.done = self._first_done = done
        self._start_time = self._last_line = self.clock()
        if self.console is None:
            return
        if self.console.is_terminal:
            self._bar = Progress(*_COLUMNS, console=self.console, transient=True)
            self._task = self._bar.add_task("games", total=self.total, completed=done, rate="-")
            self._bar.start()
        else:
            self._line()

    def advance(self, n: int = 1) -> None:
        """``n`` more games are done (starts the display first if needed)."""
        if not self.started:
            self.start()
        self.done += n
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done)
            speed = self._bar.tasks[self._task].speed
            self._bar.update(self._task, rate=f"{speed:.1f}" if speed else "-")
        elif self.console is not None and n and (self.done >= self.total or self._line_due()):
            self._line()

    __call__ = advance

    def update(self, done: int) -> None:
        """``done`` games are done in all."""
        if not self.started:
            self.start()
        if done > self.done:
            self.advance(done - self.done)

    def close(self) -> None:
        """Take the bar off the screen."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def _line_due(self) -> bool:
        return self.clock() - self._last_line >= self.interval

    def _line(self) -> None:
        assert self.console is not None
        now = self.clock()
        self._last_line = now
        elapsed = now - self._start_time
        percent = f" ({self.done / self.total:.0%})" if self.total else ""
        text = f"games {self.done}/{self.total}{percent}, {_clock(elapsed)} elapsed"
        played = self.done - self._first_done
        if played > 0 and self.done < self.total:
            text += f", about {_clock(elapsed / played * (self.total - self.done))} left"
        self.console.file.write(text + "\n")
        self.console.file.flush()


_COLUMNS = (
    TextColumn("games"),
    BarColumn(),
    MofNCompleteColumn(),
    TaskProgressColumn(),
    TextColumn("{task.fields[rate]} games/s"),
    TimeElapsedColumn(),
    TextColumn("elapsed,"),
    TimeRemainingColumn(),
    TextColumn("left"),
)


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextmanager
def batch_progress(
    total: int,
    *,
    enabled: bool = True,
    console: Console | None = None,
    interval: float = PLAIN_INTERVAL_SECONDS,
) -> Iterator[BatchProgress]:
    """Yield a :class:`BatchProgress` for ``total`` games, shown on ``console`` (default: stderr) when ``enabled``.

    It is also callable as ``advance(n)``.  Call :meth:`BatchProgress.start` when play starts.
    """
    shown_on = (console or Console(stderr=True)) if enabled else None
    progress = BatchProgress(total, shown_on, interval=interval)
    try:
        yield progress
    finally:
        progress.close()
