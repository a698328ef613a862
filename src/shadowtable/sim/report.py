"""Self-contained HTML balance reports with matplotlib plots (PNG embedded) and tables.

Needs matplotlib (the ``[report]`` extra). Sections: overview, win rates by role, by seat and by
player count with 95% intervals, first-player advantage, game length, how games end, indicator
trajectories per round, and bot ratings.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from shadowtable.core.errors import MissingExtraError
from shadowtable.core.record import GameRecord
from shadowtable.core.summary import end_reason_words
from shadowtable.sim.balance import GroupStats, group_records
from shadowtable.sim.stats import WinTally
from shadowtable.sim.tournament import SkillRating, updated_ratings

SECTIONS = (
    ("overview", "Overview"),
    ("roles", "Win rate by role"),
    ("seats", "Win rate by seat"),
    ("player-counts", "Win rate by player count"),
    ("first-player", "First-player advantage"),
    ("length", "Game length"),
    ("endings", "How games end"),
    ("indicators", "Indicator trajectories"),
    ("ratings", "Bot ratings"),
)

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; }
.note { color: #666; }
"""


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` (Agg backend); :class:`MissingExtraError` when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingExtraError.of("reports", "matplotlib", "report") from exc
    return plt


def _pyplot() -> Any:
    return require_matplotlib()


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    _pyplot().close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _img(fig: Any, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{_png(fig)}">'


def _bar_chart(labels: Sequence[str], tallies: Sequence[WinTally], title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    rates = [t.win_rate for t in tallies]
    errors = [[t.win_rate - t.win_interval[0] for t in tallies], [t.win_interval[1] - t.win_rate for t in tallies]]
    ax.bar(range(len(labels)), rates, yerr=errors, capsize=4, color="#4a78b5")
    ax.set_xticks(range(len(labels)), labels, rotation=20)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    return _img(fig, title)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _interval_text(tally: WinTally) -> str:
    low, high = tally.win_interval
    return f"{low:.1%} - {high:.1%}"


def _tally_rows(items: Iterable[tuple[str, WinTally]]) -> list[list[Any]]:
    return [[name, t.games, t.wins, f"{t.win_rate:.1%}", _interval_text(t)] for name, t in items]


TALLY_HEADER = ("", "games", "wins", "win rate", "95% CI")


def _title(group: GroupStats) -> str:
    return f"{group.game}, {group.players} players"


def overview(groups: Sequence[GroupStats]) -> str:
    rows = [[g.game, g.players, g.games, g.truncated, f"{sum(g.lengths) / max(1, len(g.lengths)):.1f}"] for g in groups]
    return _table(("game", "players", "games", "truncated", "mean length"), rows)


def roles(groups: Sequence[GroupStats]) -> str:
    parts = []
    for g in groups:
        if not g.by_role:
            parts.append(f'<p class="note">{html.escape(_title(g))}: the records name no roles.</p>')
            continue
        items = sorted(g.by_role.items())
        parts.append(f"<h3>{html.escape(_title(g))}</h3>" + _table(TALLY_HEADER, _tally_rows(items)))
        parts.append(_bar_chart([k for k, _ in items], [t for _, t in items], f"Win rate by role, {_title(g)}"))
    return "".join(parts)


def seats(groups: Sequence[GroupStats]) -> str:
    parts = []
    for g in groups:
        items = [(f"seat {s}", t) for s, t in sorted(g.by_seat.items())]
        parts.append(f"<h3>{html.escape(_title(g))}</h3>" + _table(TALLY_HEADER, _tally_rows(items)))
        parts.append(_bar_chart([k for k, _ in items], [t for _, t in items], f"Win rate by seat, {_title(g)}"))
    return "".join(parts)


def player_counts(groups: Sequence[GroupStats]) -> str:
    rows = []
    for g in groups:
        for role, t in sorted(g.by_role.items()) or [("any seat", _pooled(g))]:
            rows.append(
                [
                    g.game,
                    g.players,
                    role,
                    t.games,
                    f"{t.win_rate:.1%}",
                    _interval_text(t),
                ]
            )
    return _table(("game", "players", "role", "games", "win rate", "95% CI"), rows)


def _pooled(group: GroupStats) -> WinTally:
    return WinTally(
        games=sum(t.games for t in group.by_seat.values()), wins=sum(t.wins for t in group.by_seat.values())
    )


def first_player(groups: Sequence[GroupStats]) -> str:
    rows = [[_title(g), f"{g.by_seat[0].win_rate:.1%}", f"{g.first_player_edge:+.1%}"] for g in groups if g.by_seat]
    return _table(("group", "seat 0 win rate", "edge over the other seats"), rows)


def length(groups: Sequence[GroupStats]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    for g in groups:
        ax.hist(g.lengths, bins=20, alpha=0.6, label=_title(g))
    ax.set_xlabel("rounds (or turns)")
    ax.set_ylabel("games")
    ax.legend()
    rows = [[_title(g), min(g.lengths), sorted(g.lengths)[len(g.lengths) // 2], max(g.lengths)] for g in groups]
    return _table(("group", "min", "median", "max"), rows) + _img(fig, "Game length")


def endings(groups: Sequence[GroupStats]) -> str:
    rows = [
        [_title(g), end_reason_words(g.game, reason), n, f"{n / g.games:.1%}"]
        for g in groups
        for reason, n in g.endings.most_common()
    ]
    return _table(("group", "end", "games", "share"), rows)


def indicators(groups: Sequence[GroupStats]) -> str:
    parts = []
    for g in groups:
        if not g.trajectories:
            parts.append(f'<p class="note">{html.escape(_title(g))}: no indicator trajectories recorded.</p>')
            continue
        plt = _pyplot()
        fig, ax = plt.subplots(figsize=(7, 3))
        for name in sorted(g.trajectories):
            ax.plot(g.mean_trajectory(name), marker="o", label=name)
        ax.set_xlabel("round")
        ax.set_ylabel("mean value")
        ax.set_title(f"Indicators per round, {_title(g)}")
        ax.legend()
        parts.append(_img(fig, f"Indicators, {_title(g)}"))
    return "".join(parts)


def ratings(records: Sequence[GameRecord]) -> str:
    names = sorted({name for r in records for name in r.seats})
    if len(names) < 2:
        return '<p class="note">Only one bot played; ratings need at least two.</p>'
    table: dict[str, SkillRating] = {n: SkillRating(25.0, 25.0 / 3.0) for n in names}
    for record in records:
        if record.returns is not None:
            table.update(updated_ratings(table, record.seats, record.returns))
    rows = [
        [n, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}"]
        for n, r in sorted(table.items(), key=lambda x: -x[1].ordinal)
    ]
    return _table(("bot", "mu", "sigma", "ordinal"), rows)


def build_report(records: Sequence[GameRecord], *, title: str = "ShadowTable balance report") -> str:
    """The whole report as one HTML document."""
    groups = group_records(records)
    bodies = {
        "overview": overview(groups),
        "roles": roles(groups),
        "seats": seats(groups),
        "player-counts": player_counts(groups),
        "first-player": first_player(groups),
        "length": length(groups),
        "endings": endings(groups),
        "indicators": indicators(groups),
        "ratings": ratings(records),
    }
    sections = "".join(f'<section id="{key}"><h2>{name}</h2>{bodies[key]}</section>' for key, name in SECTIONS)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>{sections}</body></html>\n"
    )


def write_report(records: Sequence[GameRecord], out: Path, *, title: str = "ShadowTable balance report") -> Path:
    """Write the report to ``out``."""
    out.write_text(build_report(records, title=title), encoding="utf-8")
    return out
