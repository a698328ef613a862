"""Hidden information, determinization, notation, JSON and rendering."""

from __future__ import annotations

import random

import pytest

from shadowtable.core import IllegalActionError, InvalidActionError, StateFormatError
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import Build, DrawToHand

from .helpers import BLUE, RED, G, board, do, game, give_hand, give_portrait, pending, put, warrior


def sample_state() -> tuple[ShadowlordGame, State]:
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
        assert g.words.parse_action(s, g.words.action_to_str(s, action)) == action
    with pytest.raises(IllegalActionError):
        g.words.parse_action(s, "ship to Blue Warrior")
    with pytest.raises(InvalidActionError):
        g.words.parse_action(s, "fly to the moon")


def test_chance_outcomes_are_readable() -> None:
    g = game(4)
    s = pending(g, board(g), DrawToHand(0))
    assert [g.words.action_to_str(s, a) for a in g.legal_actions(s)] == [
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
    text = g.words.render(g.observe(s, 0))
    lines = text.splitlines()
    assert lines[0].startswith("+") and lines[0].count("+") == 6
    assert "FORT" in text and "rW:2" in text and "Your Attack Hand (seat 0): Power Cards 7, 10" in text
    assert "Power Cards 0" not in text  # seat 1's cards are not shown to seat 0


def test_render_tells_recruited_characters_from_starting_ones_and_shows_votes_and_offers() -> None:
    from shadowtable.games.shadowlord.render import fig_code, offer_words, vote_words

    g = game(4)
    c = g.ctx.content
    yellow_warrior, found_warrior = c.fig_name.index("Yellow Warrior"), c.fig_name.index("Warrior W1")
    assert fig_code(g.ctx, yellow_warrior, 2, 3, False) == "yW:3"
    assert fig_code(g.ctx, found_warrior, 2, 0, False) == "yW1:0"
    assert fig_code(g.ctx, c.fig_name.index("Shadow 8"), 4, 1, True) == "kS8:1*"
    vote = {"kind": "defect", "subject": found_warrior, "origin": -1, "voters": [1, 2, 3], "votes": [-1, 1, -2, -1]}
    words = vote_words(g.ctx, vote, 0, [0] * c.num_figures)
    assert "Warrior W1 Defects to red?" in words and "seat 1: yes" in words and "seat 2: voted" in words
    offer = {
        "from": 0, "to": 2, "give": [0, 0, 1, 0, 0], "want": [0, 0, 0, 0, 1], "characters": [], "release": [],
        "ships": [], "permission_give": 1, "permission_want": 0, "truce": [], "items": 3,
    }  # fmt: skip
    assert offer_words(g.ctx, offer) == (
        "Offer from seat 0 to seat 2: gives Power Card 4; asks for Power Card 10; gives permission to pass"
    )


def test_apply_never_mutates_its_input() -> None:
    g, s = sample_state()
    before = g.state_to_json(s)
    g.apply(
        s,
        g.words.parse_action(s, "ship to Red Warrior")
        if "ship to Red Warrior" in [g.words.action_to_str(s, a) for a in g.legal_actions(s)]
        else g.legal_actions(s)[0],
    )
    do(g, s, "end building")
    assert g.state_to_json(s) == before
