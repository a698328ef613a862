"""The baseline arm is `shadowtable simulate` with the same seed: the same games, the same figures."""

from __future__ import annotations

import json
from pathlib import Path

from tests.lab.helpers import planet_spec

from shadowtable.cli import main
from shadowtable.core.records_io import iter_records
from shadowtable.lab.run import play_game_row, replay_record
from shadowtable.lab.spec import check_spec
from shadowtable.lab.store import run_lab
from shadowtable.sim.balance import group_records
from shadowtable.sim.summary import summarize

GAMES = 6
SEED = 23


RATE_KEYS = ("games", "wins", "win_rate", "win_rate_ci95")


def rates(tallies: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """The win counts, rates and intervals of each tally (the report does not sum returns)."""
    return {name: {key: tally[key] for key in RATE_KEYS} for name, tally in tallies.items()}


def test_baseline_figures_equal_simulate_and_report_stats(tmp_path: Path) -> None:
    records_file = tmp_path / "games.jsonl"
    assert main(["simulate", "shadow-planet", "--players", "3", "--games", str(GAMES), "--seed", str(SEED),
                 "--bots", "random", "--workers", "1", "--no-progress", "--out", str(records_file)]) == 0  # fmt: skip
    records = list(iter_records(records_file))
    stats = group_records(records)[0].to_json()
    summary = summarize(records)
    spec = check_spec(planet_spec(games=GAMES, seed=SEED))
    figures = run_lab(spec, tmp_path / "lab")["arms"][0]

    for key in ("by_seat", "by_role", "by_bot"):
        assert rates(figures[key]) == rates(stats[key]) and stats[key]
    assert {reason: end["games"] for reason, end in figures["end_reasons"].items()} == stats["endings"]
    assert figures["rounds"]["mean"] == stats["mean_length"]
    assert figures["first_player"]["edge"] == stats["first_player_edge"]
    assert figures["actions"]["median"] == summary.median_length
    assert figures["actions"]["mean"] == summary.mean_length
    assert [s.wins for s in summary.seats] == [figures["by_seat"][str(s.seat)]["wins"] for s in summary.seats]

    replayed = replay_record(spec, 0, GAMES - 1, tmp_path / "lab" / "content")
    assert replayed == records[GAMES - 1]
    assert replayed.dumps() == records_file.read_text().splitlines()[GAMES - 1]


def test_rows_are_small_json_without_actions(tmp_path: Path) -> None:
    spec = check_spec(planet_spec(games=2))
    run_lab(spec, tmp_path)
    for line in (tmp_path / "rows.jsonl").read_text().splitlines():
        row = json.loads(line)
        assert "actions" in row and isinstance(row["actions"], int)
        assert len(line) < 600


def test_a_row_says_what_its_length_counts() -> None:
    spec = check_spec({**planet_spec(games=1), "game": "shadowlord", "players": 2})
    row = play_game_row(spec.to_json(), 0, 0)
    record = replay_record(spec, 0, 0)
    assert (row["length_unit"], row["rounds"]) == ("turns", record.metadata["turns"])
    assert play_game_row(planet_spec(games=1), 0, 0)["length_unit"] == "rounds"
