"""The analysis of a finished table as the replay page shows it: small pure functions from the
stored result (docs/analysis.md, "On the server") to view data.

Every function reads the stored JSON with ``.get`` and defaults, so a result with more fields
(``raw_chance``, ``samples``, ``cut_short``, ``noise``, ``unanalysed``, ``complete``) or fewer still
renders.  Nothing here reads a game state: the analysis and the deduction were made from each
seat's own information, and this module only puts them into words, marks, a graph and tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shadowtable.analysis.calibration import MAP_POLICY, calibration_words
from shadowtable.analysis.model import MIN_LABEL_SAMPLES, accuracy_stands, kept_words
from shadowtable.analysis.model import can_be_marked as enough_samples
from shadowtable.core.wording import SeatNames

SYMBOLS: dict[str, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess sign of each label (shown with the word, never alone nor as a colour alone)."""

DASHES = ("", "8 4", "2 4", "10 4 2 4", "4 2", "1 3")
"""The dash pattern of each seat's line in the graph (seats differ by pattern, not colour alone)."""

MARKERS = ("circle", "square", "triangle", "diamond", "cross", "bar")
"""The point shape of each seat's decisions in the graph."""

GRAPH_W, GRAPH_H = 640, 220
MOST_DOTS = 60
"""A seat's line shows a point at each decision when it has at most this many (else only its marks)."""

ROUGH_BELOW = 4
"""Samples per choice under which a decision's chances are called rough and not put in words as a
judgement; the analysis labels a decision only from
:data:`~shadowtable.analysis.model.MIN_LABEL_SAMPLES` on (:func:`can_be_marked`)."""
PAD_L, PAD_R, PAD_T, PAD_B = 44, 12, 14, 30


def percent(chance: float) -> str:
    """A chance as whole percent: ``0.413`` is ``41%``."""
    return f"{round(100 * float(chance))}%"


