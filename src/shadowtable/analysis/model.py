"""The analysis of a finished game as typed, JSON-able data: settings, decisions, seat summaries."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any, Literal

Label = Literal["inaccuracy", "mistake", "blunder"]

DEFAULT_THRESHOLDS = (0.05, 0.10, 0.15)
"""Lost win chance (as a fraction, on the calibrated chances) from which a decision is an
inaccuracy, a mistake, a blunder: lichess's 5, 10 and 15 points. A label also needs the loss to
be beyond the sampling noise, which at 16 rollouts is about 12 points (docs/analysis.md)."""

DEFAULT_ROLLOUTS = 16
"""Rollouts per legal alternative at each decision (each on its own determinization)."""

MIN_LABEL_SAMPLES = 8
"""Complete samples a decision needs before it is labelled: with fewer (a tight budget) every
chance moves in steps of an eighth or more and a label would be noise."""


def can_be_marked(samples: int) -> bool:
    """Whether a decision analysed on ``samples`` complete samples can be judged: marked when it
    loses enough (:data:`MIN_LABEL_SAMPLES`)."""
    return samples >= MIN_LABEL_SAMPLES


def accuracy_stands(judged: int, decisions: int) -> bool:
    """Whether a seat's accuracy is worth giving: at least half of its ``decisions`` were judged
    (a decision left rough or unanalysed counts as losing nothing, so with fewer the figure says
    more of the budget than of the play)."""
    return 2 * judged >= decisions


def noise_z(choices: int) -> float:
    """The noise margin's multiple of the standard error at a decision with ``choices`` legal
    choices: a two-sided 5% test shared by the ``choices - 1`` alternatives the chosen one is
    compared with (Bonferroni): 1.96 for 2 choices, 2.39 for 3, 2.81 for 6, 3.29 for 50."""
    comparisons = max(choices - 1, 1)
    return NormalDist().inv_cdf(1.0 - 0.025 / comparisons)


@dataclass(frozen=True)
class AnalysisSettings:
    """How an analysis is run.

    ``seat``: the seat whose decisions are analysed (``None``: every seat).
    ``rollouts``: determinizations (one rollout each) per alternative at each decision.
    ``budget``: optional seconds for the whole analysis, a hard bound: no rollout starts once it
    is spent. It is shared evenly by the decisions left (a decision starts no new sample after its
    share, its first excepted); what it leaves is counted as unanalysed. With a budget the result
    depends on the machine's speed, so it is not reproducible.
    ``seed``: every random stream derives from it (and from the seat and its decision number).
    ``policy``: the bot spec every seat plays in rollouts (``heuristic``, ``random``, ...).
    ``thresholds``: lost win chance for an inaccuracy, a mistake and a blunder, as fractions.
    ``most_choices``: at a decision with more legal choices than this, only this many are
    compared: the choice made, the rollout policy's own choice from the seat's view, and others
    drawn at random (:func:`~shadowtable.analysis.decisions.compared_choices`); ``None``: every
    choice. Each compared choice gets the chance it gets when all are compared (the same samples
    and rollouts), so fewer choices only means a better one may go unseen.
    ``horizon``: a rollout stops after this many steps and scores the seat's share from the
    game's ``heuristic`` evaluation where the game has not ended (``None``: rollouts to the end).
    Its chances are calibrated by the map of that horizon, if one was fitted.
    """

    seat: int | None = None
    rollouts: int = DEFAULT_ROLLOUTS
    budget: float | None = None
    seed: int = 0
    policy: str = "heuristic"
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    most_choices: int | None = None
    horizon: int | None = None


@dataclass(frozen=True)
class Alternative:
    """One legal choice at a decision, in the seat's words, and its estimated chance of winning.

    ``chance``: calibrated (:mod:`shadowtable.analysis.calibration`); ``raw_chance``: the share of
    won rollouts; ``exact``: every sample ended the game at once (the chance is not calibrated).
    """

    action: int
    text: str
    chance: float
    samples: int
    raw_chance: float
    exact: bool = False


@dataclass(frozen=True)
class DecisionAnalysis:
    """One decision of one seat.

    ``chance_before``: the seat's chance of winning with its best choice (the position's value to
    it). ``chance_after``: the chance after the choice it made. ``lost``: their difference (never
    negative). ``best``: the best alternative (ties: the chosen one, else the lowest action id).
    Chances are calibrated. ``samples``: the complete samples the chances rest on; ``cut_short``:
    the budget stopped its sampling before ``rollouts``; ``noise``: the standard error of the raw
    lost chance, from the per-sample differences between the best and the chosen alternative
    (``None`` with fewer than two samples). ``choices``: the legal choices at the decision, more
    than ``alternatives`` where only some were compared (``AnalysisSettings.most_choices``; 0: not
    recorded, every choice compared).
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
    samples: int = 0
    cut_short: bool = False
    noise: float | None = None
    choices: int = 0

    @property
    def all_compared(self) -> bool:
        """Whether every legal choice was compared (else the best found may not be the best)."""
        return self.choices <= len(self.alternatives)


