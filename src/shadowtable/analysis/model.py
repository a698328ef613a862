"""The analysis of a finished game as typed, JSON-able data: settings, decisions, seat summaries."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Label = Literal["inaccuracy", "mistake", "blunder"]

DEFAULT_THRESHOLDS = (0.05, 0.10, 0.15)
"""Lost win chance (as a fraction) from which a decision is an inaccuracy, a mistake, a blunder:
lichess's 5, 10 and 15 points, pending a calibration of the chances for these games."""

DEFAULT_ROLLOUTS = 16
"""Rollouts per legal alternative at each decision (each on its own determinization)."""

MIN_LABEL_SAMPLES = 4
"""Samples a decision needs before it is labelled: with fewer (a tight budget) every chance is
0%, 50% or 100% and a label would be noise."""


@dataclass(frozen=True)
class AnalysisSettings:
    """How an analysis is run.

    ``seat``: the seat whose decisions are analysed (``None``: every seat).
    ``rollouts``: determinizations (one rollout each) per alternative at each decision.
    ``budget``: optional seconds for the whole analysis, shared evenly by the decisions left;
    a decision stops sampling when its share is spent (at least one sample each). With a budget
    the result depends on the machine's speed, so it is not reproducible.
    ``seed``: every random stream derives from it (and from the seat and its decision number).
    ``policy``: the bot spec every seat plays in rollouts (``heuristic``, ``random``, ...).
    ``thresholds``: lost win chance for an inaccuracy, a mistake and a blunder, as fractions.
    """

    seat: int | None = None
    rollouts: int = DEFAULT_ROLLOUTS
    budget: float | None = None
    seed: int = 0
    policy: str = "heuristic"
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS


@dataclass(frozen=True)
class Alternative:
    """One legal choice at a decision, in the seat's words, and its estimated chance of winning."""

    action: int
    text: str
    chance: float
    samples: int


@dataclass(frozen=True)
class DecisionAnalysis:
    """One decision of one seat.

    ``chance_before``: the seat's chance of winning with its best choice (the position's value to
    it). ``chance_after``: the chance after the choice it made. ``lost``: their difference (never
    negative). ``best``: the best alternative (ties: the chosen one, else the lowest action id).
    """

    seat: int
    number: int
    ply: int
    action: int
    text: str
    chance_before: float
    chance_after: float
    lost: float
    best: Alternative
    label: Label | None
    alternatives: list[Alternative]
    words: str


@dataclass(frozen=True)
class SeatSummary:
    """One seat's game: decisions analysed, labels counted, and its accuracy (0-100).

    ``accuracy``: 100 times one minus the mean lost win chance over the seat's analysed decisions
    (100 when it had no choice to make).
    """

    seat: int
    name: str
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float
    won: bool | None


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one record: the settings, each analysed decision, each seat's summary."""

    game: str
    version: str
    players: int
    settings: AnalysisSettings
    decisions: list[DecisionAnalysis] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)
    format: str = "shadowtable-analysis/1"

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON data."""
        data = asdict(self)
        data["settings"]["thresholds"] = list(self.settings.thresholds)
        return data


def label_for(lost: float, thresholds: tuple[float, float, float], samples: int = MIN_LABEL_SAMPLES) -> Label | None:
    """The label of a decision that lost ``lost`` win chance, or ``None`` below every threshold
    (and when its chances rest on fewer than :data:`MIN_LABEL_SAMPLES` samples)."""
    inaccuracy, mistake, blunder = thresholds
    if samples < MIN_LABEL_SAMPLES:
        return None
    if lost >= blunder:
        return "blunder"
    if lost >= mistake:
        return "mistake"
    if lost >= inaccuracy:
        return "inaccuracy"
    return None


def accuracy(losses: list[float]) -> float:
    """100 times one minus the mean lost win chance (100 for no decisions)."""
    return 100.0 * (1.0 - sum(losses) / len(losses)) if losses else 100.0


def percent(chance: float) -> str:
    """A chance as whole percent: ``0.413`` is ``41%``."""
    return f"{round(100 * chance)}%"


def in_words(chosen: Alternative, best: Alternative, chance_before: float) -> str:
    """What the choice did to the seat's chance, and the better choice when there was one."""
    if best.action == chosen.action or best.chance <= chosen.chance:
        return f"{chosen.text} kept your chance of winning at {percent(chosen.chance)} (the best choice)"
    return (
        f"{chosen.text} cut your chance of winning from {percent(chance_before)} to {percent(chosen.chance)}; "
        f"{best.text} kept it at {percent(best.chance)}"
    )
