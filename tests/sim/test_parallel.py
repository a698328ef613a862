"""Parallel batches: identical records to a serial run, and resumable after a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import shadowtable
from shadowtable.core import RecordError
from shadowtable.sim.parallel import BatchJob, completed_indices, read_batch, run_batch

JOB = BatchJob("tiny-showdown", 3, ("random",), 60, 17)

RUNNER = """
import sys, time
sys.path.insert(0, {tests!r})
import conftest
from shadowtable.bots import RandomBot, register_bot
from shadowtable.cli import main

class SleepyBot(RandomBot):
    name = "sleepy"
    def choose(self, game, seat, observation, legal, rng):
        time.sleep(0.002)
        return super().choose(game, seat, observation, legal, rng)

register_bot("sleepy", SleepyBot)
sys.exit(main(sys.argv[1:]))
"""


def test_parallel_and_serial_runs_give_identical_records(tmp_path: Path) -> None:
    serial = run_batch(JOB, out=tmp_path / "serial.jsonl", workers=1)
    parallel = run_batch(JOB, out=tmp_path / "parallel.jsonl", workers=2, chunk_size=7)
    in_memory = run_batch(JOB, workers=2, chunk_size=5)
    assert [r.to_json() for r in serial] == [r.to_json() for r in parallel] == [r.to_json() for r in in_memory]
    assert [r.metadata["index"] for r in serial] == list(range(60))
    assert (tmp_path / "serial.jsonl").read_text() == (tmp_path / "parallel.jsonl").read_text()


def test_resume_skips_finished_games_and_cuts_a_torn_line(tmp_path: Path) -> None:
    full = run_batch(JOB, out=tmp_path / "full.jsonl")
    partial = tmp_path / "partial.jsonl"
    lines = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:23]) + lines[23][:40])
    assert completed_indices(partial, JOB) == set(range(23))
    resumed = run_batch(JOB, out=partial, resume=True, workers=2)
    assert [r.to_json() for r in resumed] == [r.to_json() for r in full]


def test_resume_refuses_a_file_from_another_batch(tmp_path: Path) -> None:
    out = tmp_path / "other.jsonl"
    run_batch(BatchJob("tiny-showdown", 3, ("random",), 5, 99), out=out)
    with pytest.raises(RecordError, match="another batch"):
        run_batch(JOB, out=out, resume=True)


@pytest.mark.parametrize(
    "text",
    ["notes I want to keep\n", "{}\n", "\n".join(["{not json"] * 3) + "\n", '{"game": "caf\udce9"}\n'],
)
def test_resume_refuses_a_file_that_is_not_records_and_leaves_it_unchanged(tmp_path: Path, text: str) -> None:
    out = tmp_path / "notes.jsonl"
    full = run_batch(JOB, out=tmp_path / "full.jsonl")
    data = (full[0].dumps() + "\n").encode() + text.encode("utf-8", "surrogateescape")
    out.write_bytes(data)
    with pytest.raises(RecordError, match="notes.jsonl:2: not a game record"):
        completed_indices(out, JOB)
    with pytest.raises(RecordError, match="notes.jsonl:2"):
        run_batch(JOB, out=out, resume=True)
    assert out.read_bytes() == data


def _cli(tmp_path: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    script = tmp_path / "runner.py"
    script.write_text(RUNNER.format(tests=str(Path(__file__).parents[1])))
    src = str(Path(shadowtable.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    argv = ["simulate", "tiny-showdown", "--players", "3", "--games", "300", "--seed", "5", "--bots", "sleepy"]
    return subprocess.Popen(
        [sys.executable, str(script), *argv, "--out", str(out), "--workers", "2", "--no-progress", *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_killed_run_resumes_with_no_duplicate_and_no_missing_game(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    proc = _cli(tmp_path, out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 40):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = completed_indices(out, BatchJob("tiny-showdown", 3, ("sleepy",), 300, 5))
    assert 40 <= len(before) < 300, "the kill should land mid-run"
    resumed = _cli(tmp_path, out, "--resume")
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    indices = [r.metadata["index"] for r in read_batch(out)]
    assert indices == list(range(300))
    fresh = tmp_path / "fresh.jsonl"
    run = _cli(tmp_path, fresh)
    run.communicate(timeout=120)
    assert sorted(out.read_text().splitlines()) == sorted(fresh.read_text().splitlines())


def _proc_stat(pid: int) -> tuple[int, str, int] | None:
    """``(parent pid, state, start time)`` of process ``pid`` from /proc, or ``None`` if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], int(fields[19])


def _children(pid: int) -> set[tuple[int, int]]:
    """``(pid, start time)`` of the live (not zombie) children of ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _proc_stat(int(entry.name))) and stat[0] == pid and stat[1] != "Z":
            found.add((int(entry.name), stat[2]))
    return found


def _alive(process: tuple[int, int]) -> bool:
    stat = _proc_stat(process[0])
    return stat is not None and stat[1] != "Z" and stat[2] == process[1]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker processes through /proc")
def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    """`simulate --workers 2` killed with SIGKILL: its worker processes must not sleep on."""
    script = tmp_path / "runner.py"
    script.write_text(RUNNER.format(tests=str(Path(__file__).parents[1])))
    env = {**os.environ, "PYTHONPATH": str(Path(shadowtable.__file__).parents[1])}
    argv = ["simulate", "tiny-showdown", "--players", "3", "--games", "1000000", "--bots", "sleepy"]
    proc = subprocess.Popen(
        [sys.executable, str(script), *argv, "--workers", "2", "--no-progress"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[tuple[int, int]] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "simulate --workers 2 should have started two worker processes"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        assert not [pid for pid, start in workers if _alive((pid, start))], "workers outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, start in workers:
            if _alive((pid, start)):
                os.kill(pid, signal.SIGKILL)
