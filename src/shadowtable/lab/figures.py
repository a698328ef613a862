"""The lab's figures from game rows: win rates with 95% intervals, endings, lengths, comparisons.

Win rates count seat-games (a role held by two seats of a game counts twice), with Wilson 95%
intervals (:func:`shadowtable.sim.stats.wilson_interval`).  A variant or a probe is compared
with the baseline by the two-proportion z test (pooled, two-sided) on those seat-games, with a
95% Wald interval for the difference; it treats the arms as independent samples, although they
share seeds, which makes it conservative for effects common random numbers would sharpen.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

from shadowtable.core.summary import end_reason_words
from shadowtable.lab.export import rows_csv, rows_parquet
from shadowtable.lab.run import arms
from shadowtable.lab.spec import SEAT_ROLE_PREFIX, LabSpec
from shadowtable.sim.stats import WinTally, z_score

__all__ = ["arm_figures", "lab_figures", "odd_games", "rows_csv", "rows_parquet"]

UNUSUAL_SHARE = 0.05
"""An end reason is unusual in an arm when fewer than this share of its games end so."""

MAX_ODD_GAMES = 20
"""Odd games listed at most."""

CONFIDENCE = 0.95

Row = Mapping[str, Any]


def sorted_rows(rows: Iterable[Row]) -> list[Row]:
    """Rows in game index order (figures never depend on the order games finished in)."""
    return sorted(rows, key=lambda row: int(row["index"]))


def tallies(rows: Sequence[Row], key: str) -> dict[str, WinTally]:
    """Win tallies by the per-seat list ``key`` of each row (``roles``, ``objectives``, ``bots``)."""
    result: dict[str, WinTally] = defaultdict(WinTally)
    for row in rows:
        names = row.get(key)
        if names is None:
            continue
        for name, won, value in zip(names, row["wins"], row["returns"], strict=True):
            result[str(name)].add(bool(won), float(value))
    return dict(sorted(result.items()))


def seat_tallies(rows: Sequence[Row]) -> dict[str, WinTally]:
    """Win tallies by seat number (as text)."""
    result: dict[str, WinTally] = defaultdict(WinTally)
    for row in rows:
        for seat, (won, value) in enumerate(zip(row["wins"], row["returns"], strict=True)):
            result[str(seat)].add(bool(won), float(value))
    return dict(sorted(result.items(), key=lambda item: int(item[0])))


def length_figures(values: Sequence[int]) -> dict[str, Any]:
    """Histogram (value to count), median, mean, minimum and maximum of ``values``."""
    if not values:
        return {"histogram": {}, "median": None, "mean": None, "min": None, "max": None}
    return {
        "histogram": {str(value): count for value, count in sorted(Counter(values).items())},
        "median": float(statistics.median(values)),
        "mean": statistics.fmean(values),
        "min": min(values),
        "max": max(values),
    }


def difference(wins_a: int, games_a: int, wins_b: int, games_b: int, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """Rate ``b`` minus rate ``a``: the difference, its Wald interval and the two-proportion z test."""
    if games_a == 0 or games_b == 0:
        return {"difference": None, "ci95": None, "z": None, "p_value": None, "test": "two-proportion z"}
    rate_a, rate_b = wins_a / games_a, wins_b / games_b
    diff = rate_b - rate_a
    spread = z_score(confidence) * math.sqrt(rate_a * (1 - rate_a) / games_a + rate_b * (1 - rate_b) / games_b)
    pooled = (wins_a + wins_b) / (games_a + games_b)
    error = math.sqrt(pooled * (1 - pooled) * (1 / games_a + 1 / games_b))
    z = diff / error if error > 0 else 0.0
    p_value = 2 * (1 - NormalDist().cdf(abs(z))) if error > 0 else 1.0
    return {
        "difference": diff,
        "ci95": [max(-1.0, diff - spread), min(1.0, diff + spread)],
        "z": z,
        "p_value": p_value,
        "test": "two-proportion z",
    }


def first_player(by_seat: Mapping[str, WinTally]) -> dict[str, Any]:
    """Seat 0's win rate minus the other seats' (as in ``shadowtable report``), with its interval and test."""
    first = by_seat.get("0", WinTally())
    others = [tally for seat, tally in by_seat.items() if seat != "0"]
    other_games = sum(t.games for t in others)
    other_wins = sum(t.wins for t in others)
    mean_other = statistics.fmean([t.win_rate for t in others]) if others else 0.0
    compared = difference(other_wins, other_games, first.wins, first.games)
    return {"edge": first.win_rate - mean_other, **compared}


def arm_figures(rows: Sequence[Row]) -> dict[str, Any]:
    """Every figure of one arm's rows."""
    ordered = sorted_rows(rows)
    games = len(ordered)
    endings = Counter(str(row["end_reason"]) for row in ordered)
    by_seat = seat_tallies(ordered)
    return {
        "games": games,
        "truncated": sum(1 for row in ordered if row["truncated"]),
        "by_seat": {k: v.to_json() for k, v in by_seat.items()},
        "by_role": {k: v.to_json() for k, v in tallies(ordered, "roles").items()},
        "by_objective": {k: v.to_json() for k, v in tallies(ordered, "objectives").items()},
        "by_bot": {k: v.to_json() for k, v in tallies(ordered, "bots").items()},
        "end_reasons": {reason: {"games": count, "share": count / games} for reason, count in sorted(endings.items())},
        "rounds": length_figures([int(row["rounds"]) for row in ordered]),
        "length_unit": str(ordered[0].get("length_unit", "rounds")) if ordered else "rounds",
        "actions": length_figures([int(row["actions"]) for row in ordered]),
        "first_player": first_player(by_seat),
    }


