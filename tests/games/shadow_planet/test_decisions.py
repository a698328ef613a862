"""Decisions of the decisions file that are options or data (SP-D-*), each switched both ways."""

from __future__ import annotations

from games.shadow_planet.helpers import (
    ERICO,
    JOHN,
    MELITA,
    RACHEL,
    REED,
    ROBOT,
    advance,
    controlling,
    give,
    hand_of,
    kind,
    reveal_for,
    reveal_lowest,
    run_until,
    standard,
)
from games.shadow_planet.test_messages_end import finished
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card


def test_temple_first_option_off_shuffles_the_temple_pile_in() -> None:
    for option, expected_chance in ((True, 1), (False, 6)):
        t = run_until(
            standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT, temple_first=option), "discard_message"
        )
        for card in (116, 117, 118, 119, 120):
            move_card(t.s, card, M.TEMPLE)
            t.s.temple.append(card)
        for _ in range(3):
            t.act(t.game.legal_actions(t.s)[0])
        chances = 0
        while reveal_for(t.s) == "reveal_messages":
            t.chance_lowest(1)
            chances += 1
        assert chances == expected_chance


def test_latched_end_option() -> None:
    for option, ends in ((True, True), (False, False)):
        t = controlling(JOHN, others=[RACHEL, REED], latched_end=option)
        t.s.countdown = 1
        t.s.char_loc[JOHN], t.s.char_section[JOHN] = ERICO, 3
        give(t.s, 33, JOHN)
        run_until(t, "choose_section_effect")
        reveal_lowest(t.do("resolve 0 Countdown")).do("advance countdown")
        assert t.s.countdown == 0
        t.s.countdown = 5  # moved back later in the round (edited)
        run_until(t, "discard_message")
        for _ in range(3):
            t.act(t.game.legal_actions(t.s)[0])
        while reveal_for(t.s) == "reveal_messages":
            t.chance_lowest(1)
        assert (kind(t.s) in ("choose_identity", "over")) is ends


def test_alien_threat_clamp_option() -> None:
    for option, threat in ((True, 8), (False, 9)):
        t = finished(3, [4, 0, 1], {}, M.END_REPAIR, identity_ties="lowest_initiative", alien_threat_clamp=option)
        t.s.threat, t.s.repair = 7, 0
        for card in (51, 52):
            give(t.s, card, 0)  # the Alien (seat 1) is matched to Jenna
        advance(t)
        assert t.game.observe(t.s, None)["outcome"]["final_threat"] == threat


def test_search_bonus_without_cards_option() -> None:
    for option, looks in ((True, 1), (False, 0)):
        t = controlling(JOHN, others=[RACHEL, REED], search_bonus_without_cards=option)
        t.do("done", "done")
        fills = 0
        while reveal_for(t.s) == "search_deck":
            t.chance_lowest(1)
            fills += 1
        assert fills == looks


def test_drawing_from_an_empty_deck_yields_nothing_and_counts_as_depleted() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    for card in range(20):
        if t.s.where[card] == MELITA:
            move_card(t.s, card, M.REMOVED)
    before = len(hand_of(t.s, JOHN))
    t.do("done", "done")
    assert kind(t.s) == "play_get_cards" and len(hand_of(t.s, JOHN)) == before


def test_a_marker_from_an_empty_pool_is_not_taken() -> None:
    t = controlling(RACHEL, others=[REED, JOHN])
    target = [0, 0, 0, 0, 1]
    for colour in range(5):
        t.s.sheets[2 * 5 + colour] += t.s.pool[colour] - target[colour]  # seat 2 holds the rest
    t.s.pool = target
    assert t.legal_text() == ["seat 1", "seat 2"]
    t.do("seat 1")
    assert t.legal_text() == ["marker black"]


def test_putting_an_in_play_vehicle_into_play_again_moves_its_tile() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.s.vehicle_loc[0] = ERICO
    t.s.char_loc[JOHN], t.s.char_section[JOHN] = MELITA, 0
    run_until(t, "choose_section_effect")
    reveal_lowest(t.do("resolve 1 Moonette"))
    assert t.s.vehicle_loc[0] == MELITA
