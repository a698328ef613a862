"""CSV and Parquet exports of records."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from shadowtable.cli import main
from shadowtable.core.records_io import iter_records


def _records(tmp_path: Path) -> Path:
    path = tmp_path / "games.jsonl"
    main(["simulate", "tiny-showdown", "--players", "3", "--games", "8", "--out", str(path), "--workers", "1"])
    return path


def test_csv_has_one_row_per_game_and_seat(tmp_path: Path) -> None:
    records = _records(tmp_path)
    out = tmp_path / "games.csv"
    assert main(["export", str(records), "--out", str(out)]) == 0
    with open(out, newline="") as stream:
        table = list(csv.DictReader(stream))
    assert len(table) == 24
    first = next(iter_records(records))
    assert [float(r["return"]) for r in table[:3]] == first.returns
    assert [r["role"] for r in table[:3]] == first.metadata["roles"]


def test_parquet_round_trips_when_pyarrow_is_installed(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "games.parquet"
    assert main(["export", str(_records(tmp_path)), "--out", str(out)]) == 0
    assert pq.read_table(out).num_rows == 24


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    assert main(["export", str(_records(tmp_path)), "--out", str(tmp_path / "x.xlsx")]) == 2
