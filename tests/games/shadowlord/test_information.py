"""Hidden information, determinization, notation, JSON and rendering."""

from __future__ import annotations

import random

import pytest

from shadowtable.core import IllegalActionError, InvalidActionError, StateFormatError
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import SLState
from shadowtable.games.shadowlord.tasks import Build, DrawToHand

from .helpers import BLUE, RED, G, board, do, game, give_hand, give_portrait, pending, put, warrior


def sample_state() -> tuple[ShadowlordGame, SLState]:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7, 10)
    give_hand(s, 1, 0, 2, 4)
    give_portrait(s, warrior(BLUE), 7)
    put(s, warrior(RED), G(1, 2), ships=2)
    return g, pending(g, s, Build(0))


def test_attack_hands_and_portraits_are_private_counts_are_public() -> None:
    g, s = sample_state()
    mine = g.observe(s, 0)
    theirs = g.observe(s, 1)
    spectator = g.observe(s, None)
    assert mine["private"]["hand"] == [0, 0, 0, 1, 1] and theirs["private"]["hand"] == [1, 1, 1, 0, 0]
    assert spectator["private"]["hand"] is None
    assert mine["public"]["hand_counts"][:2] == [2, 3]
    assert str(warrior(BLUE)) in theirs["private"]["portraits"] and not mine["private"]["portraits"]
    assert "deck" not in mine["public"] and mine["public"]["deck_count"] == 50 - 6


def test_states_differing_only_in_hidden_cards_look_the_same() -> None:
    g, s = sample_state()
    other = s.copy()
    other.hand[5:10] = [0, 0, 1, 1, 1]  # seat 1 holds 4, 7, 10 instead of 0, 2, 4
    other.deck = [s.deck[0] + 1, s.deck[1] + 1, s.deck[2], s.deck[3] - 1, s.deck[4] - 1]
    assert g.observe(s, 0) == g.observe(other, 0)
    assert g.observe(s, 1) != g.observe(other, 1)


def test_determinize_keeps_the_observation_and_samples_the_rest() -> None:
    g, s = sample_state()
    obs = g.observe(s, 0)
    hands = set()
    for k in range(20):
        d = g.determinize(obs, random.Random(k))
        assert g.observe(d, 0) == obs and g.conservation_errors(d) == []
        hands.add(tuple(d.hand[5:10]))
    assert len(hands) > 1


def test_notation_round_trips_and_known_illegal_text_raises() -> None:
    g, s = sample_state()
    for action in g.legal_actions(s):
        assert g.parse_action(s, g.action_to_str(s, action)) == action
    with pytest.raises(IllegalActionError):
        g.parse_action(s, "ship to Blue Warrior")
    with pytest.raises(InvalidActionError):
        g.parse_action(s, "fly to the moon")


def test_chance_outcomes_are_readable() -> None:
    g = game(4)
    s = pending(g, board(g), DrawToHand(0))
    assert [g.action_to_str(s, a) for a in g.legal_actions(s)] == [
        "draw Power Card: 0",
        "draw Power Card: 2",
        "draw Power Card: 4",
        "draw Power Card: 7",
        "draw Power Card: 10",
    ]
    assert g.chance_outcomes(s)[0] == (0, 8 / 50)


def test_state_json_round_trip_and_bad_input() -> None:
    g, s = sample_state()
    data = g.state_to_json(s)
    assert g.state_to_json(g.state_from_json(data)) == data
    with pytest.raises(StateFormatError):
        g.state_from_json({"owner": "x"})
    bad = dict(data)
    bad["stack"] = [[1, 2]]
    with pytest.raises(StateFormatError):
        g.state_from_json(bad)


def test_render_draws_the_board_as_a_grid() -> None:
    g, s = sample_state()
    text = g.render(g.observe(s, 0))
    lines = text.splitlines()
    assert lines[0].startswith("+") and lines[0].count("+") == 6
    assert "FORT" in text and "rW:2" in text and "Your hand (seat 0): 1x7, 1x10" in text
    assert "1x0" not in text  # seat 1's cards are not shown to seat 0


def test_apply_never_mutates_its_input() -> None:
    g, s = sample_state()
    before = g.state_to_json(s)
    g.apply(
        s,
        g.parse_action(s, "ship to Red Warrior")
        if "ship to Red Warrior" in [g.action_to_str(s, a) for a in g.legal_actions(s)]
        else g.legal_actions(s)[0],
    )
    do(g, s, "end building")
    assert g.state_to_json(s) == before
