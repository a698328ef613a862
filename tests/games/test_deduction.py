"""What a seat could deduce (docs/deduction.md): read from the seat's view only, valid
probabilities, and better than knowing nothing."""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

import pytest

from shadowtable.core.deduction import SeenStep, belief, deduction_of, record_trajectory, seen_steps
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.core.runner import play_game
from shadowtable.games.shadow_planet.deduction import consistent_deals, soft_policy

PLANET = "shadow-planet"
LORD = "shadowlord"


@cache
def heuristic_record(game_id: str, players: int, seed: int) -> GameRecord:
    game = make(game_id, players=players)
    bot = load(manifest_of(type(game)).heuristic_bot or "")
    return play_game(game, [bot() for _ in range(players)], seed)


def view_at(game: Game[Any], pairs: list[tuple[Any, int | None]], seat: int) -> list[SeenStep]:
    """``seat``'s steps over ``pairs`` plus its current observation (action ``None``)."""
    last = pairs[-1][0]
    return [*seen_steps(game, pairs, seat), SeenStep(game.observe(last, seat), game.current_player(last), None)]


def cut(pairs: list[tuple[Any, int | None]], upto: int) -> list[tuple[Any, int | None]]:
    return [*pairs[:upto], (pairs[upto][0], None)]


def twin_pairs(game: Game[Any], pairs: list[tuple[Any, int | None]], seat: int) -> list[tuple[Any, int | None]]:
    """The same trajectory with every state replaced by one ``seat`` cannot tell from it."""
    rng = random.Random(99)
    return [(game.determinize(game.observe(state, seat), rng), action) for state, action in pairs]


def last_hidden(game: Game[Any], pairs: list[tuple[Any, int | None]]) -> int:
    return max(i for i, (state, _) in enumerate(pairs) if None in game.observe(state, 0)["public"]["objectives"])


# -- (a) resampling: the belief reads only the seat's view --------------------------------------
@pytest.mark.parametrize("seat", [0, 2])
def test_planet_belief_is_the_same_for_states_the_seat_cannot_tell_apart(seat: int) -> None:
    game, pairs = record_trajectory(heuristic_record(PLANET, 4, 11))
    pairs = cut(pairs, 250)
    twins = twin_pairs(game, pairs, seat)
    assert any(t.objectives != s.objectives or t.where != s.where for (s, _), (t, _) in zip(pairs, twins, strict=True))
    true_belief = belief(game, seat, view_at(game, pairs, seat), random.Random(5))
    twin_belief = belief(game, seat, view_at(game, twins, seat), random.Random(5))
    assert true_belief["evidence_steps"] > 0
    assert twin_belief == true_belief


def test_lord_belief_is_the_same_for_states_the_seat_cannot_tell_apart() -> None:
    game, pairs = record_trajectory(heuristic_record(LORD, 4, 11))
    checked = 0
    for upto in range(40, len(pairs) - 1, 97):
        state = pairs[upto][0]
        twin = game.determinize(game.observe(state, 1), random.Random(upto))
        true_belief = belief(game, 1, [SeenStep(game.observe(state, 1), 0, None)], random.Random(0))
        twin_belief = belief(game, 1, [SeenStep(game.observe(twin, 1), 0, None)], random.Random(0))
        assert twin_belief == true_belief
        checked += any(o["hidden_cards"] for o in true_belief["opponents"])
    assert checked > 0


# -- (b) valid probabilities ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_planet_beliefs_are_distributions_that_respect_what_the_seat_knows(players: int) -> None:
    game, pairs = record_trajectory(heuristic_record(PLANET, players, 12))
    upto = last_hidden(game, pairs)
    for seat in range(players):
        steps = view_at(game, cut(pairs, upto), seat)
        own = steps[-1].observation["public"]["objectives"][seat]
        for use_actions in (True, False):
            rows = belief(game, seat, steps, random.Random(1), use_actions=use_actions)["objectives"]
            assert rows[seat] == [1.0 if o == own else 0.0 for o in range(5)]
            for other, row in enumerate(rows):
                assert math.isclose(sum(row), 1.0)
                assert all(p >= 0.0 for p in row)
                if other != seat:
                    assert row[own] == 0.0


def test_planet_consistent_deals_never_remove_the_alien() -> None:
    observation = {"public": {"objectives": [1, None, None], "removed_objectives": 2}}
    deals = consistent_deals(observation)
    assert deals and all(0 in deal.values() for deal, _ in deals)
    assert sum(weight for _, weight in deals) == 6  # the Alien to seat 1 or 2, the other seat: any of 3 left


