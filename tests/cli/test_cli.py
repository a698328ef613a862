"""The command line: games, simulate, replay; bad arguments give one line and a non-zero exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shadowtable
from shadowtable.cli import main
from shadowtable.core import GameRecord


def test_games_lists_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "tiny-showdown" in capsys.readouterr().out


def test_simulate_prints_a_summary_and_writes_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    code = main(["simulate", "tiny-showdown", "--players", "3", "--games", "12", "--seed", "4", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "12 games" in text and "win rate" in text
    records = [GameRecord.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 12
    wins_seat0 = sum(1 for r in records if r.returns and r.returns[0] == 1.0)
    seat0 = next(line for line in text.splitlines() if line.startswith("   0  random"))
    assert seat0.split()[3:5] == [str(wins_seat0), f"{wins_seat0 / 12:.3f}"]


def test_simulate_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        main(["simulate", "tiny-showdown", "--players", "2", "--games", "5", "--seed", "9", "--out", str(path)])
    assert a.read_text() == b.read_text()


def test_replay_checks_each_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    main(["simulate", "tiny-showdown", "--players", "3", "--games", "4", "--out", str(out)])
    capsys.readouterr()
    assert main(["replay", str(out), "--seat", "1"]) == 0
    assert "4 records replayed identically" in capsys.readouterr().out
    data = json.loads(out.read_text().splitlines()[0])
    data["returns"] = [9.0, 9.0, 9.0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad)]) == 2
    assert "differ from recorded" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "chess", "--players", "2"], "unknown game 'chess'"),
        (["simulate", "tiny-showdown", "--players", "7"], "2 to 4 players"),
        (["simulate", "tiny-showdown", "--players", "2", "--bots", "random,nobot"], "unknown bot 'nobot'"),
        (["simulate", "tiny-showdown", "--players", "2", "--option", "rounds=9"], "option 'rounds'"),
        (["simulate", "tiny-showdown", "--players", "2", "--option", "oops"], "bad --option"),
        (["replay", "/nonexistent/file.jsonl"], "cannot read"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    src = str(Path(shadowtable.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "shadowtable.cli", *args], capture_output=True, text=True, check=False, env=env
    )


def test_console_script_never_prints_a_traceback() -> None:
    proc = _run_cli("simulate", "chess", "--players", "3")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: unknown game 'chess'") and "Traceback" not in proc.stderr
    usage = _run_cli("simulate")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_tournament_prints_tables_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    code = main(
        [
            "tournament",
            "tiny-showdown",
            "--players",
            "2",
            "--bots",
            "ismcts:iterations=20,random",
            "--games",
            "6",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "ismcts:iterations=20" in text and "95% CI" in text
    result = json.loads(out.read_text())
    assert result["games"] == 6
    assert [seat["games"] for seat in result["seats"]] == [6, 6]
    assert result["bots"]["random"]["games"] == 6


TOURNAMENT_ARGS = ["tournament", "tiny-showdown", "--players", "3", "--bots", "ismcts:iterations=10,random"]


def test_tournament_resumes_a_truncated_records_file_with_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full, resumed = tmp_path / "full.jsonl", tmp_path / "resumed.jsonl"
    args = [*TOURNAMENT_ARGS, "--games", "9", "--seed", "3"]
    assert main([*args, "--records", str(full), "--out", str(tmp_path / "full.json")]) == 0
    lines = full.read_text().splitlines(keepends=True)
    resumed.write_text("".join(lines[:4]) + lines[4][:25])
    argv = [*args, "--records", str(resumed), "--out", str(tmp_path / "resumed.json"), "--resume", "--workers", "2"]
    assert main(argv) == 0
    assert (tmp_path / "resumed.json").read_text() == (tmp_path / "full.json").read_text()
    assert resumed.read_text() == full.read_text()
    capsys.readouterr()
    assert main([*args, "--records", str(resumed), "--resume"]) == 0  # all 9 there: nothing to play
    assert "9 games, seed 3" in capsys.readouterr().out
    assert resumed.read_text() == full.read_text()


def test_tournament_resume_refuses_another_tournaments_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "games.jsonl"
    assert main([*TOURNAMENT_ARGS, "--games", "2", "--seed", "1", "--records", str(records)]) == 0
    before = records.read_text()
    capsys.readouterr()
    assert main([*TOURNAMENT_ARGS, "--games", "4", "--seed", "2", "--records", str(records), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "is not game 0 of this tournament (seed " in err and len(err.strip().splitlines()) == 1
    assert records.read_text() == before


def test_tournament_resume_needs_records(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TOURNAMENT_ARGS, "--games", "2", "--resume"]) == 2
    assert capsys.readouterr().err.strip() == "error: --resume needs --records, the records file of the run to resume"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "tiny-showdown", "--players", "3", "--hotseat", "0,9"], "seats must be between 0 and 2"),
        (["play", "tiny-showdown", "--players", "3", "--bots", "random,random,random"], "need 1 or 2 bots"),
        (["play", "chess"], "unknown game 'chess'"),
        (["view", "/nonexistent.jsonl"], "cannot read"),
    ],
)
def test_play_and_view_refuse_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_view_refuses_an_index_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    main(["simulate", "tiny-showdown", "--players", "2", "--games", "2", "--out", str(out), "--workers", "1"])
    assert main(["view", str(out), "--index", "5"]) == 2
    assert "has 2 records" in capsys.readouterr().err


def test_content_check_names_the_file_card_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shadowtable.games.shadow_planet as sp

    builtin = Path(sp.__file__).parent / "data" / "content.json"
    assert main(["content", "check", str(builtin)]) == 0
    assert "OK" in capsys.readouterr().out
    data = json.loads(builtin.read_text())
    data["cards"][3]["type"] = "Laser"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["content", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "card 3" in err and "'type'" in err
    assert main(["content", "check", str(bad), "--game", "chess"]) == 2
