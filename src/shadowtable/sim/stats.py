"""Rates, confidence intervals and the one win tally of simulation reports (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any


def rate(successes: int, trials: int) -> float:
    """``successes / trials``, or 0.0 when there were no trials."""
    _check_counts(successes, trials)
    return successes / trials if trials else 0.0


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean, or 0.0 for no values."""
    return math.fsum(values) / len(values) if values else 0.0


def z_score(confidence: float) -> float:
    """The two-sided standard-normal quantile for ``confidence`` (1.959964 for 0.95)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; ``(0.0, 1.0)`` for no trials.

    Unlike the normal ("Wald") interval it stays inside ``[0, 1]`` and is sensible at 0 or all
    successes and for small samples.
    """
    _check_counts(successes, trials)
    if trials == 0:
        return 0.0, 1.0
    z = z_score(confidence)
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2.0 * trials)) / denominator
    half_width = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half_width)  # exact ends, no rounding residue
    high = 1.0 if successes == trials else min(1.0, centre + half_width)
    return low, high


def _check_counts(successes: int, trials: int) -> None:
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")


@dataclass
class WinTally:
    """Seat-games played, wins and summed return for one seat, bot or role."""

    games: int = 0
    wins: int = 0
    return_sum: float = 0.0

    def add(self, won: bool, value: float = 0.0) -> None:
        """Count one seat-game."""
        self.games += 1
        self.wins += int(won)
        self.return_sum += value

    @property
    def win_rate(self) -> float:
        """Wins per seat-game."""
        return rate(self.wins, self.games)

    @property
    def mean_return(self) -> float:
        """Mean return per seat-game."""
        return self.return_sum / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """95% Wilson confidence interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        """Counts plus the derived rate, interval and mean (ignored when read back)."""
        low, high = self.win_interval
        return {
            "games": self.games,
            "wins": self.wins,
            "return_sum": self.return_sum,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
            "mean_return": self.mean_return,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinTally:
        """Rebuild from :meth:`to_json` output."""
        return cls(games=int(data["games"]), wins=int(data["wins"]), return_sum=float(data["return_sum"]))
