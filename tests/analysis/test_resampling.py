"""The analysis reads only the seat's observation: states it cannot tell apart analyse alike."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.analysis.helpers import FAST, planted, tiny_record

from shadowtable.analysis import analyse_decision, analyse_record, decision_points, rollout_policy
from shadowtable.core.record import game_for_record


def test_two_records_differing_only_in_a_hidden_card_analyse_alike_for_the_seat_that_cannot_see_it() -> None:
    # Seat 1 holds 0 in one game and 3 in the other; seat 0 raises, seat 1 passes: seat 0 wins both.
    low, high = tiny_record([2, 0], [1, 0, 1, 0]), tiny_record([2, 3], [1, 0, 1, 0])
    assert low.returns == high.returns
    settings = replace(FAST, seat=0, rollouts=20)
    assert analyse_record(low, settings).to_json() == analyse_record(high, settings).to_json()
    # The seat that holds the card can tell the games apart, and its analysis does.
    other = replace(settings, seat=1)
    assert analyse_record(low, other).decisions != analyse_record(high, other).decisions


@pytest.mark.parametrize("name", ["shadow-planet-wrong-identity", "shadowlord-surrender"])
def test_resampled_states_of_a_real_game_analyse_like_the_true_state(name: str) -> None:
    record = planted(name)
    game = game_for_record(record)
    policy = rollout_policy(game, "random")
    settings = replace(FAST, rollouts=2)
    points = [p for p in decision_points(record) if len(game.legal_actions(p.state)) > 1]
    chosen = points[-6:]  # late decisions: short rollouts
    for index, point in enumerate(chosen):
        true = analyse_decision(game, point, settings, policy)
        observation = game.observe(point.state, point.seat)
        sampled = game.determinize(observation, random.Random(index))
        twin = analyse_decision(game, replace(point, state=sampled), settings, policy)
        assert twin == true, f"step {point.ply}: the analysis of seat {point.seat} depends on what it could not see"
