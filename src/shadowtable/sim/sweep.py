"""Sweeps: the same batch over a grid of game options, and how each point changes the balance."""

from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from shadowtable.core.errors import ContentError, InvalidOptionError
from shadowtable.core.keyvalue import read_value, split_pair
from shadowtable.core.registry import game_class
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
    """``["repair_start=5,6,8", "variant=a,b"]`` to ``{"repair_start": [5, 6, 8], ...}``.

    Values are read as game options are (:func:`shadowtable.core.keyvalue.read_value`); a bad
    setting raises :class:`InvalidOptionError`."""
    grid: dict[str, list[Any]] = {}
    for setting in settings:
        name, values = split_pair(setting, what="--set", expected="name=value1,value2,...")
        if not values:
            raise InvalidOptionError(f"bad --set {setting!r}; expected name=value1,value2,...")
        grid[name] = [read_value(v, what=f"--set {name}") for v in values.split(",")]
    return grid


def grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values."""
    names = list(grid)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(grid[n] for n in names))]


CONTENT_PREFIX = "content."
"""Grid keys under this prefix set a value inside the game's content file (a dotted JSON path)."""


def builtin_content_path(game: str) -> Path:
    """The built-in content file of ``game`` (``data/content.json`` beside its package)."""
    package = game_class(game).__module__.rsplit(".", 1)[0]
    return Path(str(resources.files(package).joinpath("data/content.json")))


def set_json_path(data: Any, dotted: str, value: Any) -> None:
    """Set ``data[a][b][...] = value`` for ``dotted`` = ``"a.b..."``; list indices are numbers.

    Raises :class:`ContentError` if the path does not exist (a sweep never invents fields).
    """
    *parents, last = dotted.split(".")
    node = data
    for key in [*parents, last]:
        container = node
        if isinstance(container, list) and key.isdigit() and int(key) < len(container):
            index: Any = int(key)
        elif isinstance(container, dict) and key in container:
            index = key
        else:
            raise ContentError(f"content path {dotted!r}: no {key!r} there")
        if key == last:
            container[index] = value
        else:
            node = container[index]


def content_variant(game: str, base: str | None, changes: Mapping[str, Any], folder: Path) -> str:
    """Write the content file with ``changes`` applied into ``folder``; returns its path."""
    data = json.loads(Path(base or builtin_content_path(game)).read_text(encoding="utf-8"))
    for dotted, value in changes.items():
        set_json_path(data, dotted, value)
    name = "-".join(f"{k}={v}" for k, v in changes.items())
    path = folder / f"content-{abs(hash(name)) % 10**8}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def point_options(game: str, point: Mapping[str, Any], base_options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """The game options of one grid point: plain options as given, content keys as a content file."""
    options = {**base_options, **{k: v for k, v in point.items() if not k.startswith(CONTENT_PREFIX)}}
    changes = {k[len(CONTENT_PREFIX) :]: v for k, v in point.items() if k.startswith(CONTENT_PREFIX)}
    if changes:
        options["content"] = content_variant(game, base_options.get("content"), changes, folder)
    return options


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
    """One batch per grid point, all with the same master seed (common random numbers).

    Grid keys ``content.<dotted.path>`` change a value of the game's content file (for example
    ``content.indicators.repair.start.4`` for The Shadow Planet's 4-player Repair start, or
    ``content.timer.notches`` for Shadowlord!'s timer); each such point plays with a modified
    copy of the content, validated by the game like any user content file.
    """
    points = []
    with tempfile.TemporaryDirectory(prefix="shadowtable-sweep-") as folder:
        for point in grid_points(grid):
            options = point_options(game, point, dict(base_options or {}), Path(folder))
            records = run_batch(BatchJob(game, players, tuple(bot_specs), games, seed, options), workers=workers)
            points.append(SweepPoint(point, group_records(records)[0]))
    return points


def format_sweep(points: Sequence[SweepPoint]) -> str:
    """A plain-text table: per grid point, win rate by role (or seat) and the commonest end."""
    lines = []
    for point in points:
        stats = point.stats
        label = ", ".join(f"{k}={v}" for k, v in point.options.items())
        tallies = stats.by_role or {f"seat {s}": t for s, t in stats.by_seat.items()}
        rates = "  ".join(f"{name} {t.win_rate:.1%}" for name, t in sorted(tallies.items()))
        ends = ", ".join(f"{reason} {n / stats.games:.0%}" for reason, n in stats.endings.most_common(3))
        lines.append(f"{label}: {stats.games} games; {rates}; ends: {ends}")
    return "\n".join(lines)