def role_tally(rows: Sequence[Row], role: str) -> WinTally:
    """The win tally of ``role`` (a role name, or ``seat N``) over ``rows``."""
    if role.startswith(SEAT_ROLE_PREFIX):
        return seat_tallies(rows).get(role[len(SEAT_ROLE_PREFIX) :], WinTally())
    return tallies(rows, "roles").get(role, WinTally())


def group_names(rows: Sequence[Row]) -> list[str]:
    """What comparisons are made by: the roles when every row names them, else ``seat N``."""
    if rows and all(row.get("roles") is not None for row in rows):
        return sorted({str(role) for row in rows for role in row["roles"]})
    seats = max((len(row["wins"]) for row in rows), default=0)
    return [f"{SEAT_ROLE_PREFIX}{seat}" for seat in range(seats)]


def compare(baseline: Sequence[Row], other: Sequence[Row], names: Sequence[str]) -> dict[str, Any]:
    """Each role's (or seat's) win rate in ``other`` minus the baseline's, tested."""
    result = {}
    for name in names:
        base, changed = role_tally(baseline, name), role_tally(other, name)
        result[name] = {
            "baseline": base.win_rate,
            "rate": changed.win_rate,
            **difference(base.wins, base.games, changed.wins, changed.games),
        }
    return result


def median_change(baseline: Sequence[Row], rows: Sequence[Row]) -> float | None:
    """The median rounds of ``rows`` minus the baseline's (``None`` when either has no games)."""
    if not baseline or not rows:
        return None
    return float(statistics.median(int(r["rounds"]) for r in rows)) - statistics.median(
        int(r["rounds"]) for r in baseline
    )


