"""The lab run page's plots, laid out as inline SVG shapes (the template draws them), each with
the table of its numbers under it: win rates with 95% interval bars (by role, Objective, seat),
game lengths as histograms, one series per arm side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.core.summary import end_reason_words
from shadowtable.lab.spec import SEAT_ROLE_PREFIX
from shadowtable.lab.text import restriction_text

WIDTH = 480
LABEL_W = 120
"""Room on the left for the group labels."""
BAR_H = 16
GAP = 10
TOP = 26
"""Room above the bars for the scale."""
COLOURS = ("#2f6fb0", "#c2571a", "#3d8a4a", "#8a4fb0", "#a0522d", "#2a8a8a", "#b03a5b", "#6b6b2a", "#555")
"""One per arm (distinct under the common colour-vision deficiencies for the first three)."""
HIST_W = 300
HIST_H = 140
HIST_BINS = 20


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its place, length and interval whisker (all in SVG units)."""

    y: float
    width: float
    low: float
    high: float
    colour: str
    text: str
    """What a screen reader and the hover title say."""


@dataclass(frozen=True)
class Chart:
    """A grouped bar chart of rates (0..1) with their intervals, and its table."""

    caption: str
    height: float
    labels: tuple[tuple[float, str], ...]
    """``(y, text)`` of each group's label."""
    bars: tuple[Bar, ...]
    ticks: tuple[tuple[float, str], ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Histogram:
    """One arm's histogram of game lengths: bars ``(x, y, width, height, text)``."""

    caption: str
    bars: tuple[tuple[float, float, float, float, str], ...]
    low: int
    high: int
    median: float | None
    median_x: float | None
    colour: str
    unit: str


def role_words(role: str) -> str:
    """A role as the page names it: a seat counted from 1, as the bot menus and the seat charts
    count them (the run's ``seat 0`` is ``seat 1``); a role by its name."""
    number = role.removeprefix(SEAT_ROLE_PREFIX)
    return f"seat {int(number) + 1}" if role.startswith(SEAT_ROLE_PREFIX) and number.isdigit() else role


def arm_label(arm: Mapping[str, Any], baseline: str) -> str:
    """An arm's name on the page: a variant's own, or the probe's in the page's words
    (``baseline, seat 1: never propose a Truce``)."""
    probe = arm.get("probe")
    if not probe:
        return str(arm["label"])
    return f"{baseline}, {role_words(str(probe['role']))}: never {probe['kind']}"


def percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def x_of(rate: float) -> float:
    return LABEL_W + max(0.0, min(1.0, rate)) * (WIDTH - LABEL_W - 24)


def rate_chart(caption: str, key: str, arms: Sequence[Mapping[str, Any]], group_title: str) -> Chart | None:
    """Win rates by ``key`` (``by_role``, ``by_objective``, ``by_seat``) of every arm, grouped by
    name; ``None`` when no arm has any."""
    names: list[str] = []
    for arm in arms:
        names += [name for name in arm.get(key) or {} if name not in names]
    if not names:
        return None
    labels, bars, rows = [], [], []
    y = float(TOP)
    for name in names:
        shown = f"seat {int(name) + 1}" if key == "by_seat" else name
        labels.append((y + len(arms) * BAR_H / 2, shown))
        for i, arm in enumerate(arms):
            tally = (arm.get(key) or {}).get(name)
            if tally is not None and tally["games"]:
                low, high = tally["win_rate_ci95"]
                text = f"{shown}, {arm['label']}: {percent(tally['win_rate'])} ({percent(low)} to {percent(high)})"
                bars.append(
                    Bar(y, x_of(tally["win_rate"]) - LABEL_W, x_of(low), x_of(high), COLOURS[i % len(COLOURS)], text)
                )
                rows.append(
                    (
                        shown,
                        str(arm["label"]),
                        percent(tally["win_rate"]),
                        f"{percent(low)} to {percent(high)}",
                        f"{tally['wins']} of {tally['games']}",
                    )
                )
            y += BAR_H
        y += GAP
    ticks = tuple((x_of(t / 4), f"{25 * t}%") for t in range(5))
    header = (group_title, "Arm", "Win rate", "95% interval", "Seat-games won")
    return Chart(caption, y + 4, tuple(labels), tuple(bars), ticks, header, tuple(rows))


def histogram(arm: Mapping[str, Any], index: int) -> Histogram | None:
    """The arm's game lengths (in its game's unit: rounds, or turns), in at most :data:`HIST_BINS` bins."""
    lengths = arm.get("rounds") or {}
    unit = str(arm.get("length_unit") or "rounds")
    counts = {int(k): int(v) for k, v in (lengths.get("histogram") or {}).items()}
    if not counts:
        return None
    low, high = min(counts), max(counts)
    width = max(1, -(-(high - low + 1) // HIST_BINS))
    bins: dict[int, int] = {}
    for value, count in counts.items():
        start = low + (value - low) // width * width
        bins[start] = bins.get(start, 0) + count
    tallest = max(bins.values())
    span = max(1, high - low + 1)
    bar_w = (HIST_W - 20) * width / span
    bars = []
    for start, count in sorted(bins.items()):
        x = 10 + (start - low) / span * (HIST_W - 20)
        h = (HIST_H - 30) * count / tallest
        end = start + width - 1
        what = f"{start}" if width == 1 else f"{start} to {end}"
        bars.append((x, HIST_H - 20 - h, max(1.0, bar_w - 1), h, f"{what} {unit}: {count} games"))
    median = lengths.get("median")
    median_x = None if median is None else 10 + (float(median) - low + 0.5) / span * (HIST_W - 20)
    caption = f"{arm['label']}: {unit} per game (median {median}, the dashed line)"
    return Histogram(caption, tuple(bars), low, high, median, median_x, COLOURS[index % len(COLOURS)], unit)


def length_row(arm: Mapping[str, Any]) -> tuple[str, ...]:
    """An arm's game lengths in numbers: median, mean, shortest and longest, in its unit."""
    found = arm.get("rounds") or {}
    mean = found.get("mean")
    return (
        str(arm["label"]),
        str(arm.get("length_unit") or "rounds"),
        "" if found.get("median") is None else f"{found['median']:g}",
        "" if mean is None else f"{mean:.1f}",
        str(found.get("min", "")),
        str(found.get("max", "")),
    )


def comparison_rows(figures: Mapping[str, Any], labels: Sequence[str]) -> list[tuple[str, ...]]:
    """Each variant's and probe's change in win rate against the baseline, with its test
    (``labels``: each arm's name on the page, by number)."""
    rows: list[tuple[str, ...]] = []
    for variant in figures.get("variants") or []:
        for name, found in variant["win_rates"].items():
            rows.append(compared_row(labels[int(variant["arm"])], role_words(name), found))
    for probe in figures.get("probes") or []:
        label = f"{labels[int(probe['arm'])]} ({restriction_text(probe)})"
        rows.append(compared_row(label, role_words(str(probe["role"])), probe))
    return rows


def compared_row(label: str, name: str, found: Mapping[str, Any]) -> tuple[str, ...]:
    interval = found.get("ci95")
    p_value = found.get("p_value")
    return (
        label,
        name,
        percent(found.get("baseline")),
        percent(found.get("rate")),
        "" if found.get("difference") is None else f"{100 * found['difference']:+.1f} points",
        "" if interval is None else f"{100 * interval[0]:+.1f} to {100 * interval[1]:+.1f}",
        "" if p_value is None else (f"{p_value:.3f}" if p_value >= 0.001 else "< 0.001"),
    )


def figure_view(figures: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the run page draws from a run's figures."""
    stored = list(figures.get("arms") or [])
    baseline = str(stored[0]["label"]) if stored else ""
    arms = [{**arm, "label": arm_label(arm, baseline)} for arm in stored]
    labels = [str(arm["label"]) for arm in arms]
    game = str((figures.get("spec") or {}).get("game", ""))
    charts = [
        rate_chart("Win rate by role (95% interval bars)", "by_role", arms, "Role"),
        rate_chart("Win rate by Objective (95% interval bars)", "by_objective", arms, "Objective"),
        rate_chart("Win rate by seat (95% interval bars)", "by_seat", arms, "Seat"),
    ]
    endings = [
        (str(arm["label"]), end_reason_words(game, reason), str(found["games"]), percent(found["share"]))
        for arm in arms
        for reason, found in (arm.get("end_reasons") or {}).items()
    ]
    first = [
        (
            str(arm["label"]),
            "" if arm["first_player"].get("edge") is None else f"{100 * arm['first_player']['edge']:+.1f} points",
            compared_row("", "", arm["first_player"])[-1],
        )
        for arm in arms
        if arm.get("first_player")
    ]
    return {
        "legend": [(str(arm["label"]), COLOURS[i % len(COLOURS)]) for i, arm in enumerate(arms)],
        "charts": [chart for chart in charts if chart is not None],
        "histograms": [h for i, arm in enumerate(arms) if (h := histogram(arm, i)) is not None],
        "compared": comparison_rows(figures, labels),
        "labels": labels,
        "endings": endings,
        "first_player": first,
        "games": [(str(arm["label"]), str(arm["games"]), str(arm.get("truncated", 0))) for arm in arms],
        "lengths": [length_row(arm) for arm in arms],
        "test": str(figures.get("test", "")),
    }
