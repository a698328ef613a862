"""Plot a training run's win rates over iterations (from its progress.csv) as a PNG.

    python scripts/learning_curves.py runs/sp4/progress.csv --out docs/rl/learning-sp4.png [--force]

Each evaluation's win rate is drawn with its 95% Wilson interval (``--eval-games`` games each).
Needs matplotlib (the ``[report]`` extra).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from shadowtable.sim.stats import wilson_interval  # noqa: E402


def default_title(progress: Path) -> str:
    """ "GAME, N players" from the run's settings beside ``progress`` (a run folder's settings.json or,
    for ``docs/results/train-X-progress.csv``, ``train-X-settings.json``); else the folder's name."""
    name = progress.name
    settings = progress.with_name(
        name[: -len("progress.csv")] + "settings.json" if name.endswith("-progress.csv") else "settings.json"
    )
    try:
        data = json.loads(settings.read_text(encoding="utf-8"))
        return f"{data['game']}, {data['players']} players"
    except (OSError, ValueError, KeyError, TypeError):
        return progress.parent.name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("progress", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=100, help="games per evaluation (the run's --eval-games)")
    parser.add_argument("--title", default="")
    parser.add_argument("--force", action="store_true", help="replace an existing --out file")
    args = parser.parse_args()
    if args.out.exists() and not args.force:
        print(f"error: {args.out} exists; pass --force to replace it", file=sys.stderr)
        return 2
    try:
        with open(args.progress, newline="", encoding="utf-8") as stream:
            rows = list(csv.DictReader(stream))
        if rows and "iteration" not in rows[0]:
            raise ValueError("no iteration column")
    except (OSError, UnicodeDecodeError, csv.Error, ValueError) as exc:
        print(f"error: {args.progress} is not a progress.csv written by shadowtable train ({exc})", file=sys.stderr)
        return 2
    columns = [c for c in (rows[0] if rows else {}) if c.startswith("win_vs_")]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for column in columns:
        points = [(int(r["iteration"]), float(r[column])) for r in rows if r[column] != ""]
        if not points:
            continue
        x = [p[0] for p in points]
        y = [p[1] for p in points]
        low, high = zip(*(wilson_interval(round(rate * args.games), args.games) for rate in y), strict=True)
        axes.plot(x, y, marker="o", markersize=3, label=f"against {column[len('win_vs_') :]}")
        axes.fill_between(x, low, high, alpha=0.2)
    axes.set_xlabel("iteration")
    axes.set_ylabel("win rate (one seat, others the opponent)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend()
    axes.set_title(args.title or default_title(args.progress))
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
