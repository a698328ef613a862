"""One result per seat, from the game: ``game.words.results`` agrees with the returns in every
game, with The Shadow Planet's own outcome, and says when a Shadowlord! seat was knocked out."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.core.events import game_log
from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.core.wording import SeatNames, SeatResult, results_from_returns
from shadowtable.games.shadow_planet.rules.endgame import outcome
from shadowtable.tui.app import end_words
from shadowtable.tutorial.coach import Coach


def playout(game: Any, seed: int) -> tuple[Any, list[int]]:
    rng, state, actions = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        if game.current_player(state) < 0:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        actions.append(action)
    return state, actions


def agrees(results: tuple[SeatResult, ...], returns: list[float]) -> bool:
    won = [returns[r.seat] for r in results if r.result == "won"]
    lost = [returns[r.seat] for r in results if r.result == "lost"]
    return min(won) > max(lost, default=min(won) - 1) if won else len(set(returns)) == 1


def test_results_read_from_returns() -> None:
    assert [r.result for r in results_from_returns([1.0, 0.0, 0.0])] == ["won", "lost", "lost"]
    assert [r.result for r in results_from_returns([0.5, 0.5])] == ["drew", "drew"]


@pytest.mark.parametrize(("title", "players"), [("shadow-planet", 4), ("shadowlord", 3)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_seat_has_one_result_that_agrees_with_the_returns(title: str, players: int, seed: int) -> None:
    game = make(title, players=players)
    assert game.words.results(game.initial_state()) == ()
    state, actions = playout(game, seed)
    results = game.words.results(state, game_log(game, actions, None))
    assert [r.seat for r in results] == list(range(players))
    assert all(r.why for r in results) and agrees(results, game.returns(state))
    if title == "shadow-planet":
        seats = outcome(game.ctx, state)["seats"]
        assert [r.result == "won" for r in results] == [row["won"] for row in seats]
        for result, row in zip(results, seats, strict=True):
            assert f"{row['objective']} ({row['role']}) matched {row['identity']}" in result.why
            assert "this seat" not in result.why  # read under a name or as "You won/lost"
    else:
        out = [k for k in range(players) if state.seat_out[k] and k != state.winner]
        assert all(results[k].why.startswith(("eliminated (in turn", "surrendered in turn")) for k in out)
        assert not any("surrendered to" in r.why for r in results)


def test_the_shared_table_gives_the_same_results() -> None:
    game = make("shadowlord", players=3)
    table = Table(game, [None] * 3, 0)
    assert table.results() == ()
    state, actions = playout(game, 1)
    for action in actions:
        table.apply(action)
    assert table.results() == game.words.results(state, game_log(game, actions, None))


def test_the_terminal_app_and_the_tutorial_head_with_the_seats_own_result() -> None:
    results = (SeatResult(0, "won", "the best score"), SeatResult(1, "lost", "a lower score"))
    assert end_words(results, ["Ada", "Bob"], 1).startswith("You lost: a lower score.")
    assert "Won: Ada." in end_words(results, ["Ada", "Bob"], None)
    coach = Coach(make("shadowlord", players=2), 0, ["Ada", "Bob"])
    assert coach.result_text(results) == "You won: the best score"


def test_a_named_result_names_every_seat_its_why_mentions() -> None:
    result = SeatResult(0, "lost", "eliminated (in turn 15) before the end; seat 1 is Master of the Universe")
    names = SeatNames.of(["Ada", "Brook (heuristic bot)"])
    assert result.named(names) == {
        "seat": 0,
        "result": "lost",
        "why": "eliminated (in turn 15) before the end; Brook (heuristic bot) is Master of the Universe",
        "name": "Ada",
    }
