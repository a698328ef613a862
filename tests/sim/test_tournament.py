"""Tournaments: fair seat rotation, counting, roles, ratings, records, JSON round trips, workers, resume."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowtable.sim.tournament as tournament_module
from shadowtable.core import BotError, GameRecord, RecordError, derive_seed, register
from shadowtable.core.registry import unregister
from shadowtable.sim.tournament import (
    TournamentResult,
    add_record,
    empty_result,
    format_table,
    lineup_places,
    rank_by_return,
    run_tournament,
    seat_lineup,
    unique_labels,
)
from tiny_game import TinyGame, TinyState


class RoleTinyGame(TinyGame):
    """The tiny game with a summary naming each seat's role by its card parity."""

    SPEC = replace(TinyGame.SPEC, id="tiny-roles")

    def summary(self, state: TinyState) -> dict[str, Any]:
        return {"roles": ["even" if card % 2 == 0 else "odd" for card in state.cards]}


@pytest.fixture
def role_game() -> Any:
    register(RoleTinyGame)
    yield RoleTinyGame.SPEC.id
    unregister(RoleTinyGame.SPEC.id)


def _seatings(labels: list[str], players: int, games: range) -> Counter[tuple[str, int]]:
    """How often each label sat in each seat over ``games``."""
    return Counter((label, seat) for game in games for seat, label in enumerate(seat_lineup(labels, players, game)))


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (2, 3), (3, 2), (1, 4), (4, 4), (3, 4), (5, 3)])
def test_every_bot_sits_in_every_seat_equally_often_over_a_period(bots: int, players: int) -> None:
    labels = [f"bot{i}" for i in range(bots)]
    period = max(bots, players)
    seatings = Counter(
        (label, seat) for game in range(3 * period) for seat, label in enumerate(seat_lineup(labels, players, game))
    )
    for label in labels:
        counts = {seatings[(label, seat)] for seat in range(players)}
        assert len(counts) == 1 and counts != {0}


def test_fewer_bots_than_seats_are_cycled_to_fill_the_line_up() -> None:
    assert seat_lineup(["a", "b"], 3, 0) == ["a", "b", "a"]
    assert seat_lineup(["a", "b"], 3, 1) == ["b", "a", "a"]
    assert seat_lineup(["a", "b", "c"], 2, 2) == ["c", "a"]


def test_tournament_rotation_gives_every_bot_every_seat_equally() -> None:
    specs = ["ismcts:iterations=20", "random"]
    result = run_tournament("tiny-showdown", 3, specs, games=6, seed=1)
    for label in specs:
        per_seat = [tally.games for tally in result.bot_seats[label]]
        assert len(set(per_seat)) == 1
        assert sum(per_seat) == result.bots[label].games
    assert sum(result.bots[label].games for label in specs) == 6 * 3
    assert [tally.games for tally in result.seats] == [6, 6, 6]


