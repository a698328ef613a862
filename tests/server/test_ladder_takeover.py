"""A bot taking over a person's seat plays the strongest offered level whose time fits the table's clock;
the lobby lists the offered levels weakest first by the same evidence."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from shadowtable.bots import ladder
from shadowtable.core.registry import make
from shadowtable.server.bot_levels import LEVELS, offered_levels, takeover_level, withheld_levels
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


def _result(
    folder: Path, upper: str, lower: str, win_rate: float, interval: list[float], lower_interval: list[float]
) -> None:
    """A fake ladder result for The Shadow Planet with 3 players, both sides played as now."""
    data = {
        "upper": {
            "level": upper,
            "spec": ladder.LADDER[upper].spec_for("shadow-planet"),
            "win_rate": win_rate,
            "interval": interval,
            "median_decision_s": 0.6 if upper == "ismcts" else 0.01,
        },
        "lower": {"level": lower, "spec": ladder.LADDER[lower].spec_for("shadow-planet"), "interval": lower_interval},
        "separated": interval[0] > lower_interval[1],
    }
    ladder.result_path(folder, "shadow-planet-3p", upper, lower).write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("ismcts_rate", "policy_rate", "head_to_head", "offered"),
    [
        (0.60, 0.45, ([0.2, 0.4], [0.6, 0.8]), ["policy", "ismcts"]),  # a head-to-head that separates decides
        (0.50, 0.55, ([0.6, 0.8], [0.2, 0.4]), ["ismcts", "policy"]),  # ... whichever way it separates
        (0.60, 0.45, ([0.4, 0.6], [0.4, 0.6]), ["policy"]),  # one too close to call: only the quicker offered
        (0.50, 0.55, ([0.4, 0.6], [0.4, 0.6]), ["policy"]),  # ... whatever their rates against the heuristic
        (0.60, 0.45, None, ["policy"]),  # none at all: the same
    ],
)
def test_the_lobby_offers_level_2_and_the_policy_both_only_where_one_beat_the_other_head_to_head(
    tmp_path: Path,
    ismcts_rate: float,
    policy_rate: float,
    head_to_head: tuple[list[float], list[float]] | None,
    offered: list[str],
) -> None:
    pytest.importorskip("numpy")  # the policy level plays only with NumPy
    _result(tmp_path, "ismcts", "heuristic", ismcts_rate, [ismcts_rate - 0.05, ismcts_rate + 0.05], [0.2, 0.3])
    _result(tmp_path, "policy", "heuristic", policy_rate, [policy_rate - 0.05, policy_rate + 0.05], [0.2, 0.3])
    if head_to_head is not None:
        _result(tmp_path, "policy", "ismcts", 0.5, *head_to_head)
    assert offered_levels("shadow-planet", 3, tmp_path) == ["random", "heuristic", *offered]  # lobby order
    withheld = [(left_out.name, left_out.beside) for left_out in withheld_levels("shadow-planet", 3, tmp_path)]
    assert withheld == ([] if len(offered) == 2 else [("ismcts", "policy")])
    assert takeover_level("shadow-planet", 3, 5.0, folder=tmp_path) == offered[-1]  # the strongest offered
    assert takeover_level("shadow-planet", 3, 0.5, folder=tmp_path) == "policy"  # level 2 does not fit 0.5 s


def test_of_two_levels_not_told_apart_the_quicker_is_offered_whichever_is_listed_below(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    _result(tmp_path, "ismcts", "heuristic", 0.45, [0.4, 0.5], [0.2, 0.3])  # level 2 the lower rate: listed below
    _result(tmp_path, "policy", "heuristic", 0.6, [0.55, 0.65], [0.2, 0.3])
    assert ladder.weakest_first(["ismcts", "policy"], "shadow-planet-3p", tmp_path) == ["ismcts", "policy"]
    assert offered_levels("shadow-planet", 3, tmp_path) == ["random", "heuristic", "policy"]
    [left_out] = withheld_levels("shadow-planet", 3, tmp_path)
    assert (left_out.name, left_out.beside, left_out.comparison.stronger) == ("ismcts", "policy", False)


def test_a_head_to_head_of_other_settings_decides_nothing(tmp_path: Path) -> None:
    _result(tmp_path, "ismcts", "heuristic", 0.6, [0.55, 0.65], [0.2, 0.3])
    _result(tmp_path, "policy", "heuristic", 0.45, [0.4, 0.5], [0.2, 0.3])
    _result(tmp_path, "policy", "ismcts", 0.7, [0.6, 0.8], [0.2, 0.4])
    assert ladder.stronger("policy", "ismcts", "shadow-planet-3p", tmp_path)
    path = ladder.result_path(tmp_path, "shadow-planet-3p", "policy", "ismcts")
    data = json.loads(path.read_text())
    data["lower"]["spec"] = "ismcts:iterations=200"  # level 2 as it was once
    path.write_text(json.dumps(data))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))  # read anew
    assert not ladder.stronger("policy", "ismcts", "shadow-planet-3p", tmp_path)  # the rates decide
    assert ladder.stronger("policy", "ismcts", "shadow-planet-3p", tmp_path / "none")  # no results: the order


CONFIGURATIONS = [
    ("shadow-planet", 3, None),
    ("shadow-planet", 4, None),
    ("shadow-planet", 5, None),
    ("shadowlord", 2, None),
    ("shadowlord", 2, {"modified": True}),
    ("shadowlord", 3, None),
    ("shadowlord", 4, None),
]


def _separated_above(upper: str, lower: str, config: str, folder: Path) -> bool:
    """Whether a result file in ``folder`` puts ``upper``'s interval wholly above ``lower``'s, with
    ``upper`` on either side of the file."""
    ahead = ladder.read_result(folder, config, upper, lower)
    if ahead is not None and float(ahead["upper"]["interval"][0]) > float(ahead["lower"]["interval"][1]):
        return True
    behind = ladder.read_result(folder, config, lower, upper)
    return behind is not None and float(behind["lower"]["interval"][0]) > float(behind["upper"]["interval"][1])


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGURATIONS)
def test_every_level_the_lobby_offers_beat_the_level_listed_below_it_in_the_repositorys_results(
    game_id: str, players: int, options: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")  # the policy level plays only with NumPy
    monkeypatch.delenv(ladder.RESULTS_ENV, raising=False)
    folder, config = ladder.results_dir(), ladder.config_name(game_id, players, options)
    offered = offered_levels(game_id, players, options=options)
    assert offered[:2] == ["random", "heuristic"] and len(offered) >= 3, offered  # a policy ships everywhere
    for lower, upper in zip(offered[1:], offered[2:], strict=False):
        assert _separated_above(upper, lower, config, folder), (config, upper, lower)
