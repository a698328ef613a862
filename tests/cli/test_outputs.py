"""Output files: an existing file is never replaced without --force (or --resume where that
applies), and every output is checked before any game is played or any work is done."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from shadowtable.cli import main
from shadowtable.core import GameRecord

SIM = ["simulate", "tiny-showdown", "--players", "3", "--games", "3", "--workers", "1", "--no-progress"]
TOUR = ["tournament", "tiny-showdown", "--players", "3", "--bots", "random", "--games", "3", "--workers", "1"]
SWEEP = ["sweep", "tiny-showdown", "--players", "3", "--set", "rounds=1,2", "--games", "2", "--workers", "1"]

COMMANDS: dict[str, tuple[list[str], list[str], str]] = {
    # name: (argv before the output option, the output option, the function doing the work)
    "simulate --out": (SIM, ["--out"], "shadowtable.sim.parallel:play_chunk"),
    "tournament --out": (TOUR, ["--out"], "shadowtable.sim.tournament:play_games"),
    "tournament --records": (TOUR, ["--records"], "shadowtable.sim.tournament:play_games"),
    "sweep --out": (SWEEP, ["--out"], "shadowtable.sim.parallel:play_chunk"),
    "report --out": (["report", "games.jsonl"], ["--out"], "shadowtable.sim.report:build_report"),
    "export --out": (["export", "games.jsonl"], ["--out"], "shadowtable.sim.export:rows"),
}
SUFFIX = {"report --out": ".html", "export --out": ".csv", "simulate --out": ".jsonl", "tournament --records": ".jsonl"}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main([*SIM, "--out", "games.jsonl"]) == 0
    return tmp_path


def _spy_on(target: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make ``module:function`` fail loudly if it is ever called; returns the calls seen."""
    module_name, name = target.split(":")
    module = importlib.import_module(module_name)
    calls: list[str] = []

    def no_work(*args: object, **kwargs: object) -> None:
        calls.append(name)
        raise AssertionError(f"{name} ran: the output should have been checked before any work")

    monkeypatch.setattr(module, name, no_work)
    return calls


@pytest.mark.parametrize("where", ["existing", "missing-folder", "folder"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_output_is_refused_before_any_work(
    folder: Path, command: str, where: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, option, target = COMMANDS[command]
    suffix = SUFFIX.get(command, ".json")
    path = {"existing": f"existing{suffix}", "missing-folder": f"nowhere/out{suffix}", "folder": f"a-folder{suffix}"}[
        where
    ]
    (folder / f"existing{suffix}").write_text("keep me\n")
    (folder / f"a-folder{suffix}").mkdir()
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    calls = _spy_on(target, monkeypatch)
    capsys.readouterr()
    assert main([*argv, *option, path]) == 2
    err = capsys.readouterr().err
    assert calls == []
    assert err.startswith("error: ") and len(err.splitlines()) == 1
    assert {"existing": "--force", "missing-folder": "does not exist", "folder": "is a folder"}[where] in err
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert not (folder / "nowhere").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_force_replaces_an_existing_output(folder: Path, command: str) -> None:
    argv, option, _ = COMMANDS[command]
    path = folder / f"existing{SUFFIX.get(command, '.json')}"
    path.write_text("keep me\n")
    assert main([*argv, *option, str(path), "--force"]) == 0
    assert path.read_text() != "keep me\n"


def test_simulate_keeps_an_existing_out_file_without_force(folder: Path) -> None:
    """The bug: `simulate --out EXISTING.jsonl` without --resume emptied the file."""
    before = (folder / "games.jsonl").read_text()
    assert main([*SIM, "--out", "games.jsonl", "--seed", "9"]) == 2
    assert (folder / "games.jsonl").read_text() == before
    assert main([*SIM, "--out", "games.jsonl", "--resume"]) == 0  # the same batch: nothing to add
    assert (folder / "games.jsonl").read_text() == before


def test_tournament_resume_continues_records_and_rewrites_its_result(folder: Path) -> None:
    """`--resume` stands for --force on --out: rerunning a resumable tournament line updates its result."""
    argv = [*TOUR, "--records", "t.jsonl", "--out", "t.json"]
    assert main(argv) == 0
    assert main(argv) == 2  # both files exist now
    assert main([*argv, "--games", "6", "--resume"]) == 0  # the last --games counts
    assert json.loads((folder / "t.json").read_text())["games"] == 6
    assert len([GameRecord.loads(line) for line in (folder / "t.jsonl").read_text().splitlines()]) == 6
