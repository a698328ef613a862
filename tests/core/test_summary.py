"""One Summary type: both games write it, it reads back to the same facts, reports read roles
and indicators from it, and a malformed summary raises RecordError."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.core import GameRecord, RecordError, make
from shadowtable.core.summary import SeatSummary, Summary
from shadowtable.games.shadow_planet.summary import summarize as summarize_planet
from shadowtable.games.shadowlord.summary import summarize as summarize_lord
from shadowtable.sim.summaries import record_roles, record_trajectories


def final_state(game_id: str, players: int, seed: int) -> tuple[Any, Any]:
    game = make(game_id, players=players)
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        actions = [a for a, _ in game.chance_outcomes(state)] if game.current_player(state) < 0 else None
        state = game.apply(state, rng.choice(actions or game.legal_actions(state)))
    return game, state


@pytest.mark.parametrize(("game_id", "players", "seed"), [("shadow-planet", 4, 3), ("shadowlord", 2, 4)])
def test_both_games_write_one_summary_type_that_reads_back(game_id: str, players: int, seed: int) -> None:
    game, state = final_state(game_id, players, seed)
    summarize = summarize_planet if game_id == "shadow-planet" else summarize_lord
    typed = summarize(game.ctx, state)
    assert isinstance(typed, Summary) and typed.to_json() == game.summary(state)
    assert Summary.from_json(game.summary(state)) == typed
    assert typed.end_reason is not None and typed.seats is not None and len(typed.seats) == players
    assert [seat.seat for seat in typed.seats] == list(range(players))


def test_the_shadow_planet_names_roles_winners_and_indicators() -> None:
    game, state = final_state("shadow-planet", 3, 8)
    typed = summarize_planet(game.ctx, state)
    roles = typed.roles()
    assert roles is not None and set(roles) <= {"alien", "astronaut", "guardian"}
    assert typed.seats is not None and [s.seat for s in typed.seats if s.won] == typed.facts["winners"]
    assert set(typed.trajectories()) == {"countdown", "repair", "threat"}
    assert len(typed.trajectories()["countdown"]) == len(state.trajectory) > 0
    record = GameRecord.from_json(
        {
            "game": "shadow-planet",
            "version": "1",
            "players": 3,
            "options": {},
            "seats": ["a", "b", "c"],
            "actions": [],
            "metadata": game.summary(state),
        }  # fmt: skip
    )
    assert record_roles(record) == roles and record_trajectories(record) == typed.trajectories()


def test_shadowlord_names_no_roles_and_no_indicators() -> None:
    game, state = final_state("shadowlord", 3, 2)
    typed = summarize_lord(game.ctx, state)
    assert typed.roles() is None and typed.trajectories() == {} and typed.trajectory is None
    assert "trajectory" not in typed.to_json() and "role" not in typed.to_json()["seats"][0]


def test_the_written_layout() -> None:
    summary = Summary(
        end_reason="done",
        seats=(SeatSummary(0, "high", True, {"score": 3}), SeatSummary(1)),
        trajectory=({"t": 1},),
        facts={"rounds": 2},
    )
    assert summary.to_json() == {
        "end_reason": "done",
        "rounds": 2,
        "trajectory": [{"t": 1}],
        "seats": [{"seat": 0, "role": "high", "won": True, "score": 3}, {"seat": 1}],
    }
    assert Summary.from_json(summary.to_json()) == summary
    assert summary.roles() is None  # seat 1 has no role


def test_the_earlier_layout_reads_as_the_same_facts() -> None:
    earlier = Summary.from_json({"roles": ["x", "y"], "trajectories": {"t": [1, 2]}, "end_reason": None})
    assert earlier.roles() == ["x", "y"] and earlier.trajectories() == {"t": [1.0, 2.0]}
    named = Summary.from_json({"seats": [{"objective": "x"}, {"objective": "y"}]})
    assert named.roles() == ["x", "y"] and named.seats is not None and named.seats[1].seat == 1


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"end_reason": 3},
        {"seats": "x"},
        {"seats": [{"seat": "0"}]},
        {"seats": [{"seat": True}]},
        {"seats": [{"seat": 0, "role": 1}]},
        {"seats": [{"seat": 0, "won": "yes"}]},
        {"trajectory": [{"t": "high"}]},
        {"trajectory": {"t": 1}},
    ],
)
def test_a_malformed_summary_raises_record_error(data: Any) -> None:
    with pytest.raises(RecordError):
        Summary.from_json(data)
