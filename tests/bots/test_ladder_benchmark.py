"""The ladder benchmark: a run resumed (and played by two processes) is the run played at once; a
second series plays fresh games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark_script import load_benchmark


def test_a_resumed_run_in_two_processes_gives_the_uninterrupted_result(tmp_path: Path) -> None:
    bench = load_benchmark("ladder")
    whole = bench.run("shadow-planet", 3, {}, "heuristic", "random", 6, folder=tmp_path / "whole")
    assert whole["games"] == 6 and whole["upper"]["seat_games"] == 6 and whole["lower"]["seat_games"] == 12
    assert whole["upper"]["decisions"] > 0 and whole["upper"]["median_decision_s"] is not None
    records = tmp_path / "whole" / "shadow-planet-3p-heuristic-vs-random.jsonl"
    log = records.with_suffix(".times.jsonl")
    assert len(bench.read_times(log)) == whole["upper"]["decisions"]
    part = tmp_path / "part"
    part.mkdir()
    lines = records.read_text(encoding="utf-8").splitlines(keepends=True)
    (part / records.name).write_text("".join(lines[:2]), encoding="utf-8")
    resumed = bench.run("shadow-planet", 3, {}, "heuristic", "random", 6, folder=part, workers=2, resume=True)
    assert (part / records.name).read_text(encoding="utf-8") == records.read_text(encoding="utf-8")
    assert resumed["tournament"] == whole["tournament"] and resumed["separated"] == whole["separated"]
    assert 0 < resumed["upper"]["decisions"] < whole["upper"]["decisions"]  # timed: the games played now


def test_a_second_series_plays_other_games_and_names_its_seeds(tmp_path: Path) -> None:
    bench = load_benchmark("ladder")
    first = bench.run("shadow-planet", 3, {}, "heuristic", "random", 3, folder=tmp_path / "first")
    second = bench.run("shadow-planet", 3, {}, "heuristic", "random", 3, folder=tmp_path / "second", series=2)
    assert first["series"] == 1 and second["series"] == 2
    assert second["seed_label"] == ["ladder", "shadow-planet-3p-heuristic-vs-random-series-2"]
    assert first["seed"] != second["seed"] and first["tournament"]["seed"] != second["tournament"]["seed"]
    records = "shadow-planet-3p-heuristic-vs-random.jsonl"
    assert (tmp_path / "first" / records).read_text() != (tmp_path / "second" / records).read_text()


def test_bad_arguments_get_one_error_line_exit_2_and_write_nothing(capsys: Any) -> None:
    bench = load_benchmark("ladder")
    before = sorted(bench.OUT.iterdir())
    base = ["--upper", "ismcts", "--lower", "heuristic", "--games", "5"]
    for wrong in (
        ["--game", "nope", "--players", "3"],
        ["--game", "shadowlord", "--players", "9"],
        ["--game", "shadowlord", "--players", "3", "--option", "bogus=1"],
        ["--game", "shadowlord", "--players", "3", "--series", "0"],
        ["--game", "shadowlord", "--players", "3", "--lower", "level2"],  # the same level twice
    ):
        assert bench.main([*base, *wrong]) == 2, wrong
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: "), (wrong, err)
    assert sorted(bench.OUT.iterdir()) == before


def test_records_that_cannot_be_resumed_or_were_not_asked_to_be_replaced_stay_as_they_were(
    tmp_path: Path, capsys: Any
) -> None:
    bench = load_benchmark("ladder")
    base = ["--game", "shadow-planet", "--players", "3", "--upper", "heuristic", "--lower", "random"]
    records = tmp_path / "shadow-planet-3p-heuristic-vs-random.jsonl"
    assert bench.main([*base, "--games", "2", "--folder", str(tmp_path)]) == 0
    capsys.readouterr()
    for games, text in (("1", None), ("3", records.read_text(encoding="utf-8") + "not a record\n")):
        if text is not None:
            records.write_text(text, encoding="utf-8")
        before = records.read_text(encoding="utf-8")
        assert bench.main([*base, "--games", games, "--resume", "--folder", str(tmp_path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and str(records) in err[0], err
        assert records.read_text(encoding="utf-8") == before
    before = records.read_text(encoding="utf-8")
    assert bench.main([*base, "--games", "2", "--folder", str(tmp_path)]) == 2  # --resume forgotten
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--resume" in err[0] and "--force" in err[0], err
    assert records.read_text(encoding="utf-8") == before
    assert bench.main([*base, "--games", "2", "--folder", str(tmp_path), "--force"]) == 0
    assert len(records.read_text(encoding="utf-8").splitlines()) == 2


def test_win_rates_by_objective_count_every_seat_of_every_game_once(tmp_path: Path, capsys: Any) -> None:
    import json

    bench = load_benchmark("ladder")
    result = bench.run("shadow-planet", 3, {}, "heuristic", "random", 4, folder=tmp_path)
    tally = bench.by_fact(result, tmp_path)
    assert set(tally) <= {"Alien", "Commander", "Guardian", "Lieutenant", "Sergeant"}
    per_level = {
        level: [sum(c[level][i] for c in tally.values() if level in c) for i in (0, 1)]
        for level in ("heuristic", "random")
    }
    assert per_level["heuristic"] == [result["upper"]["wins"], 4] and per_level["random"] == [
        result["lower"]["wins"],
        8,
    ]
    path = tmp_path / "shadow-planet-3p-heuristic-vs-random.json"
    path.write_text(json.dumps(result), encoding="utf-8")
    assert bench.main(["--objectives", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "| objective | heuristic | random |" and len(printed) == 2 + len(tally)
    assert bench.main(["--objectives", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
