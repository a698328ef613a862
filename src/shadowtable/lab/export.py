"""A lab run's rows as flat tables: one row per game and seat, as CSV or Parquet (pyarrow)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from shadowtable.sim.export import require_pyarrow

COLUMNS = (
    "arm", "label", "index", "seed", "seat", "bot", "role", "objective",
    "return", "won", "truncated", "rounds", "actions", "end_reason",
)  # fmt: skip


def seat_rows(rows: Iterable[Mapping[str, Any]], labels: Mapping[int, str]) -> Iterator[dict[str, Any]]:
    """One table row per game and seat; ``labels`` names each arm."""
    for row in rows:
        roles = row.get("roles") or [None] * len(row["wins"])
        objectives = row.get("objectives") or [None] * len(row["wins"])
        for seat, won in enumerate(row["wins"]):
            yield {
                "arm": row["arm"],
                "label": labels.get(int(row["arm"]), ""),
                "index": row["index"],
                "seed": row["seed"],
                "seat": seat,
                "bot": row["bots"][seat],
                "role": roles[seat],
                "objective": objectives[seat],
                "return": float(row["returns"][seat]),
                "won": bool(won),
                "truncated": bool(row["truncated"]),
                "rounds": row["rounds"],
                "actions": row["actions"],
                "end_reason": row["end_reason"],
            }


def rows_csv(rows: Iterable[Mapping[str, Any]], out: Path, labels: Mapping[int, str] | None = None) -> int:
    """Write the rows as CSV, one line per game and seat; returns the line count."""
    count = 0
    with open(out, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS)
        writer.writeheader()
        for row in seat_rows(rows, labels or {}):
            writer.writerow(row)
            count += 1
    return count


def rows_parquet(rows: Iterable[Mapping[str, Any]], out: Path, labels: Mapping[int, str] | None = None) -> int:
    """Write the rows as Parquet (needs pyarrow), one row per game and seat; returns the row count."""
    pa, pq = require_pyarrow()
    table_rows = list(seat_rows(rows, labels or {}))
    columns = {name: [row[name] for row in table_rows] for name in COLUMNS}
    pq.write_table(pa.table(columns), out)
    return len(table_rows)