def lab_figures(spec: LabSpec, rows_by_arm: Mapping[int, Sequence[Row]]) -> dict[str, Any]:
    """The figures of a run: per arm, then each variant and each probe against the baseline."""
    baseline = sorted_rows(rows_by_arm.get(0, ()))
    names = group_names(baseline)
    per_arm, variants, probes = [], [], []
    for arm in arms(spec):
        rows = sorted_rows(rows_by_arm.get(arm.number, ()))
        per_arm.append({**arm.to_json(), **arm_figures(rows)})
        if arm.number == 0:
            continue
        if arm.probe is None:
            variants.append(
                {
                    "arm": arm.number,
                    "label": arm.label,
                    "win_rates": compare(baseline, rows, names),
                    "median_rounds_change": median_change(baseline, rows),
                }
            )
        else:
            probes.append(
                {
                    "arm": arm.number,
                    "label": arm.label,
                    "role": arm.probe.role,
                    "kind": arm.probe.kind,
                    "restricted_decisions": sum(int(row.get("restricted", 0)) for row in rows),
                    "restricted_games": sum(1 for row in rows if row.get("restricted", 0)),
                    **compare(baseline, rows, [arm.probe.role])[arm.probe.role],
                }
            )
    return {
        "spec": spec.to_json(),
        "confidence": CONFIDENCE,
        "test": "two-proportion z test (pooled, two-sided) on seat-games; interval: Wald",
        "arms": per_arm,
        "variants": variants,
        "probes": probes,
        "odd_games": odd_games(spec, rows_by_arm),
    }


def lopsidedness(row: Row) -> float:
    """The best return minus the mean of the others' (0 for one seat)."""
    values = sorted((float(v) for v in row["returns"]), reverse=True)
    return values[0] - statistics.fmean(values[1:]) if len(values) > 1 else 0.0


def odd_games(spec: LabSpec, rows_by_arm: Mapping[int, Sequence[Row]]) -> list[dict[str, Any]]:
    """Games worth watching, at most :data:`MAX_ODD_GAMES`: per arm the shortest, the longest and the
    most lopsided (fewest winners breaking ties, then the lowest index), then every game whose end
    reason is unusual (under :data:`UNUSUAL_SHARE` of its arm)."""
    found: list[dict[str, Any]] = []
    unusual: list[dict[str, Any]] = []
    for arm in arms(spec):
        rows = sorted_rows(rows_by_arm.get(arm.number, ()))
        if not rows:
            continue
        shortest = min(rows, key=lambda r: (int(r["rounds"]), int(r["actions"]), int(r["index"])))
        longest = min(rows, key=lambda r: (-int(r["rounds"]), -int(r["actions"]), int(r["index"])))
        lopsided = min(rows, key=lambda r: (-lopsidedness(r), sum(map(bool, r["wins"])), int(r["index"])))
        found.append(odd(arm.number, shortest, f"shortest: {shortest['rounds']} {unit_of(shortest)}"))
        found.append(odd(arm.number, longest, f"longest: {longest['rounds']} {unit_of(longest)}"))
        found.append(odd(arm.number, lopsided, lopsided_words(lopsided)))
        endings = Counter(str(row["end_reason"]) for row in rows)
        for row in rows:
            share = endings[str(row["end_reason"])] / len(rows)
            if share < UNUSUAL_SHARE:
                ending = end_reason_words(spec.game, str(row["end_reason"]))
                unusual.append(odd(arm.number, row, f"unusual end: {ending} ({share:.1%} of games)"))
    return merge_odd(found + unusual)[:MAX_ODD_GAMES]


def lopsided_words(row: Row) -> str:
    """Why a game is the most lopsided: its winners and how far the best return stood above the
    others' mean (``most lopsided: 1 winner, the best return 1.00 above the others' mean``)."""
    winners = sum(map(bool, row["wins"]))
    who = f"{winners} winner{'' if winners == 1 else 's'}" if winners else "no winner"
    return f"most lopsided: {who}, the best return {lopsidedness(row):.2f} above the others' mean"


def unit_of(row: Row) -> str:
    """What the row's ``rounds`` counts (rows written before the unit was kept: rounds)."""
    return str(row.get("length_unit", "rounds"))


def odd(arm: int, row: Row, why: str) -> dict[str, Any]:
    return {"arm": arm, "index": int(row["index"]), "why": why}


def merge_odd(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per game, its reasons joined in order."""
    merged: dict[tuple[int, int], dict[str, Any]] = {}
    for item in items:
        key = (item["arm"], item["index"])
        if key in merged:
            merged[key]["why"] += "; " + item["why"]
        else:
            merged[key] = dict(item)
    return list(merged.values())
