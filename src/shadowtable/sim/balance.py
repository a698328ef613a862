"""Balance statistics over game records: the numbers behind a report (standard library only).

Games describe themselves in ``record.metadata`` (their ``summary``): roles and indicator
trajectories (read by :mod:`shadowtable.sim.summaries`), ``end_reason`` and ``rounds`` (or
``turns``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.record import GameRecord
from shadowtable.core.registry import game_class
from shadowtable.sim.stats import WinTally
from shadowtable.sim.summaries import record_roles, record_trajectories


@dataclass
class GroupStats:
    """Everything measured for one game id and player count."""

    game: str
    players: int
    games: int = 0
    truncated: int = 0
    by_seat: dict[int, WinTally] = field(default_factory=lambda: defaultdict(WinTally))
    by_role: dict[str, WinTally] = field(default_factory=lambda: defaultdict(WinTally))
    by_bot: dict[str, WinTally] = field(default_factory=lambda: defaultdict(WinTally))
    endings: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    trajectories: dict[str, list[list[float]]] = field(default_factory=lambda: defaultdict(list))

    @property
    def first_player_edge(self) -> float:
        """Seat 0's win rate minus the mean win rate of the other seats."""
        others = [t.win_rate for s, t in self.by_seat.items() if s != 0]
        first = self.by_seat[0].win_rate if 0 in self.by_seat else 0.0
        return first - (sum(others) / len(others) if others else 0.0)

    def mean_trajectory(self, name: str) -> list[float]:
        """The mean value of indicator ``name`` at each round, over the games that reached it."""
        series = self.trajectories.get(name, [])
        longest = max((len(s) for s in series), default=0)
        means = []
        for r in range(longest):
            values = [s[r] for s in series if len(s) > r]
            means.append(sum(values) / len(values))
        return means

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "truncated": self.truncated,
            "by_seat": {str(k): v.to_json() for k, v in sorted(self.by_seat.items())},
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_bot": {k: v.to_json() for k, v in sorted(self.by_bot.items())},
            "endings": dict(self.endings),
            "first_player_edge": self.first_player_edge,
            "mean_length": sum(self.lengths) / len(self.lengths) if self.lengths else 0.0,
            "trajectories": {k: self.mean_trajectory(k) for k in sorted(self.trajectories)},
        }


def group_records(records: Iterable[GameRecord]) -> list[GroupStats]:
    """Statistics per (game, player count), sorted."""
    groups: dict[tuple[str, int], GroupStats] = {}
    for record in records:
        key = (record.game, record.players)
        group = groups.setdefault(key, GroupStats(*key))
        add_record(group, record)
    return [groups[k] for k in sorted(groups)]


def add_record(group: GroupStats, record: GameRecord) -> None:
    """Count one record into ``group``."""
    best = game_class(record.game).SPEC.max_utility
    meta = record.metadata
    group.games += 1
    group.actions.append(len(record.actions))
    group.lengths.append(int(meta.get("rounds", meta.get("turns", len(record.actions)))))
    group.endings[str(meta.get("end_reason", "truncated" if record.truncated else "ended"))] += 1
    if record.truncated:
        group.truncated += 1
    returns = record.returns or [0.0] * record.players
    roles = record_roles(record)
    for seat, value in enumerate(returns):
        won = value >= best and not record.truncated
        group.by_seat[seat].add(won)
        group.by_bot[record.seats[seat]].add(won)
        if roles is not None:
            group.by_role[roles[seat]].add(won)
    for name, values in record_trajectories(record).items():
        group.trajectories[name].append(values)
