"""A self-contained HTML page of an analysis: each seat's accuracy and every labelled decision."""

from __future__ import annotations

from html import escape

from shadowtable.analysis.calibration import calibration_words
from shadowtable.analysis.model import MIN_LABEL_SAMPLES, DecisionAnalysis, GameAnalysis, SeatSummary, percent

_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem;color:#111}"
    "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;padding:.3rem .6rem;text-align:left}"
    ".blunder{background:#fdd}.mistake{background:#fed}.inaccuracy{background:#ffc}"
)


def _seat_row(analysis: GameAnalysis, summary: SeatSummary) -> str:
    result = {True: "won", False: "did not win", None: "unknown"}[summary.won]
    cells = (
        f"{summary.seat}",
        summary.name,
        result,
        f"{summary.decisions}",
        f"{summary.unanalysed}",
        f"{analysis.judged(summary.seat)}",
        analysis.accuracy_words(summary),
        f"{summary.inaccuracies}",
        f"{summary.mistakes}",
        f"{summary.blunders}",
    )
    return "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"


def _decision_row(decision: DecisionAnalysis) -> str:
    label = decision.label or ""
    cells = (
        f"{decision.ply}",
        f"{decision.seat}",
        decision.text,
        percent(decision.chance_before),
        percent(decision.chance_after),
        decision.best.text
        + ("" if decision.all_compared else f" (of {len(decision.alternatives)} compared, of {decision.choices})"),
        label,
        f"{decision.samples}" + (" (cut short)" if decision.cut_short else ""),
        "" if decision.noise is None else f"±{round(100 * decision.noise)}",
        decision.words,
    )
    css = f' class="{escape(label)}"' if label else ""
    return f"<tr{css}>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"


def analysis_html(analysis: GameAnalysis, title: str = "Game analysis") -> str:
    """The analysis as one HTML page (no scripts, no outside resources; every text escaped)."""
    settings = analysis.settings
    low, middle, high = (round(100 * t) for t in settings.thresholds)
    seat_rows = "".join(_seat_row(analysis, s) for s in analysis.seats)
    decision_rows = "".join(_decision_row(d) for d in analysis.decisions)
    budget = "none" if settings.budget is None else f"{settings.budget:g} s"
    checked = calibration_words(analysis.game, analysis.players, settings.policy, analysis.variant)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        f"<p>{escape(analysis.game)} v{escape(analysis.version)}, {analysis.players} players. "
        f"Each choice is judged from what the seat knew: {settings.rollouts} sampled states per choice "
        f"(budget {escape(budget)}), rollouts by the {escape(settings.policy)} policy, seed {settings.seed}. "
        f"Inaccuracy, mistake, blunder: {low}, {middle}, {high} points of lost win chance, given only "
        f"on {MIN_LABEL_SAMPLES} samples or more and when the loss is beyond the sampling noise (the ± column: "
        "the standard error of the loss, in points). The accuracy is left out (—) where fewer than half of a "
        "seat's decisions could be judged. Chances are recalibrated where the game has a map "
        f"(docs/analysis.md). {escape(checked)}</p>"
        + (
            ""
            if analysis.complete
            else f"<p><strong>Incomplete:</strong> the budget ran out; {analysis.unanalysed} decisions "
            "were not analysed.</p>"
        )
        + "<h2>Seats</h2><table><tr><th>seat</th><th>name</th><th>result</th><th>decisions</th>"
        f"<th>not analysed</th><th>judged (on {MIN_LABEL_SAMPLES} samples or more)</th><th>accuracy</th>"
        "<th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>"
        f"{seat_rows}</table>"
        "<h2>Decisions</h2><table><tr><th>step</th><th>seat</th><th>choice</th><th>before</th>"
        "<th>after</th><th>best</th><th>label</th><th>samples</th><th>noise (points)</th><th>in words</th></tr>"
        f"{decision_rows}</table></body></html>\n"
    )
