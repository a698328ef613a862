"""Sweeps over game options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shadowtable.cli import main
from shadowtable.sim.sweep import grid_points, parse_grid, run_sweep


def test_grid_parsing_and_points() -> None:
    grid = parse_grid(["rounds=1,2", "mode=a,b,c"])
    assert grid == {"rounds": [1, 2], "mode": ["a", "b", "c"]}
    assert len(grid_points(grid)) == 6 and grid_points(grid)[0] == {"rounds": 1, "mode": "a"}
    with pytest.raises(ValueError, match="bad --set"):
        parse_grid(["rounds"])


def test_each_point_plays_its_own_options() -> None:
    points = run_sweep("tiny-showdown", 3, ["random"], 30, 5, {"rounds": [1, 2]})
    assert [p.options for p in points] == [{"rounds": 1}, {"rounds": 2}]
    one, two = (p.stats for p in points)
    assert one.games == two.games == 30
    assert max(one.lengths) == 1 and max(two.lengths) == 2  # rounds played follow the option


def test_sweep_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep.json"
    assert (
        main(
            [
                "sweep",
                "tiny-showdown",
                "--players",
                "2",
                "--set",
                "rounds=1,2",
                "--games",
                "10",
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "rounds=1" in capsys.readouterr().out
    assert len(json.loads(out.read_text())) == 2
    assert main(["sweep", "tiny-showdown", "--players", "2", "--set", "rounds=9"]) == 2


def test_content_values_are_swept_through_modified_content_files() -> None:
    grid = {"content.indicators.repair.start.4": [4, 8]}
    points = run_sweep("shadow-planet", 4, ["random"], 6, 3, grid, workers=1)
    assert [p.options for p in points] == [
        {"content.indicators.repair.start.4": 4},
        {"content.indicators.repair.start.4": 8},
    ]
    low, high = (p.stats for p in points)
    assert low.games == high.games == 6
    assert {t[0] for t in low.trajectories["repair"]} == {4.0}
    assert {t[0] for t in high.trajectories["repair"]} == {8.0}


def test_a_content_path_that_does_not_exist_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from shadowtable.core import ContentError
    from shadowtable.sim.sweep import set_json_path

    with pytest.raises(ContentError, match="no 'nope'"):
        set_json_path({"a": {"b": 1}}, "a.nope", 2)
    code = main(["sweep", "shadow-planet", "--players", "4", "--set", "content.indicators.nope=1", "--games", "2"])
    assert code == 2 and "content path" in capsys.readouterr().err