def test_wins_and_returns_are_counted_from_the_records(tmp_path: Path) -> None:
    specs, games, seed = ["ismcts:iterations=20", "random"], 10, 3
    path = tmp_path / "records.jsonl"
    result = run_tournament("tiny-showdown", 2, specs, games, seed, records_path=path)
    records = [GameRecord.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == games
    assert [r.seed for r in records] == [derive_seed(seed, "game", i) for i in range(games)]
    assert [r.seats for r in records] == [seat_lineup(specs, 2, i) for i in range(games)]
    for label in specs:
        outcomes = [ret for r in records for name, ret in zip(r.seats, r.returns or [], strict=True) if name == label]
        assert result.bots[label].wins == sum(1 for ret in outcomes if ret == TinyGame.SPEC.max_utility)
        assert result.bots[label].mean_return == pytest.approx(sum(outcomes) / len(outcomes))


def test_same_seed_same_result_and_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    first = run_tournament(
        "tiny-showdown", 2, ["ismcts:iterations=20", "random"], 8, seed=9, progress=lambda *p: seen.append(p)
    )
    second = run_tournament("tiny-showdown", 2, ["ismcts:iterations=20", "random"], 8, seed=9)
    assert first == second
    assert seen == [(i, 8) for i in range(1, 9)]


def test_json_round_trip_keeps_every_field(role_game: str) -> None:
    result = run_tournament(role_game, 3, ["ismcts:iterations=20", "random", "random"], 9, seed=2)
    text = json.dumps(result.to_json())
    assert TournamentResult.from_json(json.loads(text)) == result
    assert json.loads(result.dumps())["bots"]["random#1"]["win_rate_ci95"] == list(result.bots["random#1"].win_interval)


def test_roles_from_the_game_summary_are_tallied(role_game: str) -> None:
    result = run_tournament(role_game, 2, ["ismcts:iterations=20", "random"], 20, seed=4)
    assert set(result.roles) <= {"even", "odd"} and result.roles
    assert sum(t.games for by_bot in result.roles.values() for t in by_bot.values()) == 20 * 2
    assert "even / " in format_table(result) or "odd / " in format_table(result)


def test_roles_come_from_the_game_summary() -> None:
    result = run_tournament("tiny-showdown", 2, ["random"], 20, seed=0)
    assert result.roles and all(key.startswith(("high", "low")) for key in result.roles)
    assert sum(t.games for per_bot in result.roles.values() for t in per_bot.values()) == 40
    assert " / " in format_table(result)


def test_openskill_ranks_the_strong_bot_above_the_weak_one() -> None:
    result = run_tournament("tiny-showdown", 2, ["ismcts:iterations=60", "random"], 120, seed=6)
    strong, weak = result.ratings["ismcts:iterations=60"], result.ratings["random"]
    assert strong.mu > weak.mu
    assert strong.ordinal > weak.ordinal
    table = format_table(result)
    assert table.index("ismcts:iterations=60") < table.index("\nrandom")


def test_truncated_games_are_counted_but_not_scored() -> None:
    result = empty_result("tiny-showdown", 2, {}, 0, ["a", "b"])
    record = GameRecord("tiny-showdown", "1", 2, {}, ["a", "b"], [1, 2], returns=None, truncated=True)
    add_record(result, record, ["a", "b"], max_utility=1.0)
    assert (result.games, result.truncated) == (1, 1)
    assert result.bots["a"].games == 0
    assert "1 truncated" in format_table(result)


def test_table_flags_an_incomplete_rotation_and_shows_every_bot() -> None:
    result = run_tournament("tiny-showdown", 3, ["random", "ismcts:iterations=10"], 4, seed=0)
    table = format_table(result)
    assert "rotation incomplete" in table
    assert "random" in table and "ismcts:iterations=10" in table and "95% CI" in table


def test_a_bad_bot_spec_fails_before_any_game() -> None:
    calls: list[tuple[int, int]] = []
    with pytest.raises(BotError):
        run_tournament("tiny-showdown", 2, ["random", "nobody"], 3, seed=0, progress=lambda *p: calls.append(p))
    assert calls == []


def test_duplicate_specs_get_numbered_labels() -> None:
    assert unique_labels(["random", "ismcts", "random"]) == ["random#1", "ismcts", "random#2"]
    with pytest.raises(BotError):
        unique_labels([])


def test_a_counted_entry_gives_one_bot_several_places() -> None:
    assert lineup_places(["ismcts:time=1", "heuristic*3"]) == (["ismcts:time=1", "heuristic"], [0, 1, 1, 1])
    assert lineup_places(["a*2", "b", "a"]) == (["a", "b", "a"], [0, 0, 1, 2])


@pytest.mark.parametrize("entry", ["random*0", "random*", "random*x", "*2", "random*-1", "random*1.5"])
def test_a_malformed_count_is_refused_before_any_game(entry: str) -> None:
    calls: list[tuple[int, int]] = []
    with pytest.raises(BotError, match="SPEC\\*COUNT"):
        run_tournament("tiny-showdown", 2, ["random", entry], 3, seed=0, progress=lambda *p: calls.append(p))
    assert calls == []


def test_one_against_the_rest_rotates_the_lone_bot_through_every_seat(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    specs = ["ismcts:iterations=10", "random*2"]
    result = run_tournament("tiny-showdown", 3, specs, games=6, seed=4, records_path=path)
    records = [GameRecord.loads(line) for line in path.read_text().splitlines()]
    assert [r.seats.count("ismcts:iterations=10") for r in records] == [1] * 6
    assert [r.seats.index("ismcts:iterations=10") for r in records] == [0, 2, 1, 0, 2, 1]
    assert result.labels == ["ismcts:iterations=10", "random"]
    assert result.lineup == ["ismcts:iterations=10", "random", "random"]
    assert (result.bots["ismcts:iterations=10"].games, result.bots["random"].games) == (6, 12)
    assert [t.games for t in result.bot_seats["ismcts:iterations=10"]] == [2, 2, 2]
    assert result.rotation_period == 3
    assert TournamentResult.from_json(json.loads(result.dumps())) == result
    resumed = run_tournament("tiny-showdown", 3, specs, games=6, seed=4, records_path=path, resume=True)
    assert resumed == result


def test_a_result_without_a_line_up_reads_as_its_labels() -> None:
    result = empty_result("tiny-showdown", 2, {}, 0, ["a", "b"])
    data = result.to_json()
    assert data["lineup"] == ["a", "b"]
    del data["lineup"]
    assert TournamentResult.from_json(data) == result


def test_rank_by_return_shares_ranks_on_ties() -> None:
    assert rank_by_return([1.0, 0.0, 1.0, 0.5]) == [1, 4, 1, 3]


def test_game_options_are_passed_to_the_game_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    result = run_tournament("tiny-showdown", 2, ["random"], 3, seed=0, options={"rounds": 1}, records_path=path)
    assert result.options == {"rounds": 1}
    assert all(len(GameRecord.loads(line).actions) == 2 + 2 for line in path.read_text().splitlines())


def test_from_json_rejects_other_documents() -> None:
    with pytest.raises(ValueError):
        TournamentResult.from_json({"format": "something-else"})


@given(bots=st.integers(1, 6), players=st.integers(1, 6), start=st.integers(0, 1000))
def test_any_full_period_of_games_seats_each_bot_equally(bots: int, players: int, start: int) -> None:
    labels = [f"bot{i}" for i in range(bots)]
    period = max(bots, players)
    seatings = Counter(
        (label, seat)
        for game in range(start, start + period)
        for seat, label in enumerate(seat_lineup(labels, players, game))
    )
    for label in labels:
        assert len({seatings[(label, seat)] for seat in range(players)}) == 1
    assert sum(seatings.values()) == period * players


# -- workers and resume ------------------------------------------------------------------------

TOURNAMENT: dict[str, Any] = {
    "game_id": "tiny-showdown",
    "players": 3,
    "bot_specs": ["ismcts:iterations=10", "random", "random"],
    "games": 12,
    "seed": 21,
}


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file that gets ``pid index`` for every game played from now on, in any process."""
    log = tmp_path / "played.txt"
    log.touch()
    real = tournament_module.play_indexed

    def spy(*args: Any, **kwargs: Any) -> GameRecord:
        record = real(*args, **kwargs)
        with log.open("a") as stream:
            stream.write(f"{os.getpid()} {record.metadata['index']}\n")
        return record

    monkeypatch.setattr(tournament_module, "play_indexed", spy)
    return log


def _played(log: Path) -> list[tuple[int, int]]:
    return [(int(pid), int(index)) for pid, index in (line.split() for line in log.read_text().splitlines())]


def _indices(path: Path) -> list[int]:
    return [GameRecord.loads(line).metadata["index"] for line in path.read_text().splitlines()]


def test_two_workers_give_the_same_result_and_records_as_one(tmp_path: Path, played: Path) -> None:
    serial = run_tournament(**TOURNAMENT, records_path=tmp_path / "serial.jsonl")
    progress: list[tuple[int, int]] = []
    parallel = run_tournament(
        **TOURNAMENT, records_path=tmp_path / "parallel.jsonl", workers=2, progress=lambda *p: progress.append(p)
    )
    assert parallel.dumps() == serial.dumps()
    assert (tmp_path / "parallel.jsonl").read_text() == (tmp_path / "serial.jsonl").read_text()
    assert progress == [(i, 12) for i in range(1, 13)]
    pids = {pid for pid, _ in _played(played)[12:]}
    assert os.getpid() not in pids and len(pids) <= 2, "workers=2 plays in two other processes"


@pytest.mark.parametrize("workers", [1, 2])
def test_each_record_is_on_disk_before_its_game_is_counted(tmp_path: Path, workers: int) -> None:
    path = tmp_path / "games.jsonl"
    lines_seen: list[int] = []
    run_tournament(
        **TOURNAMENT, records_path=path, workers=workers, progress=lambda done, total: lines_seen.append(_lines(path))
    )
    assert lines_seen == list(range(1, 13))


def _lines(path: Path) -> int:
    return path.read_text().count("\n")


@pytest.mark.parametrize("workers", [1, 2])
def test_resume_after_a_kill_plays_only_the_missing_games(tmp_path: Path, played: Path, workers: int) -> None:
    full_path, path = tmp_path / "full.jsonl", tmp_path / "resumed.jsonl"
    full = run_tournament(**TOURNAMENT, records_path=full_path)
    lines = full_path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:7]) + lines[7][: len(lines[7]) // 2])  # 7 games and a torn line
    played.write_text("")
    progress: list[tuple[int, int]] = []
    resumed = run_tournament(
        **TOURNAMENT, records_path=path, workers=workers, resume=True, progress=lambda *p: progress.append(p)
    )
    assert resumed.dumps() == full.dumps()
    assert path.read_text() == full_path.read_text()
    assert _indices(path) == list(range(12))
    assert sorted(index for _, index in _played(played)) == list(range(7, 12))
    assert progress == [(i, 12) for i in range(1, 13)]


def test_resume_of_a_finished_tournament_plays_nothing(tmp_path: Path, played: Path) -> None:
    path = tmp_path / "games.jsonl"
    full = run_tournament(**TOURNAMENT, records_path=path)
    text = path.read_text()
    played.write_text("")
    again = run_tournament(**TOURNAMENT, records_path=path, resume=True, workers=2)
    assert again.dumps() == full.dumps()
    assert path.read_text() == text and _played(played) == []


def test_resume_to_more_games_continues_and_fewer_is_refused(tmp_path: Path) -> None:
    path, longer = tmp_path / "games.jsonl", tmp_path / "longer.jsonl"
    run_tournament(**TOURNAMENT, records_path=path)
    wanted = run_tournament(**{**TOURNAMENT, "games": 15}, records_path=longer)
    assert run_tournament(**{**TOURNAMENT, "games": 15}, records_path=path, resume=True).dumps() == wanted.dumps()
    assert path.read_text() == longer.read_text()
    with pytest.raises(RecordError, match="more than the 12 games"):
        run_tournament(**TOURNAMENT, records_path=path, resume=True)
    assert path.read_text() == longer.read_text()


def test_resume_without_a_records_file_starts_it(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    result = run_tournament(**TOURNAMENT, records_path=path, resume=True)
    assert result.dumps() == run_tournament(**TOURNAMENT).dumps()
    assert _indices(path) == list(range(12))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": 22}, "seed"),
        ({"options": {"rounds": 1}}, "options"),
        ({"bot_specs": ["random", "ismcts:iterations=10", "random"]}, "seats"),
        ({"bot_specs": ["ismcts:iterations=11", "random", "random"]}, "seats"),
        ({"players": 2}, "players"),
        ({"game_id": "tiny-roles"}, "game"),
    ],
)
def test_resume_refuses_records_of_another_tournament(
    tmp_path: Path, role_game: str, change: dict[str, Any], field: str
) -> None:
    path = tmp_path / "other.jsonl"
    run_tournament(**{**TOURNAMENT, **change, "games": 3}, records_path=path)
    path.write_bytes(path.read_bytes() + b'{"format": "shadowtable-rec')  # torn: must not be cut either
    before = path.read_bytes()
    with pytest.raises(RecordError, match=f"line 1 is not game 0 of this tournament \\({field} "):
        run_tournament(**TOURNAMENT, records_path=path, resume=True)
    assert path.read_bytes() == before


def test_resume_refuses_records_out_of_order_or_without_an_index(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    run_tournament(**{**TOURNAMENT, "games": 3}, records_path=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[2] + lines[1])
    with pytest.raises(RecordError, match="line 2 is not game 1 of this tournament"):
        run_tournament(**TOURNAMENT, records_path=path, resume=True)
    assert path.read_text() == lines[0] + lines[2] + lines[1]
    data = json.loads(lines[0])
    del data["metadata"]["index"]
    path.write_text(json.dumps(data) + "\n")
    with pytest.raises(RecordError, match="index None, expected 0"):
        run_tournament(**TOURNAMENT, records_path=path, resume=True)


def test_resume_needs_a_records_file_and_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="resume needs a records file"):
        run_tournament(**TOURNAMENT, resume=True)
    with pytest.raises(ValueError, match="workers must be >= 1"):
        run_tournament(**TOURNAMENT, workers=0)
