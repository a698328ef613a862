"""Would a recalibration map that depends on the phase of the game calibrate better?

    python benchmarks/analysis_phase_map.py \
        --fit docs/results/analysis-recalibration-fit-shadowlord-3p-pairs.jsonl \
        --held docs/results/analysis-calibration-shadowlord-3p-pairs.jsonl

Reads the (chance of the choice made, won) pairs of a fit run and a held-out run of
``benchmarks/analysis_calibration.py`` and, for the raw chances by phase (the decision's step,
which every seat sees) and for three maps fitted on the fit pairs alone, prints the held-out
Brier score and calibration slope:

- ``a·x + b`` (the stored map's form), with ``x = logit(p)`` kept half a sample inside (0, 1);
- ``(a + c·t)·x + b``, where ``t = min(step / T, 1)`` is the phase;
- ``(a + c·t)·x + b + d·t``.

``T`` is each of ``--horizons``. Nothing is stored: the map in use is
``src/shadowtable/analysis/calibration.json``'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from analysis_calibration import read_pairs  # benchmarks/analysis_calibration.py, beside this script

from shadowtable.analysis.calibration import clipped_logit, fit_logistic

MAPS = (("a·x + b", [0, 2]), ("(a + c·t)·x + b", [0, 1, 2]), ("(a + c·t)·x + b + d·t", [0, 1, 2, 3]))
PHASES = ((0, 150), (150, 250), (250, 350), (350, 500), (500, None))


def features(pairs: Sequence[dict[str, Any]], horizon: float) -> np.ndarray[Any, Any]:
    """Columns ``x, t·x, 1, t`` per pair."""
    x = np.array([clipped_logit(p["after"], p["samples"]) for p in pairs])
    t = np.minimum(np.array([p["ply"] for p in pairs], dtype=float) / horizon, 1.0)
    return np.column_stack([x, t * x, np.ones_like(x), t])


def fit(columns: np.ndarray[Any, Any], won: np.ndarray[Any, Any], iterations: int = 100) -> np.ndarray[Any, Any]:
    """Logistic-regression weights by Newton's method (the first weight starts at 1)."""
    weights = np.zeros(columns.shape[1])
    weights[0] = 1.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-columns @ weights))
        hessian = columns.T @ (columns * (p * (1.0 - p))[:, None])
        step = np.linalg.solve(hessian, columns.T @ (won - p))
        weights = weights + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return weights


def score(chances: np.ndarray[Any, Any], won: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Brier score and calibration slope of ``chances`` (already inside (0, 1))."""
    brier = float(np.mean((chances - won) ** 2))
    slope, _ = fit_logistic(list(np.log(chances / (1.0 - chances))), [bool(w) for w in won])
    return brier, slope


def by_phase(pairs: Sequence[dict[str, Any]]) -> list[str]:
    """Raw calibration slope per phase of the game."""
    rows = []
    for low, high in PHASES:
        part = [p for p in pairs if p["ply"] >= low and (high is None or p["ply"] < high)]
        x = [clipped_logit(p["after"], p["samples"]) for p in part]
        slope, _ = fit_logistic(x, [bool(p["won"]) for p in part])
        rows.append(f"| {low}-{high if high is not None else ''} | {len(part)} | {slope:.2f} |")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Print the raw slopes by phase and the held-out scores of the three maps."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", type=Path, required=True, help="pairs file of the fit seeds")
    parser.add_argument("--held", type=Path, required=True, help="pairs file of the held-out seeds")
    parser.add_argument("--horizons", type=float, nargs="+", default=[300.0, 400.0, 500.0])
    args = parser.parse_args(argv)
    fit_pairs, held_pairs = read_pairs(args.fit)[0], read_pairs(args.held)[0]
    for name, pairs in (("fit", fit_pairs), ("held out", held_pairs)):
        print(f"\nraw slope by step, {name} ({len(pairs)} pairs)\n\n| steps | pairs | slope |\n|---|---|---|")
        print("\n".join(by_phase(pairs)))
    won_fit = np.array([float(p["won"]) for p in fit_pairs])
    won_held = np.array([float(p["won"]) for p in held_pairs])
    print("\n| map | T | held-out Brier | held-out slope | weights |\n|---|---|---|---|---|")
    for horizon in args.horizons:
        train, test = features(fit_pairs, horizon), features(held_pairs, horizon)
        for label, cols in MAPS:
            weights = fit(train[:, cols], won_fit)
            chances = 1.0 / (1.0 + np.exp(-test[:, cols] @ weights))
            brier, slope = score(chances, won_held)
            shown = ", ".join(f"{w:.3f}" for w in weights)
            print(f"| {label} | {horizon:g} | {brier:.4f} | {slope:.2f} | {shown} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
