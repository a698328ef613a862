"""``shadowtable analyse``: writes JSON and HTML, refuses to overwrite, one error line for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.analysis.helpers import tiny_record

from shadowtable.cli.entry import main


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(tiny_record([4, 2], [0, 1], rounds=1).dumps() + "\n", encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_it_writes_the_analysis_as_json_and_html(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file.parent / "result"
    status, text, _ = _run(capsys, str(record_file), "--policy", "random", "--rollouts", "8", "--out", str(out))
    assert status == 0
    data = json.loads(Path(f"{out}.json").read_text(encoding="utf-8"))
    assert data["format"] == "shadowtable-analysis/1"
    assert [d["label"] for d in data["decisions"] if d["seat"] == 0] == ["blunder"]
    page = Path(f"{out}.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "pass cut your chance of winning from 100% to 0%" in page
    assert "seat 0 (seat-0): 1 decisions, 1 judged, accuracy 0.0, 0 inaccuracies, 0 mistakes, 1 blunders" in text
    assert "<td>1</td><td>0</td><td>1</td><td>0.0</td>" in page  # decisions, not analysed, judged, accuracy


def test_no_accuracy_is_given_where_fewer_than_half_the_decisions_could_be_judged(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On fewer samples than a decision needs to be marked, the blunder goes unmarked, so an
    accuracy of 100 would praise what nobody judged: the seat's line says none was judged."""
    out = record_file.parent / "result"
    status, text, _ = _run(capsys, str(record_file), "--policy", "random", "--rollouts", "2", "--out", str(out))
    assert status == 0
    assert "seat 0 (seat-0): 1 decisions, 0 judged, accuracy —, 0 inaccuracies, 0 mistakes, 0 blunders" in text
    page = Path(f"{out}.html").read_text(encoding="utf-8")
    assert "<td>1</td><td>0</td><td>0</td><td>—</td>" in page


def test_the_default_output_sits_beside_the_record(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, str(record_file), "--policy", "random", "--seat", "1", "--rollouts", "2")[0] == 0
    data = json.loads((record_file.parent / "game-analysis.json").read_text(encoding="utf-8"))
    assert [s["seat"] for s in data["seats"]] == [1]
    assert (record_file.parent / "game-analysis.html").exists()


def test_existing_files_are_kept_unless_forced(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file.parent / "result"
    Path(f"{out}.html").write_text("mine", encoding="utf-8")
    status, _, err = _run(capsys, str(record_file), "--policy", "random", "--out", str(out))
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "--force" in err
    assert Path(f"{out}.html").read_text(encoding="utf-8") == "mine"
    assert not Path(f"{out}.json").exists()
    assert _run(capsys, str(record_file), "--policy", "random", "--out", str(out), "--force")[0] == 0
    assert Path(f"{out}.html").read_text(encoding="utf-8") != "mine"


@pytest.mark.parametrize(
    ("content", "extra", "words"),
    [
        ("not json\n", [], "not valid JSON"),
        ('{"game": "tiny-showdown"}\n', [], "'version' is missing"),
        (None, ["--seat", "5"], "seat 5"),
        (None, ["--record", "2"], "no record 2"),
        (None, ["--policy", "nosuchbot"], "nosuchbot"),
        (None, ["--horizon", "10"], "no evaluation 'heuristic' to cut rollouts off with"),
        (None, ["--horizon", "0"], "horizon must be a positive whole number"),
        (None, ["--most-choices", "1"], "most_choices must be a whole number of at least 2"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(
    record_file: Path, capsys: pytest.CaptureFixture[str], content: str | None, extra: list[str], words: str
) -> None:
    if content is not None:
        record_file.write_text(content, encoding="utf-8")
    out = record_file.parent / "result"
    status, _, err = _run(capsys, str(record_file), "--policy", "random", *extra, "--out", str(out))
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err
    assert not Path(f"{out}.json").exists() and not Path(f"{out}.html").exists()


def test_a_missing_record_file_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, str(tmp_path / "none.json"), "--out", str(tmp_path / "r"))
    assert status == 2 and err.count("\n") == 1 and "cannot read" in err