def decisions_of(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The stored decisions, sorted by step (none for no result)."""
    if not result:
        return []
    analysis = result.get("analysis") or {}
    found = [d for d in analysis.get("decisions") or [] if isinstance(d, dict) and "ply" in d]
    return sorted(found, key=lambda d: (int(d["ply"]), int(d.get("seat", 0))))


def is_partial(result: Mapping[str, Any] | None) -> bool:
    """Whether the analysis says it is incomplete (``complete`` false anywhere, a decision cut
    short or left unanalysed, a deduction left unfinished)."""
    if not result:
        return False
    analysis = result.get("analysis") or {}
    if result.get("complete", True) is False or analysis.get("complete", True) is False:
        return True
    if deduction_is_partial(result):
        return True
    return any(
        d.get("complete", True) is False or d.get("cut_short") or d.get("unanalysed") for d in decisions_of(result)
    )


def deduction_is_partial(result: Mapping[str, Any] | None, seat: int | None = None) -> bool:
    """Whether the deduction (of ``seat`` only, when given) stopped before its last step."""
    deduction = (result or {}).get("deduction") or {}
    if seat is None:
        return deduction.get("complete", True) is False or bool(deduction.get("unanalysed"))
    return bool((deduction.get("unanalysed_by_seat") or {}).get(str(seat)))


def partial_words(result: Mapping[str, Any] | None) -> str:
    """What an incomplete analysis left out, in words (empty when it is complete)."""
    if not is_partial(result):
        return ""
    parts = []
    if deduction_is_partial(result):
        parts.append("the deduction stops before the end of the game")
    analysis_only = {**(result or {}), "deduction": {}}
    if is_partial(analysis_only):
        parts.insert(0, "some decisions were cut short or left out")
    return f"The analysis's time ran out: {' and '.join(parts)}, so some figures are rougher or missing."


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


@dataclass(frozen=True)
class Mark:
    """A labelled decision on the timeline."""

    step: int
    seat: int
    name: str
    label: str
    symbol: str
    lost: int
    """Points of win chance lost."""


def timeline_marks(result: Mapping[str, Any] | None, names: Sequence[str], seat: int | None = None) -> list[Mark]:
    """Every labelled decision (of ``seat`` only, when given), in the order taken."""
    marks = []
    for d in decisions_of(result):
        label = d.get("label")
        if label not in SYMBOLS or d.get("unanalysed"):
            continue
        who = int(d.get("seat", 0))
        if seat is not None and who != seat:
            continue
        lost = round(100 * float(d.get("lost", 0.0)))
        marks.append(Mark(int(d["ply"]), who, name_of(names, who), str(label), SYMBOLS[str(label)], lost))
    return marks


def costliest_mark(result: Mapping[str, Any] | None, names: Sequence[str], seat: int) -> Mark | None:
    """``seat``'s marked decision that lost the most win chance (the first of equals), if any."""
    marks = timeline_marks(result, names, seat)
    return max(marks, key=lambda m: (m.lost, -m.step)) if marks else None


@dataclass(frozen=True)
class Choice:
    """One alternative of a decision, as the page lists it."""

    text: str
    chance: str
    chosen: bool
    best: bool


@dataclass(frozen=True)
class ShownDecision:
    """A decision at the shown step, in words."""

    step: int
    seat: int
    name: str
    label: str | None
    symbol: str
    words: str
    choices: list[Choice]
    notes: list[str] = field(default_factory=list)
    rough: str = ""
    """Why its chances are rough (too few samples), or empty."""


def decision_words(decision: Mapping[str, Any], whose: str) -> str:
    """What the choice did to the seat's chance (``whose``: "your", or "Ada's"), and what would
    have been better: 'Choosing “done” cut your chance of winning from 41% to 28%; “play
    Smoking” would have kept it at 40%.'"""
    text = str(decision.get("text", "this choice"))
    if decision.get("unanalysed"):
        return f"Choosing “{text}” was not analysed (the analysis ran out of time before it)."
    before = float(decision.get("chance_before", 0.0))
    after = float(decision.get("chance_after", 0.0))
    best = decision.get("best") or {}
    better = best.get("action") != decision.get("action") and float(best.get("chance", after)) > after
    if is_rough(decision):
        estimate = f"on a rough estimate it left {whose} chance of winning at {percent(after)}"
        if better:
            estimate += (
                f", against {percent(float(best.get('chance', before)))} for “{best.get('text', 'another choice')}”"
            )
        return f"Choosing “{text}” could not be judged: {estimate}."
    if not better or percent(float(best.get("chance", after))) == percent(after):
        which = kept_words(better, all_compared(decision))
        return f"Choosing “{text}” kept {whose} chance of winning at {percent(after)} ({which})."
    return (
        f"Choosing “{text}” cut {whose} chance of winning from {percent(before)} to {percent(after)}; "
        f"“{best.get('text', 'another choice')}” would have kept it at {percent(float(best.get('chance', before)))}."
    )


def compared_of(decision: Mapping[str, Any]) -> tuple[int, int]:
    """How many of a decision's choices were compared, and how many it had (the same where the
    analysis compared them all, or did not say)."""
    compared = len(decision.get("alternatives") or [])
    return compared, max(compared, int(decision.get("choices") or 0))


def all_compared(decision: Mapping[str, Any]) -> bool:
    """Whether every choice of the decision was compared (else a better one may have gone unseen)."""
    compared, choices = compared_of(decision)
    return compared >= choices


def samples_of(decision: Mapping[str, Any]) -> int | None:
    """The samples behind a decision's chances (the fewest of any choice), if known."""
    if decision.get("samples") is not None:
        return int(decision["samples"])
    return min((int(a.get("samples", 0)) for a in decision.get("alternatives") or []), default=None)


def is_rough(decision: Mapping[str, Any]) -> bool:
    """Whether a decision's chances rest on too few samples to say anything (fewer than
    :data:`ROUGH_BELOW`)."""
    samples = samples_of(decision)
    return samples is not None and samples < ROUGH_BELOW and not decision.get("unanalysed")


def rough_words(decision: Mapping[str, Any]) -> str:
    """Why a decision's chances are too rough to mark (empty when they are not)."""
    samples = samples_of(decision)
    if samples is None or not is_rough(decision):
        return ""
    deals = f"{samples} sampled deal{'s' if samples != 1 else ''}"
    return f"A rough estimate: only {deals} per choice (the analysis's time ran short), too few to mark."


def decision_notes(decision: Mapping[str, Any]) -> list[str]:
    """How far the figures of one decision can be trusted (from the optional fields)."""
    notes = []
    samples = samples_of(decision)
    if samples is not None:
        notes.append(f"{samples} sampled deal{'s' if samples != 1 else ''} per choice")
    if not all_compared(decision):
        compared, choices = compared_of(decision)
        notes.append(
            f"{compared} of its {choices} choices compared: the one made, the one the analysis's bot would make, "
            "and others drawn at random"
        )
    if decision.get("noise") is not None:
        points = round(100 * float(decision["noise"]))
        notes.append(f"about ±{points} points of sampling noise" if points else "under 1 point of sampling noise")
    if decision.get("cut_short") or decision.get("complete", True) is False:
        notes.append("cut short: partly analysed")
    if decision.get("raw_chance") is not None:
        notes.append(f"uncalibrated estimate {percent(float(decision['raw_chance']))}")
    return notes


def shown_decisions(
    result: Mapping[str, Any] | None, names: Sequence[str], step: int, seat: int | None
) -> list[ShownDecision]:
    """The decisions taken at ``step`` (of ``seat`` only, when given), in words."""
    shown = []
    people = SeatNames.of(names)
    for stored in decisions_of(result):
        who = int(stored.get("seat", 0))
        if int(stored["ply"]) != step or (seat is not None and who != seat):
            continue
        d = in_names(stored, people)
        whose = "your" if who == seat else f"{name_of(names, who)}'s"
        best = (d.get("best") or {}).get("action")
        choices = [
            Choice(
                str(a.get("text", "")),
                percent(float(a.get("chance", 0.0))),
                a.get("action") == d.get("action"),
                a.get("action") == best,
            )
            for a in d.get("alternatives") or []
        ]
        label = d.get("label") if d.get("label") in SYMBOLS else None
        shown.append(
            ShownDecision(
                step,
                who,
                name_of(names, who),
                label,
                SYMBOLS.get(label or "", ""),
                decision_words(d, whose),
                choices,
                decision_notes(d),
                rough_words(d),
            )
        )
    return shown


def in_names(decision: Mapping[str, Any], people: SeatNames) -> dict[str, Any]:
    """``decision`` with its choices' words as people read them (``make offer to seat 1``: to Brook)."""
    best = decision.get("best") or {}
    return {
        **decision,
        "text": people.shown(str(decision.get("text", "this choice"))),
        "best": {**best, "text": people.shown(str(best.get("text", "another choice")))},
        "alternatives": [
            {**a, "text": people.shown(str(a.get("text", "")))} for a in decision.get("alternatives") or []
        ],
    }


def decision_steps(result: Mapping[str, Any] | None, seat: int | None) -> list[int]:
    """The steps where ``seat`` (any seat: ``None``) decided, in order."""
    return sorted({int(d["ply"]) for d in decisions_of(result) if seat is None or int(d.get("seat", 0)) == seat})


def neighbours(steps: Sequence[int], step: int) -> tuple[int | None, int | None]:
    """The decision step before ``step`` and the one after it (``None``: none)."""
    before = [s for s in steps if s < step]
    after = [s for s in steps if s > step]
    return (before[-1] if before else None, after[0] if after else None)


MIN_SIGN_GAP = 18.0
"""Least distance (SVG units) between two signs written on a line: a closer one is left out, its
decision still listed and in the table."""


def spaced(points: Sequence[Point]) -> list[Point]:
    """``points`` (in step order) less those whose sign would overlap the last one kept."""
    kept: list[Point] = []
    for p in points:
        if not kept or p.x - kept[-1].x >= MIN_SIGN_GAP or abs(p.y - kept[-1].y) >= 14:
            kept.append(p)
    return kept


@dataclass(frozen=True)
class Tick:
    """A decision on the timeline strip: its place, label and whether its sign is written."""

    x: float
    label: str
    symbol: str
    sign: bool


def timeline(result: Mapping[str, Any] | None, names: Sequence[str], seat: int | None, last: int) -> list[Tick]:
    """The marked decisions of ``seat`` (every seat's for a spectator) on the timeline strip, a
    sign written only where it does not overlap the previous one."""
    ticks: list[Tick] = []
    shown_at = -MIN_SIGN_GAP
    for m in timeline_marks(result, names, seat):
        x = x_of(m.step, last)
        sign = x - shown_at >= MIN_SIGN_GAP
        if sign:
            shown_at = x
        ticks.append(Tick(x, m.label, m.symbol, sign))
    return ticks


@dataclass(frozen=True)
class Point:
    """One point of a seat's line: a decision's chance before (``after``: false) or after it."""

    step: int
    chance: float
    x: float
    y: float
    label: str | None = None


@dataclass(frozen=True)
class Series:
    """One seat's win chance over the game, as an SVG polyline and its points."""

    seat: int
    name: str
    points: str
    dash: str
    marker: str
    dots: list[Point]
    marks: list[Point]
    viewer: bool = False
    """The seat whose view is shown (its line is drawn last and thicker)."""


@dataclass(frozen=True)
class Graph:
    """The win-chance graph: a line per seat, axis ticks and the shown step's cursor."""

    width: int
    height: int
    series: list[Series]
    x_ticks: list[tuple[float, int]]
    y_ticks: list[tuple[float, str]]
    cursor: float | None
    left: int = PAD_L
    right: int = GRAPH_W - PAD_R
    top: int = PAD_T
    bottom: int = GRAPH_H - PAD_B
    description: str = ""


def x_of(step: int, last: int) -> float:
    return round(PAD_L + (GRAPH_W - PAD_L - PAD_R) * (step / last if last else 0.0), 1)


def y_of(chance: float) -> float:
    return round(PAD_T + (GRAPH_H - PAD_T - PAD_B) * (1.0 - max(0.0, min(1.0, chance))), 1)


def chance_graph(
    result: Mapping[str, Any] | None,
    names: Sequence[str],
    last: int,
    step: int | None = None,
    seat: int | None = None,
) -> Graph | None:
    """Each seat's chance of winning at each of its decisions (before it, then after it: a drop
    is a costly choice), as SVG coordinates, the line of ``seat`` (the viewer) last; ``None``
    when no decision was analysed.  Rough decisions (:func:`is_rough`) are left out: their
    chances swing from 0 to 100% on a sample or two and would hide the real drops."""
    per_seat: dict[int, list[dict[str, Any]]] = {}
    for d in decisions_of(result):
        if not d.get("unanalysed") and not is_rough(d):
            per_seat.setdefault(int(d.get("seat", 0)), []).append(d)
    if not per_seat:
        return None
    series = []
    ends: dict[int, tuple[Point, Point]] = {}
    for n, (who, made) in enumerate(sorted(per_seat.items())):
        dots, marks, coords = [], [], []
        for d in made:
            k = int(d["ply"])
            before, after = float(d.get("chance_before", 0.0)), float(d.get("chance_after", 0.0))
            label = d.get("label") if d.get("label") in SYMBOLS else None
            first = Point(k, before, x_of(k, last), y_of(before))
            second = Point(k, after, x_of(k, last), y_of(after), label)
            coords += [f"{first.x},{first.y}", f"{second.x},{second.y}"]
            dots.append(second)
            ends[who] = (ends.get(who, (second, second))[0], second)
            if label:
                marks.append(second)
        series.append(
            Series(
                who,
                name_of(names, who),
                " ".join(coords),
                DASHES[n % len(DASHES)],
                MARKERS[n % len(MARKERS)],
                dots if len(dots) <= MOST_DOTS else [],
                spaced(marks) if seat is None or who == seat else [],
                who == seat,
            )
        )
    series.sort(key=lambda s: s.viewer)
    ticks = sorted({0, last // 4, last // 2, 3 * last // 4, last})
    summary = "; ".join(
        f"{s.name}: {percent(first.chance)} at step {first.step}, {percent(final.chance)} at step {final.step}"
        for s, (first, final) in ((s, ends[s.seat]) for s in series)
    )
    return Graph(
        GRAPH_W,
        GRAPH_H,
        series,
        [(x_of(k, last), k) for k in ticks],
        [(y_of(c / 100), f"{c}%") for c in (0, 25, 50, 75, 100)],
        None if step is None else x_of(step, last),
        description=f"Each seat's chance of winning after each of its decisions, by step. {summary}.",
    )


@dataclass(frozen=True)
class ChanceRow:
    """A row of the graph's data table."""

    step: int
    name: str
    before: str
    after: str
    label: str


def chance_rows(result: Mapping[str, Any] | None, names: Sequence[str]) -> list[ChanceRow]:
    """The graph's figures as table rows, one per analysed decision."""
    rows = []
    for d in decisions_of(result):
        if d.get("unanalysed"):
            continue
        label = d.get("label") if d.get("label") in SYMBOLS else None
        rows.append(
            ChanceRow(
                int(d["ply"]),
                name_of(names, int(d.get("seat", 0))),
                percent(float(d.get("chance_before", 0.0))),
                percent(float(d.get("chance_after", 0.0))),
                f"{SYMBOLS[label]} {label}" if label else "",
            )
        )
    return rows


@dataclass(frozen=True)
class SeatAccuracy:
    """One seat's accuracy and label counts, and how many of its decisions could be judged."""

    seat: int
    name: str
    accuracy: str
    """The figure, or ``—`` where fewer than half of the seat's decisions could be judged."""
    decisions: int
    """Every decision of the seat, those the analysis's time left out included."""
    inaccuracies: int
    mistakes: int
    blunders: int
    judged: int
    """Decisions whose chances rest on enough samples to be marked (:func:`can_be_marked`)."""


def can_be_marked(decision: Mapping[str, Any]) -> bool:
    """Whether a decision was analysed on enough samples for the analysis to mark it
    (:data:`~shadowtable.analysis.model.MIN_LABEL_SAMPLES`; a result without sample counts was
    analysed whole)."""
    samples = samples_of(decision)
    return not decision.get("unanalysed") and (samples is None or enough_samples(samples))


def judged_by_seat(result: Mapping[str, Any] | None) -> Counter[int]:
    """How many of each seat's decisions could be judged: analysed on enough samples to be marked."""
    return Counter(int(d.get("seat", -1)) for d in decisions_of(result) if can_be_marked(d))


def accuracy_rows(result: Mapping[str, Any] | None, names: Sequence[str]) -> list[SeatAccuracy]:
    """Each seat's accuracy (0-100) and how many of each label its decisions got; the accuracy is
    left out (``—``) where fewer than half of the seat's decisions could be judged, since the
    others count as losing nothing."""
    if not result:
        return []
    rows = []
    judged_of_seat = judged_by_seat(result)
    for s in sorted((result.get("analysis") or {}).get("seats") or [], key=lambda s: int(s.get("seat", 0))):
        seat = int(s.get("seat", 0))
        decisions = int(s.get("decisions", 0)) + int(s.get("unanalysed", 0))
        judged = judged_of_seat[seat]
        rows.append(
            SeatAccuracy(
                seat,
                name_of(names, seat),
                f"{float(s.get('accuracy', 100.0)):.0f}" if accuracy_stands(judged, decisions) else "—",
                decisions,
                int(s.get("inaccuracies", 0)),
                int(s.get("mistakes", 0)),
                int(s.get("blunders", 0)),
                judged,
            )
        )
    return rows


def judged_of(result: Mapping[str, Any] | None, names: Sequence[str], seat: int | None) -> tuple[int, int]:
    """How many decisions (of ``seat``, or of every seat) could be judged, and how many there were."""
    rows = [a for a in accuracy_rows(result, names) if seat is None or a.seat == seat]
    return sum(a.judged for a in rows), sum(a.decisions for a in rows)


def judged_note(result: Mapping[str, Any] | None, names: Sequence[str], seat: int | None) -> str:
    """How many decisions could be judged, where the analysis's time left some without enough
    played-out games (empty when every one could)."""
    judged, decisions = judged_of(result, names, seat)
    if judged >= decisions:
        return ""
    whose = "the" if seat is None else f"{name_of(names, seat)}'s"
    return (
        f"{judged} of {whose} {decisions} decisions could be judged: the analysis's time ran out before "
        "the others had enough played-out games to mark them."
    )


def unmarked_words(result: Mapping[str, Any] | None, names: Sequence[str], seat: int | None) -> str:
    """What an empty list of marked decisions says: nothing marked, among all the decisions, among
    those judged, or none judged at all."""
    judged, decisions = judged_of(result, names, seat)
    if judged >= decisions:
        return "No inaccuracy, mistake or blunder."
    if judged == 0:
        return "Nothing is marked: no decision could be judged."
    return "No inaccuracy, mistake or blunder among the decisions judged."


@dataclass(frozen=True)
class DeductionPanel:
    """What the viewing seat could deduce at the shown step."""

    kind: str
    step: int
    columns: list[str]
    rows: list[tuple[str, list[str]]]
    """Per other seat: its name and a cell per column."""
    note: str
    partial: str = ""
    """Why the shown belief is older than the step (the deduction's time ran out), or empty."""


def deduction_partial_words(result: Mapping[str, Any] | None, seat: int, step: int, at: int | None) -> str:
    """What a seat's unfinished deduction means at ``step`` (``at``: the step of the belief shown,
    ``None``: none), or empty when it finished or the step is before where it stopped."""
    if not deduction_is_partial(result, seat):
        return ""
    entries = (((result or {}).get("deduction") or {}).get("seats") or {}).get(str(seat)) or []
    last = max((int(e.get("step", 0)) for e in entries if isinstance(e, dict)), default=None)
    if last is None:
        return "Partly analysed: the analysis's time ran out before this seat's deduction was worked out."
    if step <= last:
        return ""
    return (
        f"Partly analysed: the analysis's time ran out at step {last} of this seat's deduction,"
        f" so this is what it could deduce as of step {at if at is not None else last}, not later."
    )


def belief_at(result: Mapping[str, Any] | None, seat: int, step: int) -> tuple[int, dict[str, Any]] | None:
    """The entry of ``seat``'s deduction with the greatest step at or before ``step``."""
    if not result:
        return None
    entries = ((result.get("deduction") or {}).get("seats") or {}).get(str(seat)) or []
    found = [e for e in entries if isinstance(e, dict) and int(e.get("step", 0)) <= step and "belief" in e]
    if not found:
        return None
    best = max(found, key=lambda e: int(e["step"]))
    return int(best["step"]), dict(best["belief"])


def deduction_panel(
    result: Mapping[str, Any] | None,
    seat: int | None,
    step: int,
    names: Sequence[str],
    objective_names: Sequence[str] = (),
) -> DeductionPanel | None:
    """The deduction panel of ``seat`` at ``step`` (``None``: a spectator, or nothing deduced yet)."""
    if seat is None or not result:
        return None
    found = belief_at(result, seat, step)
    if found is None:
        return None
    at, belief = found
    kind = str((result.get("deduction") or {}).get("kind", ""))
    if "objectives" in belief:
        table = belief["objectives"]
        count = max((len(row) for row in table), default=0)
        columns = [objective_names[o] if o < len(objective_names) else f"Objective {o + 1}" for o in range(count)]
        rows = [(name_of(names, s), [percent(p) for p in row]) for s, row in enumerate(table) if s != seat]
        how = (
            "from the actions it saw, if everyone played like the heuristic bot"
            if belief.get("model") == "bayes-heuristic"
            else "by logic alone"
        )
        note = f"The chance that each other player holds each Objective, {how}, as of step {at}."
        return DeductionPanel(kind, at, columns, rows, note, deduction_partial_words(result, seat, step, at))
    if "opponents" in belief:
        rows = []
        for o in belief["opponents"]:
            dist = sorted(
                ((float(p), int(t)) for t, p in o.get("total_distribution") or []), key=lambda pt: (-pt[0], pt[1])
            )
            likeliest = ", ".join(f"{t} ({percent(p)})" for p, t in dist[:3])
            rows.append(
                (
                    name_of(names, int(o.get("seat", 0))),
                    [
                        str(int(o.get("hidden_cards", 0))),
                        f"{float(o.get('expected_total', 0.0)):.1f}",
                        likeliest or "—",
                    ],
                )
            )
        note = (
            f"What each opponent's hidden Power Cards were likely worth, as of step {at}: every card this"
            " seat had not seen is taken as equally likely to be any of them."
        )
        columns = ["Hidden cards", "Expected worth", "Likeliest totals"]
        return DeductionPanel(kind, at, columns, rows, note, deduction_partial_words(result, seat, step, at))
    return None


def objective_names_of(game_id: str, game: Any) -> list[str]:
    """The names of the game's Objectives, from its printed reference (none for a game without)."""
    return [str(objective["name"]) for objective in game.words.reference().get("objectives") or []]


STATUS_WORDS = {
    "none": "Not analysed yet.",
    "queued": "Waiting for a free analysis worker…",
    "running": "Analysing…",
    "done": "Analysed.",
    "failed": "The analysis failed.",
    "off": "This server does not analyse games.",
}


def status_words(status: Mapping[str, Any]) -> str:
    """Where the analysis stands, in words (with its progress while it runs, and why it failed)."""
    state = str(status.get("status", "none"))
    words = STATUS_WORDS.get(state, state)
    if state in {"queued", "running"}:
        words += f" {round(100 * float(status.get('progress', 0.0)))}% done."
    if state == "failed" and status.get("error"):
        words += f" {status['error']}."
    return words


def analysis_view(
    status: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    names: Sequence[str],
    seat: int | None,
    step: int,
    last: int,
    objective_names: Sequence[str] = (),
) -> dict[str, Any]:
    """Everything the replay page shows of a finished table's analysis at ``step`` from ``seat``'s
    view (``None``: a spectator): the status, and once done the marks, the decisions at the step,
    the graph and its table, the deduction panel and each seat's accuracy."""
    state = str(status.get("status", "none"))
    progress = round(100 * float(status.get("progress", 0.0)))
    view: dict[str, Any] = {"status": state, "words": status_words(status), "ready": False, "progress": progress}
    if state != "done" or not result:
        return view
    steps = decision_steps(result, seat)
    previous, following = neighbours(steps, step)
    analysis = result.get("analysis") or {}
    settings = analysis.get("settings") or {}
    policy = str(settings.get("policy", MAP_POLICY))
    partial = partial_words(result)
    return {
        **view,
        "words": "Analysed in part (below: what was left out)." if partial else view["words"],
        "ready": True,
        "policy": policy,
        "horizon": settings.get("horizon"),
        "calibration": calibration_words(
            str(analysis.get("game", "")), int(analysis.get("players", 0)), policy, str(analysis.get("variant", ""))
        ),
        "partial": partial,
        "marks": timeline_marks(result, names, seat),
        "costliest": None if seat is None else costliest_mark(result, names, seat),
        "all_marks": timeline_marks(result, names),
        "timeline": timeline(result, names, seat, last),
        "decisions": shown_decisions(result, names, step, seat),
        "previous": previous,
        "following": following,
        "graph": chance_graph(result, names, last, step, seat),
        "rows": chance_rows(result, names),
        "deduction": deduction_panel(result, seat, step, names, objective_names),
        "deduction_kind": str((result.get("deduction") or {}).get("kind", "")),
        "has_deduction": bool((result.get("deduction") or {}).get("seats")),
        "deduction_partial": "" if seat is None else deduction_partial_words(result, seat, step, None),
        "accuracy": accuracy_rows(result, names),
        "unmarked": unmarked_words(result, names, seat),
        "judged_note": judged_note(result, names, seat),
        "min_samples": MIN_LABEL_SAMPLES,
    }
