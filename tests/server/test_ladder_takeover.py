"""A bot taking over a person's seat plays the strongest offered level whose time fits the table's clock."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from shadowtable.bots import ladder
from shadowtable.core.registry import make
from shadowtable.server.bot_levels import LEVELS, takeover_level
from shadowtable.server.config import ServerConfig
from shadowtable.server.table import Seat
from shadowtable.server.timers import Timers, move_seconds


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake results: level 2 shown in The Shadow Planet with 3 players at 0.6 s a decision."""
    monkeypatch.setenv(ladder.RESULTS_ENV, str(tmp_path))
    data = {
        "upper": {
            "level": "ismcts",
            "spec": ladder.LADDER["ismcts"].spec_for("shadow-planet"),
            "interval": [0.5, 0.7],
            "median_decision_s": 0.6,
        },
        "lower": {"level": "heuristic", "interval": [0.2, 0.4]},
        "separated": True,
    }
    ladder.result_path(tmp_path, "shadow-planet-3p", "ismcts", "heuristic").write_text(json.dumps(data))
    return tmp_path


def _table(game_id: str, players: int, clock: Any = None, turn: Any = None, clock_ms: int | None = None) -> Any:
    seats = [Seat("human", None, "Ada", None, zombie=True, clock_ms=clock_ms) for _ in range(players)]
    return SimpleNamespace(
        game=make(game_id, players=players), seats=seats, stored=SimpleNamespace(clock=clock, turn=turn)
    )


def test_the_strongest_offered_level_that_fits_takes_over(folder: Path) -> None:
    assert takeover_level("shadow-planet", 3, 5.0) == "ismcts"
    assert takeover_level("shadow-planet", 3, 0.5) == "heuristic"  # 0.6 s a decision does not fit 0.5 s
    assert takeover_level("shadow-planet", 4, 5.0) == "heuristic"  # level 2 not shown with 4 players
    assert takeover_level("tiny-showdown", 2, 5.0) == "random"  # no heuristic plays it


def test_the_table_clock_sets_the_time_a_takeover_may_take(folder: Path) -> None:
    timers = Timers(None, ServerConfig(default_bot="heuristic", bot_budget_s=5.0), None, None)  # type: ignore[arg-type]
    untimed = _table("shadow-planet", 3)
    assert move_seconds(untimed, 1, 0.0) == float("inf")
    assert timers.spec_for(untimed, 1) == LEVELS["ismcts"].spec_within(5.0, "shadow-planet")
    fast = _table("shadow-planet", 3, clock={"initial_ms": 60_000, "bonus_ms": 200, "on_timeout": "bot"}, clock_ms=0)
    assert move_seconds(fast, 1, 0.0) == pytest.approx(0.2)
    assert timers.spec_for(fast, 1) == "heuristic"  # a clock run out: 0.2 s a move, too little to search
    slow = _table("shadow-planet", 3, clock={"initial_ms": 600_000, "bonus_ms": 2_000, "on_timeout": "bot"})
    assert timers.spec_for(slow, 1).startswith("ismcts:")
    assert timers.spec_for(_table("shadow-planet", 4), 1) == "heuristic"
    bot_seat = _table("shadow-planet", 3)
    bot_seat.seats[1] = Seat("bot", "random", None, None)
    assert timers.spec_for(bot_seat, 1) == "random"  # a bot's own seat keeps its level
    operator = Timers(None, ServerConfig(default_bot="ismcts:iterations=5"), None, None)  # type: ignore[arg-type]
    assert operator.spec_for(untimed, 1) == "ismcts:iterations=5"  # the operator's own spec is kept
