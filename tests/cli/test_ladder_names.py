"""``tournament``, ``simulate``, ``sweep`` and ``play`` take ladder level names and play the level's spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shadowtable.bots import ladder, make_bot
from shadowtable.cli import main
from shadowtable.core.errors import BotError


def test_level_names_resolve_to_the_ladder_spec_of_the_game() -> None:
    assert ladder.resolve_spec("level0", "shadowlord") == "random"
    assert ladder.resolve_spec("level1", "shadow-planet") == "heuristic"
    search = ladder.resolve_spec("level2", "shadowlord")
    assert search == ladder.resolve_spec("ismcts", "shadowlord") == ladder.LADDER["ismcts"].spec_for("shadowlord")
    assert "evaluate=heuristic" in search and "evaluate" not in ladder.resolve_spec("level2", "shadow-planet")
    assert ladder.resolve_entry("level1*3", "shadowlord") == "heuristic*3"
    assert ladder.resolve_spec("ismcts:iterations=5", "shadowlord") == "ismcts:iterations=5"  # a spec is kept
    assert ladder.resolve_entry("level9*2", "shadowlord") == "level9*2"  # no level: left for the bot registry
    with pytest.raises(BotError, match="unknown bot 'level9'"):
        make_bot(ladder.resolve_spec("level9", "shadowlord"))


def test_a_tournament_between_levels_plays_their_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "shadowlord", "--players", "3", "--bots", "level1,level0*2", "--games", "3"]
    code = main([*args, "--out", str(out), "--no-progress"])
    assert code == 0
    result = json.loads(out.read_text())
    assert set(result["bots"]) == {"heuristic", "random"}
    assert result["bots"]["heuristic"]["games"] == 3 and result["bots"]["random"]["games"] == 6
    assert "heuristic" in capsys.readouterr().out


def test_a_line_up_resolves_each_level_and_keeps_the_rest() -> None:
    search = ladder.LADDER["ismcts"].spec_for("shadowlord")
    assert ladder.resolve_line_up("level2,heuristic", "shadowlord") == (search, "heuristic")
    assert ladder.resolve_line_up("ismcts", "shadowlord") == (search,)  # the level, as in tournament
    assert ladder.resolve_line_up("ismcts:iterations=5,level0", "shadow-planet") == ("ismcts:iterations=5", "random")
    assert ladder.resolve_line_up("level9,", "shadowlord") == ("level9", "")  # left for the checks to refuse


def test_a_simulation_between_levels_plays_their_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    args = ["simulate", "shadowlord", "--players", "3", "--bots", "level1,level0,random", "--games", "2"]
    assert main([*args, "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [record["seats"] for record in records] == [["heuristic", "random", "random"]] * 2
    assert "heuristic" in capsys.readouterr().out


def test_a_simulation_refuses_an_unknown_level_with_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "shadowlord", "--players", "2", "--bots", "level9", "--games", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: unknown bot 'level9'") and err.count("\n") == 1


def test_a_sweep_between_levels_plays_their_specs(tmp_path: Path) -> None:
    out = tmp_path / "sweep.json"
    args = ["sweep", "shadowlord", "--players", "2", "--set", "modified=true,false", "--games", "1"]
    assert main([*args, "--bots", "level1,level0", "--workers", "1", "--out", str(out)]) == 0
    points = json.loads(out.read_text())
    assert [set(point["stats"]["by_bot"]) for point in points] == [{"heuristic", "random"}] * 2


def test_an_unknown_bot_is_told_the_ladder_levels_too() -> None:
    with pytest.raises(BotError) as caught:
        make_bot("level9")
    assert str(caught.value) == (
        "unknown bot 'level9'; available: epsilon, heuristic, ismcts, policy, random; "
        "ladder levels: level0, level1, level2"
    )
