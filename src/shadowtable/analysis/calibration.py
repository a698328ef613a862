"""The recalibration of the analysis's win chances: per game and player count, a logistic map.

The rollout policy's win rates are too extreme (docs/analysis.md, "Calibration"):
``benchmarks/analysis_calibration.py --fit`` fits ``p' = sigmoid(a logit(p) + b)`` to
(reported chance, won) pairs from bot games on seeds kept for fitting, and stores ``a`` and ``b``
in ``calibration.json`` beside this module, under ``"GAME/PLAYERS"``, with the seeds and counts
they came from. A game without a map keeps its raw chances.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


def sigmoid(x: float) -> float:
    """The logistic function, safe for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def clipped_logit(p: float, samples: int) -> float:
    """``logit(p)`` with ``p`` kept half a sample's share inside (0, 1): a share of ``samples``
    draws is never exactly certain, so 0/16 is read as 1/34 and 16/16 as 33/34."""
    margin = 1.0 / (2.0 * (max(samples, 1) + 1))
    q = min(max(p, margin), 1.0 - margin)
    return math.log(q / (1.0 - q))


def fit_logistic(x: Sequence[float], y: Sequence[bool], iterations: int = 50) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of ``y`` under ``sigmoid(a x + b)`` (Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(iterations):
        ga = gb = haa = hab = hbb = 0.0
        for xi, yi in zip(x, y, strict=True):
            p = sigmoid(a * xi + b)
            r = float(yi) - p
            w = p * (1.0 - p)
            ga += r * xi
            gb += r
            haa += w * xi * xi
            hab += w * xi
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


@cache
def load_maps(path: Path = CALIBRATION_FILE) -> dict[str, Any]:
    """The stored maps, by ``"GAME/PLAYERS"`` (empty when there is no file)."""
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def calibrated(p: float, samples: int, game: str, players: int, exact: bool = False) -> float:
    """The chance ``p`` (a share of ``samples`` rollouts) through the map of ``game`` at
    ``players``; unchanged for a game without a map and for an ``exact`` chance (every sample
    ended the game at once, so no rollout policy was involved)."""
    entry = load_maps().get(f"{game}/{players}")
    if entry is None or exact:
        return p
    return sigmoid(entry["a"] * clipped_logit(p, samples) + entry["b"])