@dataclass(frozen=True)
class SeatSummary:
    """One seat's game: decisions analysed, labels counted, and its accuracy (0-100).

    ``unanalysed``: its decisions with a choice that the budget left without a complete sample.

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
    unanalysed: int = 0


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one record: the settings, each analysed decision, each seat's summary.

    ``unanalysed``: decisions with a choice that the budget left without a complete sample;
    ``complete``: none was left and none was cut short.
    """

    game: str
    version: str
    players: int
    settings: AnalysisSettings
    decisions: list[DecisionAnalysis] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)
    format: str = "shadowtable-analysis/1"
    unanalysed: int = 0
    complete: bool = True
    variant: str = ""
    """The game's options away from their defaults (:func:`~shadowtable.analysis.calibration.variant_of`;
    empty: the game as its rulebook sets it): its chances use that variant's map, if any."""

    def judged(self, seat: int) -> int:
        """How many of ``seat``'s decisions could be judged (:func:`can_be_marked`)."""
        return sum(d.seat == seat and can_be_marked(d.samples) for d in self.decisions)

    def accuracy_words(self, summary: SeatSummary) -> str:
        """The seat's accuracy to one decimal, or ``—`` where fewer than half of its decisions
        (those left unanalysed included) could be judged (:func:`accuracy_stands`)."""
        if accuracy_stands(self.judged(summary.seat), summary.decisions + summary.unanalysed):
            return f"{summary.accuracy:.1f}"
        return "—"

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON data."""
        data = asdict(self)
        data["settings"]["thresholds"] = list(self.settings.thresholds)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameAnalysis:
        """The analysis from :meth:`to_json`'s data."""
        settings = dict(data["settings"])
        settings["thresholds"] = tuple(settings["thresholds"])
        decisions = [
            DecisionAnalysis(
                **{
                    **d,
                    "best": Alternative(**d["best"]),
                    "alternatives": [Alternative(**alt) for alt in d["alternatives"]],
                }
            )
            for d in data["decisions"]
        ]
        return cls(
            **{
                **data,
                "settings": AnalysisSettings(**settings),
                "decisions": decisions,
                "seats": [SeatSummary(**s) for s in data["seats"]],
            }
        )


def label_for(
    lost: float,
    thresholds: tuple[float, float, float],
    samples: int = MIN_LABEL_SAMPLES,
    raw_lost: float | None = None,
    noise: float | None = 0.0,
    choices: int = 2,
) -> Label | None:
    """The label of a decision that lost ``lost`` (calibrated) win chance, or ``None``: below
    every threshold, on fewer than :data:`MIN_LABEL_SAMPLES` samples, or when the raw lost chance
    (``raw_lost``, default ``lost``) is not beyond the noise: ``noise_z(choices) * noise``."""
    inaccuracy, mistake, blunder = thresholds
    if not can_be_marked(samples) or noise is None:
        return None
    if (lost if raw_lost is None else raw_lost) <= noise_z(choices) * noise:
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


def kept_words(better: bool, all_compared: bool) -> str:
    """What a choice that kept the seat's chance was: the best (of the choices compared), or as
    good as the ``better`` one to the percent."""
    which = "the best choice" if all_compared else "the best of the choices compared"
    return f"as good as {which}, to the percent" if better else which


def in_words(chosen: Alternative, best: Alternative, chance_before: float, all_compared: bool = True) -> str:
    """What the choice did to the seat's chance, and the better choice when there was one
    (``all_compared``: every legal choice was compared, so the best found is the best)."""
    better = best.action != chosen.action and best.chance > chosen.chance
    if not better or percent(best.chance) == percent(chosen.chance):
        which = kept_words(better, all_compared)
        return f"{chosen.text} kept your chance of winning at {percent(chosen.chance)} ({which})"
    return (
        f"{chosen.text} cut your chance of winning from {percent(chance_before)} to {percent(chosen.chance)}; "
        f"{best.text} kept it at {percent(best.chance)}"
    )
