"""Summaries of batches of game records: win rate by seat and game length."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from shadowtable.core.record import GameRecord
from shadowtable.core.registry import game_class
from shadowtable.sim.stats import WinTally


@dataclass
class SeatStats(WinTally):
    """One seat's results over a batch: its bot and its tally."""

    seat: int = 0
    bot: str = ""


@dataclass
class BatchSummary:
    """Results of a batch: per-seat wins, game lengths and truncations."""

    game: str
    players: int
    games: int = 0
    truncated: int = 0
    lengths: list[int] = field(default_factory=list)
    seats: list[SeatStats] = field(default_factory=list)

    @property
    def median_length(self) -> float:
        return float(statistics.median(self.lengths)) if self.lengths else 0.0

    @property
    def mean_length(self) -> float:
        return statistics.fmean(self.lengths) if self.lengths else 0.0


def summarize(records: Iterable[GameRecord]) -> BatchSummary:
    """Aggregate records of one game and player count; a win is a return at the utility maximum."""
    summary: BatchSummary | None = None
    for record in records:
        if summary is None:
            summary = BatchSummary(record.game, record.players)
            summary.seats = [SeatStats(seat=seat, bot=name) for seat, name in enumerate(record.seats)]
        best = game_class(record.game).SPEC.max_utility
        summary.games += 1
        summary.lengths.append(len(record.actions))
        if record.truncated or record.returns is None:
            summary.truncated += 1
        for stats, value in zip(summary.seats, record.returns or [0.0] * record.players, strict=True):
            stats.add(value >= best and not record.truncated, value)
    if summary is None:
        raise ValueError("no records to summarize")
    return summary


def format_summary(summary: BatchSummary) -> str:
    """A plain-text table of a batch summary (the bot column as wide as its longest spec)."""
    width = max([24, *(len(s.bot) for s in summary.seats)])
    lines = [
        f"{summary.game}, {summary.players} players: {summary.games} games, "
        f"{summary.truncated} truncated; length (actions incl. chance) "
        f"mean {summary.mean_length:.1f}, median {summary.median_length:.0f}, "
        f"min {min(summary.lengths)}, max {max(summary.lengths)}",
        f"{'seat':>4}  {'bot':<{width}} {'games':>6} {'wins':>6} {'win rate':>9} {'mean return':>12}",
    ]
    for s in summary.seats:
        lines.append(
            f"{s.seat:>4}  {s.bot:<{width}} {s.games:>6} {s.wins:>6} {s.win_rate:>9.3f} {s.mean_return:>12.3f}"
        )
    return "\n".join(lines)
