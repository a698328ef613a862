"""Sweeps: the same batch over a grid of game options, and how each point changes the balance."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.sim.balance import GroupStats, group_records
from shadowtable.sim.parallel import BatchJob, run_batch


@dataclass
class SweepPoint:
    """One grid point: its options and the statistics of its batch."""

    options: dict[str, Any]
    stats: GroupStats

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options, "stats": self.stats.to_json()}


def parse_grid(settings: Sequence[str]) -> dict[str, list[Any]]:
    """``["repair_start=5,6,8", "variant=a,b"]`` to ``{"repair_start": [5, 6, 8], ...}`` (JSON values)."""
    grid: dict[str, list[Any]] = {}
    for setting in settings:
        name, sep, values = setting.partition("=")
        if not sep or not name or not values:
            raise ValueError(f"bad --set {setting!r}; expected name=value1,value2,...")
        grid[name] = [_value(v) for v in values.split(",")]
    return grid


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values."""
    names = list(grid)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(grid[n] for n in names))]


def run_sweep(
    game: str,
    players: int,
    bot_specs: Sequence[str],
    games: int,
    seed: int,
    grid: Mapping[str, Sequence[Any]],
    *,
    base_options: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> list[SweepPoint]:
    """One batch per grid point, all with the same master seed (common random numbers)."""
    points = []
    for options in grid_points(grid):
        merged = {**dict(base_options or {}), **options}
        records = run_batch(BatchJob(game, players, tuple(bot_specs), games, seed, merged), workers=workers)
        points.append(SweepPoint(options, group_records(records)[0]))
    return points


def format_sweep(points: Sequence[SweepPoint]) -> str:
    """A plain-text table: per grid point, win rate by role (or seat) and the commonest end."""
    lines = []
    for point in points:
        stats = point.stats
        label = ", ".join(f"{k}={v}" for k, v in point.options.items())
        tallies = stats.by_role or {f"seat {s}": t for s, t in stats.by_seat.items()}
        rates = "  ".join(f"{name} {t.rate:.1%}" for name, t in sorted(tallies.items()))
        ends = ", ".join(f"{reason} {n / stats.games:.0%}" for reason, n in stats.endings.most_common(3))
        lines.append(f"{label}: {stats.games} games; {rates}; ends: {ends}")
    return "\n".join(lines)
