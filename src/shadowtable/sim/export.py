"""Flat tables of game records: one row per game and seat, as CSV or Parquet (pyarrow)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from shadowtable.core.errors import MissingExtraError
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import game_class
from shadowtable.sim.summaries import record_roles

COLUMNS = (
    "index", "game", "version", "players", "seed", "seat", "bot", "role",
    "return", "won", "truncated", "rounds", "end_reason", "actions",
)  # fmt: skip


def rows(records: Iterable[GameRecord]) -> Iterator[dict[str, Any]]:
    """One row per game and seat."""
    for record in records:
        meta = record.metadata
        roles: list[Any] = record_roles(record) or [None] * record.players
        best = game_class(record.game).SPEC.max_utility
        returns = record.returns or [0.0] * record.players
        for seat in range(record.players):
            yield {
                "index": meta.get("index"),
                "game": record.game,
                "version": record.version,
                "players": record.players,
                "seed": record.seed,
                "seat": seat,
                "bot": record.seats[seat],
                "role": roles[seat] if seat < len(roles) else None,
                "return": returns[seat],
                "won": returns[seat] >= best and not record.truncated,
                "truncated": record.truncated,
                "rounds": meta.get("rounds", meta.get("turns")),
                "end_reason": meta.get("end_reason"),
                "actions": len(record.actions),
            }


def write_csv(records: Iterable[GameRecord], out: Path) -> int:
    """Write the rows as CSV; returns the row count."""
    count = 0
    with open(out, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows(records):
            writer.writerow(row)
            count += 1
    return count


def require_pyarrow() -> tuple[Any, Any]:
    """``(pyarrow, pyarrow.parquet)``; :class:`MissingExtraError` when pyarrow is not installed."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise MissingExtraError("Parquet output needs pyarrow, which is not installed: pip install pyarrow") from exc
    return pyarrow, pyarrow.parquet


def write_parquet(records: Iterable[GameRecord], out: Path) -> int:
    """Write the rows as Parquet (needs pyarrow); returns the row count."""
    pa, pq = require_pyarrow()
    table_rows = list(rows(records))
    columns = {name: [row[name] for row in table_rows] for name in COLUMNS}
    pq.write_table(pa.table(columns), out)
    return len(table_rows)