def test_soft_policy_is_a_distribution_over_the_legal_actions() -> None:
    assert math.isclose(soft_policy(True, 4, 0.1) + 3 * soft_policy(False, 4, 0.1), 1.0)
    assert soft_policy(True, 1, 0.1) == 1.0


def test_lord_beliefs_are_distributions_over_the_unseen_cards() -> None:
    game, pairs = record_trajectory(heuristic_record(LORD, 4, 12))
    for upto in range(0, len(pairs), 113):
        state = pairs[upto][0]
        for seat in range(4):
            found = belief(game, seat, [SeenStep(game.observe(state, seat), 0, None)], random.Random(0))
            assert [o["seat"] for o in found["opponents"]] == [s for s in range(4) if s != seat]
            for opponent in found["opponents"]:
                assert math.isclose(sum(p for _, p in opponent["total_distribution"]), 1.0)
                assert math.isclose(sum(opponent["expected_counts"]), opponent["hidden_cards"])
                mean = sum(t * p for t, p in opponent["total_distribution"])
                assert math.isclose(mean, opponent["expected_total"], abs_tol=1e-9)


# -- (c) better than the uniform prior -----------------------------------------------------------
def test_planet_belief_beats_the_uniform_prior_and_logical_deduction_over_heuristic_games() -> None:
    losses: list[float] = []
    logical_losses: list[float] = []
    for seed in (21, 22, 23, 24):
        game, pairs = record_trajectory(heuristic_record(PLANET, 4, seed))
        truth = game.observe(pairs[-1][0], None)["public"]["objectives"]
        upto = last_hidden(game, pairs)
        for seat in range(4):
            steps = view_at(game, cut(pairs, upto), seat)
            rows = belief(game, seat, steps, random.Random(seed))["objectives"]
            logical = belief(game, seat, steps, random.Random(seed), use_actions=False)["objectives"]
            shown = steps[-1].observation["public"]["objectives"]
            losses += [-math.log(max(rows[o][truth[o]], 1e-15)) for o in range(4) if shown[o] is None]
            logical_losses += [-math.log(logical[o][truth[o]]) for o in range(4) if shown[o] is None]
    mean = sum(losses) / len(losses)
    assert mean < math.log(5)
    assert mean < sum(logical_losses) / len(logical_losses)


# -- (d) exact deduction alone is sound ----------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_logical_deduction_never_rules_out_the_truth(players: int) -> None:
    game, pairs = record_trajectory(heuristic_record(PLANET, players, 13))
    truth = game.observe(pairs[-1][0], None)["public"]["objectives"]
    for upto in range(0, last_hidden(game, pairs) + 1, 37):
        state = pairs[upto][0]
        for seat in range(players):
            now = game.observe(state, seat)
            rows = belief(game, seat, [SeenStep(now, 0, None)], random.Random(0), use_actions=False)["objectives"]
            for other, shown in enumerate(now["public"]["objectives"]):
                if shown is None:
                    assert rows[other][truth[other]] > 0.0
                    if players >= 4:  # no Alien-only removal: the truth is never below the uniform 1/5
                        assert rows[other][truth[other]] >= 0.2 - 1e-12


def test_a_view_with_every_action_hidden_gives_exactly_logical_deduction() -> None:
    game, pairs = record_trajectory(heuristic_record(PLANET, 4, 11))
    steps = view_at(game, cut(pairs, 300), 1)
    hidden = [SeenStep(s.observation, s.actor, None) for s in steps]
    with_actions = belief(game, 1, hidden, random.Random(3))
    logical = belief(game, 1, steps, random.Random(3), use_actions=False)
    assert with_actions["evidence_steps"] == 0
    assert with_actions["objectives"] == logical["objectives"]


def test_a_game_without_a_deduction_model_is_refused() -> None:
    game = make("tiny-showdown", players=2)
    with pytest.raises(ShadowTableError):
        deduction_of(game)


@pytest.mark.parametrize("game_id", [PLANET, LORD])
def test_beliefs_along_one_replay_equal_each_belief_worked_out_alone(game_id: str) -> None:
    """The panel's beliefs (one replay; The Shadow Planet's model fed one step at a time) are
    exactly ``record_belief`` at each step, the last step and a step past the end included."""
    from shadowtable.core.deduction import beliefs_along, record_belief

    record = heuristic_record(game_id, 3, 4)
    total = len(record.actions)
    steps = [0, 7, 31, total // 2, total - 1, total]
    along = list(beliefs_along(record, 2, [*steps, total + 5]))
    assert [step for step, _ in along] == steps
    for step, found in along:
        assert found == record_belief(record, 2, upto=step), step
    if game_id == PLANET:
        assert hasattr(deduction_of(make(game_id, players=3)), "tracker")
        assert along[-1][1]["evidence_steps"] > 0, "the actions seen were used"
