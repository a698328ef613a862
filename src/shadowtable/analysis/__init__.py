"""Analysis of a finished game: each decision judged from what the deciding seat knew.

See docs/analysis.md. :func:`analyse_record` makes a :class:`GameAnalysis` (JSON through
:meth:`GameAnalysis.to_json`), :func:`analysis_html` a readable page of it.
"""

from shadowtable.analysis.decisions import (
    DecisionPoint,
    analyse_decision,
    analyse_points,
    analyse_record,
    chosen_chance,
    decision_points,
    rollout_policy,
    unanalysed_record,
)
from shadowtable.analysis.estimate import AnalysisError
from shadowtable.analysis.html_report import analysis_html
from shadowtable.analysis.model import (
    DEFAULT_ROLLOUTS,
    DEFAULT_THRESHOLDS,
    MIN_LABEL_SAMPLES,
    Alternative,
    AnalysisSettings,
    DecisionAnalysis,
    GameAnalysis,
    SeatSummary,
)

__all__ = [
    "DEFAULT_ROLLOUTS",
    "DEFAULT_THRESHOLDS",
    "MIN_LABEL_SAMPLES",
    "Alternative",
    "AnalysisError",
    "AnalysisSettings",
    "DecisionAnalysis",
    "DecisionPoint",
    "GameAnalysis",
    "SeatSummary",
    "analyse_decision",
    "analyse_points",
    "analyse_record",
    "analysis_html",
    "chosen_chance",
    "decision_points",
    "rollout_policy",
    "unanalysed_record",
]
