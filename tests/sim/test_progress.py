"""Progress of batches and tournaments: shown as soon as play starts, advanced per finished game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from shadowtable.cli import main
from shadowtable.sim.progress import BatchProgress, batch_progress

TOURNAMENT = ["tournament", "tiny-showdown", "--players", "3", "--bots", "ismcts:iterations=5,random", "--games", "4"]


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=terminal, width=150, color_system=None), buffer


def test_on_a_terminal_the_bar_shows_the_total_and_elapsed_time_at_once() -> None:
    console, buffer = _console(terminal=True)
    with batch_progress(40, console=console) as bar:
        bar.start()
        shown = buffer.getvalue()
        assert "0/40" in shown and "0:00:00" in shown and "elapsed" in shown
        bar.advance(3)
        assert bar.done == 3


def test_without_a_terminal_plain_lines_start_at_once_then_at_most_every_interval() -> None:
    console, buffer = _console(terminal=False)
    now = [100.0]
    bar = BatchProgress(10, console, interval=30.0, clock=lambda: now[0])
    bar.start()
    assert buffer.getvalue() == "games 0/10 (0%), 0:00:00 elapsed\n"
    now[0] += 10
    bar.advance(1)  # 10 s after the last line: not yet
    now[0] += 50
    bar.advance(1)  # 60 s in, 2 games done: 4 minutes left for the other 8
    now[0] += 1
    bar.update(10)  # the last game always gets its line
    assert buffer.getvalue().splitlines() == [
        "games 0/10 (0%), 0:00:00 elapsed",
        "games 2/10 (20%), 0:01:00 elapsed, about 0:04:00 left",
        "games 10/10 (100%), 0:01:01 elapsed",
    ]


def test_games_resumed_from_a_file_do_not_count_towards_the_speed() -> None:
    console, buffer = _console(terminal=False)
    now = [0.0]
    bar = BatchProgress(10, console, interval=0.0, clock=lambda: now[0])
    bar.start(8)
    now[0] += 30
    bar.advance(1)
    assert buffer.getvalue().splitlines()[-1] == "games 9/10 (90%), 0:00:30 elapsed, about 0:00:30 left"


def test_nothing_is_shown_before_play_starts_or_when_disabled() -> None:
    for terminal in (True, False):
        console, buffer = _console(terminal)
        with pytest.raises(ValueError), batch_progress(5, console=console):
            raise ValueError("a bad argument, found before any game")
        assert buffer.getvalue() == ""
        with batch_progress(5, console=console, enabled=False) as bar:
            bar.start()
            bar.advance(5)
        assert buffer.getvalue() == ""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_tournament_shows_progress_at_once_and_advances_per_game(
    workers: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[int] = []
    real_update = BatchProgress.update

    def update(self: BatchProgress, done: int) -> None:
        seen.append(done)
        real_update(self, done)

    monkeypatch.setattr(BatchProgress, "update", update)
    assert main([*TOURNAMENT, "--workers", workers, "--records", str(tmp_path / "t.jsonl")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "games 0/4 (0%), 0:00:00 elapsed", "the total shows before the first game ends"
    assert err[-1].startswith("games 4/4 (100%), ")
    assert seen == [1, 2, 3, 4]


def test_tournament_resumed_starts_from_the_games_on_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = str(tmp_path / "t.jsonl")
    assert main([*TOURNAMENT, "--games", "2", "--records", records]) == 0
    capsys.readouterr()
    assert main([*TOURNAMENT, "--records", records, "--resume"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "games 2/4 (50%), 0:00:00 elapsed" and err[-1].startswith("games 4/4 (100%), ")


def test_no_progress_keeps_stderr_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TOURNAMENT, "--no-progress", "--workers", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_simulate_shows_progress_at_once_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "tiny-showdown", "--players", "3", "--games", "6", "--workers", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "games 0/6 (0%), 0:00:00 elapsed" and err[-1].startswith("games 6/6 (100%), ")
