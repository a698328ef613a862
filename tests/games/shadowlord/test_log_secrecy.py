"""Log lines name a hidden Power Card only to the seats that may see it, whatever the hands hold.

The old wording named an action whenever no other legal action of the true state looked the
same to the reader, so a hand or a deck holding a single value gave its card away.
"""

from __future__ import annotations

import random

import pytest

from shadowtable.core import InvalidSeatError
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import Build, DrawToHand, PutToVote, StealCard, Vote

from .helpers import RED, board, chance, game, give_hand, pending, vi


def one_value_hand(g: ShadowlordGame) -> State:
    """Seat 0 builds holding two 7s and nothing else: every placement uses a 7."""
    s = board(g)
    give_hand(s, 0, 7, 7)
    return pending(g, s, Build(0))


def lines(g: ShadowlordGame, s: State, text: str) -> dict[int | None, str | None]:
    action = g.words.parse_action(s, text)
    return {seat: g.words.event_text(s, action, seat) for seat in [None, *range(g.players)]}


def test_a_card_placed_from_a_one_value_hand_is_named_to_its_owner_only() -> None:
    g = game(2)
    s = one_value_hand(g)
    said = lines(g, s, "place card 7 under Red Master")
    assert said[0] == "you: place card 7 under Red Master"
    assert said[1] == said[None] == "seat 0 places a Power Card under Red Master"


def test_a_card_discarded_for_ships_is_public_as_the_ships_it_gives() -> None:
    g = game(2)
    s = one_value_hand(g)
    said = lines(g, s, "discard card 7 for 7 Space Ships")
    assert said[1] == said[None] == "seat 0: discard card 7 for 7 Space Ships"
    after = g.apply(s, g.words.parse_action(s, "discard card 7 for 7 Space Ships"))
    assert g.observe(after, 1)["public"]["pool"] == 7


def test_a_card_drawn_from_a_one_value_deck_is_named_to_its_drawer_only() -> None:
    g = game(2)
    s = board(g)
    s.discard = [0] * 5
    s.deck = [0, 0, 0, 3, 0]  # only 7s are left
    s = pending(g, s, DrawToHand(1))
    assert g.chance_outcomes(s) == [(vi(7), 1.0)]
    said = lines(g, s, "draw Power Card: 7")
    assert said[1] == "you draw Power Card: 7"
    assert said[0] is said[None] is None  # the draw's own line told them: "blue draws 1 Power Card"


def test_a_stolen_card_is_named_to_the_thief_and_the_victim_only() -> None:
    g = game(4)
    s = board(g, cur=RED)
    give_hand(s, 2, 4)
    s = pending(g, s, StealCard(2, 1))
    outcome = g.legal_actions(s)[0]
    said = {seat: g.words.event_text(s, outcome, seat) for seat in [None, 0, 1, 2, 3]}
    assert said[0] == "you steal from seat 2: Power Card 4"
    assert said[2] == "seat 0 steals your Power Card 4"
    assert said[1] == said[3] == said[None] == "seat 0 steals a Power Card from seat 2"
    assert chance(g, s, outcome).hand[vi(4)] == 1


def test_log_lines_do_not_change_with_cards_the_reader_cannot_see() -> None:
    """Resample seat 0's hand and the deck as seat 1 sees them: seat 1 reads the same lines."""
    g = game(2)
    s = one_value_hand(g)
    reader = 1

    def placements(state: State) -> set[str | None]:
        legal = g.legal_actions(state)
        return {
            g.words.event_text(state, a, reader) for a in legal if g.words.action_to_str(state, a).startswith("place")
        }

    expected = placements(s)
    assert len(expected) == 6 and not any("7" in str(text) for text in expected)
    hands = set()
    for k in range(10):
        other = g.determinize(g.observe(s, reader), random.Random(k))
        hands.add(tuple(other.hand[:5]))
        assert placements(other) == expected
    assert len(hands) > 1


def test_a_secret_vote_is_not_named() -> None:
    g = game(3)
    s = board(g)
    s = pending(g, s, PutToVote("steal", 2))
    assert s.stack[-1] == Vote(1)
    said = {a: g.words.event_text(s, a, 0) for a in g.legal_actions(s)}
    assert set(said.values()) == {"seat 1 casts a secret vote"}


def test_a_seat_that_is_not_a_seat_is_refused_on_every_channel() -> None:
    g = game(2)
    s = one_value_hand(g)
    action = g.legal_actions(s)[0]
    for bad in (-1, 2, 10**40):
        with pytest.raises(InvalidSeatError):
            g.observe(s, bad)
        with pytest.raises(InvalidSeatError):
            g.words.event_text(s, action, bad)
