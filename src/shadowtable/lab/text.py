"""The lab's figures as plain text, for ``shadowtable lab run`` and ``lab show``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def rate_text(tally: Mapping[str, Any]) -> str:
    """``0.412 [0.371, 0.454] of 500``: a win rate, its 95% interval and its seat-games."""
    low, high = tally["win_rate_ci95"]
    return f"{tally['win_rate']:.3f} [{low:.3f}, {high:.3f}] of {tally['games']}"


def change_text(change: Mapping[str, Any]) -> str:
    """``+0.050 [+0.010, +0.090], p=0.014``: a difference, its 95% interval and its p value."""
    if change.get("difference") is None:
        return "no games"
    low, high = change["ci95"]
    return f"{change['difference']:+.3f} [{low:+.3f}, {high:+.3f}], p={change['p_value']:.3g}"


def arm_lines(arm: Mapping[str, Any]) -> list[str]:
    """One arm's figures."""
    rounds = arm["rounds"]
    lines = [
        f"arm {arm['number']} ({arm['label']}): {arm['games']} games, {arm['truncated']} truncated; "
        f"{arm.get('length_unit', 'rounds')}: median {rounds['median']}, min {rounds['min']}, max {rounds['max']}"
    ]
    for title, key in (("role", "by_role"), ("Objective", "by_objective"), ("seat", "by_seat"), ("bot", "by_bot")):
        for name, tally in arm[key].items():
            lines.append(f"  {title} {name}: win rate {rate_text(tally)}")
    ends = ", ".join(f"{reason} {end['share']:.1%}" for reason, end in arm["end_reasons"].items())
    lines.append(f"  ends: {ends or 'none'}")
    first = arm["first_player"]
    lines.append(f"  first-player edge {first['edge']:+.3f} (seat 0 vs the others: {change_text(first)})")
    return lines


def format_figures(figures: Mapping[str, Any]) -> str:
    """Every figure of a run, arm by arm, then the comparisons with the baseline and the odd games."""
    spec = figures["spec"]
    lines = [f"{spec['game']}, {spec['players']} players, {spec['games']} games per arm, seed {spec['seed']}"]
    for arm in figures["arms"]:
        lines.extend(arm_lines(arm))
    if figures["variants"]:
        lines.append(f"variants against the baseline ({figures['test']}):")
    for variant in figures["variants"]:
        changes = "; ".join(f"{name} {change_text(c)}" for name, c in variant["win_rates"].items())
        lines.append(f"  arm {variant['arm']} ({variant['label']}): {changes}")
    if figures["probes"]:
        lines.append("restricted play against the baseline:")
    for probe in figures["probes"]:
        lines.append(
            f"  arm {probe['arm']}: {probe['role']} never {probe['kind']!r}: "
            f"{probe['baseline']:.3f} -> {probe['rate']:.3f}, {change_text(probe)}"
        )
    if figures["odd_games"]:
        lines.append("odd games (arm, game index):")
    for game in figures["odd_games"]:
        lines.append(f"  arm {game['arm']} game {game['index']}: {game['why']}")
    return "\n".join(lines)
