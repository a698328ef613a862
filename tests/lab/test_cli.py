"""`shadowtable lab run|show|export|spec|kinds`, and one `error:` line with status 2 for bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from tests.lab.helpers import builtin_content, planet_spec

from shadowtable.cli import main


def write_spec(folder: Path, data: dict[str, Any]) -> Path:
    path = folder / "spec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(*args: str) -> int:
    return main(["lab", *map(str, args)])


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def test_run_show_export_and_rerun_from_the_saved_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = builtin_content("shadow-planet")
    content["indicators"]["threat"]["start"] = 4
    spec = write_spec(
        tmp_path, planet_spec(games=2, variants=[{"name": "baseline"}, {"name": "threat 4", "content": content}])
    )
    out = tmp_path / "run"
    assert run("run", spec, "--out", out, "--workers", "1", "--no-progress") == 0
    printed = capsys.readouterr().out
    assert "arm 1 (threat 4)" in printed and "variants against the baseline" in printed
    stored = list((out / "content").glob("*.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text())["indicators"]["threat"]["start"] == 4

    assert run("show", out) == 0
    assert capsys.readouterr().out.strip() in printed
    assert run("show", out, "--json") == 0
    assert json.loads(capsys.readouterr().out) == json.loads((out / "figures.json").read_text())

    table = tmp_path / "games.csv"
    assert run("export", out, "--format", "csv", "--out", table) == 0
    lines = list(csv.DictReader(table.open()))
    assert len(lines) == 2 * 2 * 3 and {line["label"] for line in lines} == {"baseline", "threat 4"}
    assert run("export", out, "--format", "parquet", "--out", tmp_path / "games.parquet") == 0

    again = tmp_path / "again"
    assert run("run", out / "spec.json", "--out", again, "--workers", "1", "--no-progress") == 0
    assert (again / "figures.json").read_bytes() == (out / "figures.json").read_bytes()


def test_spec_prints_a_template_that_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("spec", "shadowlord", "2") == 0
    template = json.loads(capsys.readouterr().out)
    assert template["game"] == "shadowlord" and template["bots"] == ["level1"]
    assert run("kinds", "shadowlord", "2") == 0
    listed = capsys.readouterr().out
    assert "seat 1" in listed and "propose a Truce" in listed


BAD_SPECS = [
    (planet_spec(players=9), "players"),
    (planet_spec(bots=["grandmaster"]), "bots[0]"),
    (planet_spec(variants=[{"name": "a", "options": {"identity_ties": "coin"}}]), "variants[0].options.identity_ties"),
    (planet_spec(probes=[{"role": "alien", "kind": "fly"}]), "probes[0].kind"),
    (planet_spec(games=10**9), "games"),
]


@pytest.mark.parametrize(("data", "field"), BAD_SPECS, ids=[field for _, field in BAD_SPECS])
def test_a_bad_spec_is_one_error_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any], field: str
) -> None:
    spec = write_spec(tmp_path, data)
    assert run("run", spec, "--out", tmp_path / "run", "--no-progress") == 2
    assert f": {field}: " in error_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.json"]


def test_bad_command_lines_are_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, planet_spec(games=1))
    out = tmp_path / "run"
    assert run("run", spec, "--out", out, "--no-progress") == 0
    capsys.readouterr()
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    cases = [
        ("run", spec, "--out", out, "--no-progress"),  # a run is there already
        ("run", spec, "--out", out, "--resume", "--force"),
        ("run", spec, "--out", tmp_path / "other", "--backend", "cloud"),
        ("run", tmp_path / "missing.json", "--out", tmp_path / "other"),
        ("run", spec, "--out", tmp_path / "no" / "such" / "folder"),
        ("show", tmp_path / "nothing"),
        ("export", out, "--format", "xlsx", "--out", tmp_path / "t.xlsx"),
        ("export", out, "--out", spec),  # exists: needs --force
        ("spec", "chess", "2"),
        ("spec", "shadowlord", "7"),
    ]
    for case in cases:
        assert run(*case) == 2, case
        error_line(capsys)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert not (tmp_path / "other").exists() and not (tmp_path / "t.xlsx").exists()


def test_resume_on_the_command_line_plays_only_the_missing_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path, planet_spec(games=3))
    out = tmp_path / "run"
    assert run("run", spec, "--out", out, "--workers", "1", "--no-progress") == 0
    whole = (out / "figures.json").read_bytes()
    rows = (out / "rows.jsonl").read_text().splitlines(keepends=True)
    (out / "rows.jsonl").write_text("".join(rows[:1]))
    (out / "figures.json").unlink()
    assert run("run", spec, "--out", out, "--resume", "--workers", "2", "--no-progress") == 0
    assert (out / "figures.json").read_bytes() == whole
    assert (out / "rows.jsonl").read_text().splitlines(keepends=True)[:1] == rows[:1]


def test_show_an_unfinished_run_counts_the_games_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, planet_spec(games=3))
    out = tmp_path / "run"
    assert run("run", spec, "--out", out, "--workers", "1", "--no-progress") == 0
    rows = (out / "rows.jsonl").read_text().splitlines(keepends=True)
    (out / "rows.jsonl").write_text(rows[0] + rows[1][:20])  # one game, then a line cut short
    (out / "figures.json").unlink()
    capsys.readouterr()
    assert run("show", out) == 0
    assert "arm 0 (baseline): 1 games" in capsys.readouterr().out
