"""The rated ladder's script: its seating rotates fairly and its ratings order planted results."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmark_script import load_benchmark

LEVELS = ["random", "heuristic", "policy", "ismcts"]

ratings = load_benchmark("ladder_ratings")


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_sits_every_seat_equally_often(count: int, players: int) -> None:
    levels = LEVELS[:count]
    period = count * len(ratings.strides(count))
    seats = Counter(
        (seat, level) for i in range(period) for seat, level in enumerate(ratings.seating(levels, players, i))
    )
    assert len({seats[(seat, level)] for seat in range(players) for level in levels}) == 1
    if players >= count:  # every level plays at every table
        assert all(set(ratings.seating(levels, players, i)) == set(levels) for i in range(period))


def _planted(strength: list[str], players: int, games: int) -> list[tuple[list[str], list[float]]]:
    """Games in which the stronger level (later in ``strength``) always finishes ahead."""
    out = []
    for index in range(games):
        lineup = ratings.seating(LEVELS, players, index)
        out.append((lineup, [strength.index(level) / (len(strength) - 1) for level in lineup]))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_ratings_order_the_levels_of_planted_results(players: int) -> None:
    games = _planted(LEVELS, players, 48)
    assert ratings.ranking(ratings.rate(games, LEVELS)) == LEVELS[::-1]
    backwards = _planted(LEVELS[::-1], players, 48)
    assert ratings.ranking(ratings.rate(backwards, LEVELS)) == LEVELS


def test_a_level_with_few_games_ranks_by_its_conservative_estimate() -> None:
    strong_few = [(["ismcts", "random"], [1.0, 0.0])]
    many = [(["heuristic", "random"][::step], [1.0, 0.0][::step]) for step in (1, -1) for _ in range(20)]
    rated = ratings.rate(many + strong_few, ["random", "heuristic", "ismcts"])
    assert rated["ismcts"].mu > rated["random"].mu and rated["ismcts"].sigma > rated["heuristic"].sigma
    assert ratings.ranking(rated)[0] == "heuristic"


def test_an_unknown_configuration_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert ratings.main(["--config", "chess-2p", "--plan"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown configuration 'chess-2p'")


def test_a_block_in_worker_processes_plays_the_same_games_in_the_same_order() -> None:
    levels, seed = ["random", "heuristic"], 99
    alone = list(ratings.play_block("shadow-planet", 3, {}, levels, seed, 3))
    pooled = list(ratings.play_block("shadow-planet", 3, {}, levels, seed, 3, workers=2))
    assert [(i, lineup, record.to_json()) for i, lineup, record, _, _ in alone] == [
        (i, lineup, record.to_json()) for i, lineup, record, _, _ in pooled
    ]
    assert [i for i, *_ in pooled] == [0, 1, 2]
    assert all(sum(len(t) for t in times.values()) > 0 for *_, times, _ in pooled)


def test_workers_below_one_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert ratings.main(["--workers", "0", "--config", "shadowlord-2p"]) == 2
    assert capsys.readouterr().err.startswith("error: --workers")


def _lines(folder: Path, config: str) -> list[dict[str, Any]]:
    text = (folder / f"ratings-{config}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _rated(result: dict[str, Any]) -> dict[str, tuple[float, float, int]]:
    return {level: (r["mu"], r["sigma"], r["wins"]) for level, r in result["ratings"].items()}


def test_resuming_plays_only_the_missing_games_and_rates_as_a_whole_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratings, "SEARCH_GAMES", {})
    monkeypatch.setattr(ratings, "QUICK_GAMES", 2)
    (tmp_path / "resumed").mkdir(), (tmp_path / "whole").mkdir()
    ratings.run("shadow-planet", 3, {}, tmp_path / "resumed")
    first = _lines(tmp_path / "resumed", "shadow-planet-3p")
    for line in first[:1]:  # a game recorded before records kept decision times
        del line["cpu_s"], line["capped"]
    (tmp_path / "resumed" / "ratings-shadow-planet-3p.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in first), encoding="utf-8"
    )
    monkeypatch.setattr(ratings, "QUICK_GAMES", 3)
    resumed = ratings.run("shadow-planet", 3, {}, tmp_path / "resumed", resume=True)
    whole = ratings.run("shadow-planet", 3, {}, tmp_path / "whole")
    assert (resumed["games"], resumed["resumed_games"], resumed["timed_games"]) == (3, 2, 2)
    assert (whole["games"], whole["resumed_games"], whole["timed_games"]) == (3, 0, 3)
    assert _rated(resumed) == _rated(whole)
    lines, whole_lines = (_lines(tmp_path / name, "shadow-planet-3p") for name in ("resumed", "whole"))
    assert [line["record"] for line in lines] == [line["record"] for line in whole_lines]
    assert "cpu_s" not in lines[0] and all(len(times) > 0 for times in lines[2]["cpu_s"].values())


@pytest.mark.parametrize("tamper", ["seed", "seating", "action"])
def test_a_recorded_game_the_plan_would_not_play_stops_the_resume_and_keeps_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tamper: str
) -> None:
    monkeypatch.setattr(ratings, "SEARCH_GAMES", {})
    monkeypatch.setattr(ratings, "QUICK_GAMES", 1)
    ratings.run("shadow-planet", 3, {}, tmp_path)
    path = tmp_path / "ratings-shadow-planet-3p.jsonl"
    (line,) = _lines(tmp_path, "shadow-planet-3p")
    if tamper == "seed":
        line["record"]["seed"] += 1
    elif tamper == "seating":
        line["levels"] = line["levels"][::-1]
    else:
        line["record"]["actions"][-1] = 10**6
    tampered = json.dumps(line) + "\n"
    path.write_text(tampered, encoding="utf-8")
    assert ratings.main(["--config", "shadow-planet-3p", "--folder", str(tmp_path), "--resume"]) == 2
    assert capsys.readouterr().err.startswith("error: recorded game 0 of block 'quick'")
    assert path.read_text(encoding="utf-8") == tampered
