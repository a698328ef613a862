"""The Operations phase: turn order, uncontrolled turns, the five steps and movement (SP-OPS-*)."""

from __future__ import annotations

from dataclasses import replace

from games.shadow_planet.helpers import (
    CAVES,
    ERICO,
    HILL,
    JENNA,
    JOHN,
    MELITA,
    NIKKE,
    RACHEL,
    REED,
    ROBOT,
    autopilot,
    controlling,
    data,
    give,
    hand_of,
    kind,
    standard,
    top,
)
from shadowtable.core import CHANCE
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.tasks import RevealTop


def test_turns_follow_initiative_order() -> None:
    t = standard(3, picks=[JOHN, REED, RACHEL], random_char=ROBOT)
    seen = []
    game = t.game
    while kind(t.s) != "discard_message":
        if game.current_player(t.s) != CHANCE and (not seen or seen[-1] != t.s.active):
            seen.append(t.s.active)
        if game.current_player(t.s) == CHANCE:
            t.chance_lowest()
        else:
            legal = t.legal_text()
            t.do("done" if "done" in legal else legal[0])
    assert seen == [JOHN, RACHEL, REED]
    assert t.s.where.count(M.DISCARD) == 3  # Jenna, Nikke and the Robot were uncontrolled


def test_uncontrolled_character_discards_its_location_top_card_face_up() -> None:
    t = standard(3, picks=[JOHN, REED, RACHEL], random_char=ROBOT)
    assert t.game.current_player(t.s) == CHANCE and top(t.s) == RevealTop(MELITA) and t.s.active == JENNA
    t.reveal(7)
    assert t.s.where[7] == M.DISCARD and (t.s.public >> 7) & 1


def test_controlled_ability_comes_first() -> None:
    t = controlling(JENNA)
    assert kind(t.s) == "cancel_ability"
    assert t.legal_text() == [f"cancel {n}" for n in ("Nikke Larsson", "John Vargo", "Rachel Robinson")] + [
        "cancel Reed Robinson",
        "cancel Robot",
    ]


def test_cards_must_match_the_step() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    assert kind(t.s) == "play_move_cards"
    played = [a for a in t.legal_text() if a.startswith("play")]
    assert played == ["play Move (Move 1) #92", "play Move (Move 1) #93", "play Move (Move 1) #94"]
    t.do("done")
    searches = [a for a in t.legal_text() if a.startswith("play")]
    assert searches == ["play Search (Search 1) #95", "play Smoking (Search 2) #96"]


def test_move_chains_links_and_unused_points_are_lost() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("play Move (Move 1) #92", "play Move (Move 1) #93", "play Move (Move 1) #94", "done")
    assert data(t.s)["points"] == 3
    assert "go E/Rico" in t.legal_text() and "go Hill" not in t.legal_text()
    t.do("go E/Rico")
    assert t.s.char_loc[JOHN] == ERICO and data(t.s)["points"] == 1
    assert t.legal_text() == ["done", "enter Decompression Chamber"]
    t.do("done")
    assert kind(t.s) == "play_search_cards" and data(t.s)["points"] == 0


def test_section_entry_cost_and_own_marker_block() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("play Move (Move 1) #92", "play Move (Move 1) #93", "done")
    assert "enter Flight Deck" in t.legal_text() and "enter Accommodation" in t.legal_text()
    blocked = controlling(JOHN, others=[RACHEL, REED])
    blocked.s.section_markers[0] = 1 << 2  # a red Marker on the Flight Deck
    blocked.s.pool[2] -= 1
    blocked.do("play Move (Move 1) #92", "play Move (Move 1) #93", "done")
    assert "enter Flight Deck" not in blocked.legal_text()
    blocked.do("enter Accommodation")
    assert blocked.s.char_section[JOHN] == 1 and kind(blocked.s) == "play_search_cards"


def test_links_to_the_caves_need_a_vehicle() -> None:
    for option, allowed in ((True, False), (False, True)):
        t = controlling(JOHN, others=[RACHEL, REED], caves_vehicle_only=option)
        give(t.s, 20, JOHN)  # Space Suit, Move 5
        give(t.s, 0, JOHN)  # Medi-Kit, Move 2
        give(t.s, 1, JOHN)  # Ration K, Move 1
        t.do("play Medi-Kit (Move 2) #0", "play Ration K (Move 1) #1")
        t.do("play Move (Move 1) #92", "play Move (Move 1) #93", "play Move (Move 1) #94")
        assert "play Space Suit (Move 5) #20" not in t.legal_text()  # not after other Move cards
        t.s.stack[-1] = replace(t.s.stack[-1], total=10)  # type: ignore[misc]
        t.do("done")
        assert ("go Caves" in t.legal_text()) is allowed
        if allowed:
            t.do("go Caves")
            assert t.s.char_loc[JOHN] == CAVES


def test_search_looks_at_the_top_and_reorders() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("done", "play Search (Search 1) #95", "done")
    t.reveal(9, 10)
    assert t.legal_text() == ["place Search (Search 1) #9", "place Search (Search 1) #10"]
    t.do("place Search (Search 1) #10")
    assert t.s.top[MELITA][:2] == [9] or 10 in hand_of(t.s, JOHN)
    assert 10 in hand_of(t.s, JOHN) and t.s.top[MELITA] == [9]  # mandatory draw took the new top


def test_get_draw_is_mandatory_and_get_cards_draw_more() -> None:
    t = controlling(RACHEL, others=[REED, JOHN])
    t.do("seat 1", "marker yellow", "done", "done")
    assert t.game.current_player(t.s) == CHANCE  # the mandatory draw from E/Rico
    t.reveal(26)
    assert 26 in hand_of(t.s, RACHEL) and kind(t.s) == "play_get_cards"
    t.do("play Crying (Get 1) #102", "play Crying (Get 1) #103", "done")
    t.reveal(27, 28)
    assert {26, 27, 28} <= set(hand_of(t.s, RACHEL)) and kind(t.s) == "play_repair_cards"


def test_repair_and_attack_cards_have_no_consequence() -> None:
    t = controlling(NIKKE, others=[RACHEL, REED])
    t.do("done", "done")
    t.chance_lowest()
    t.do("done", "play Repair (Repair 1) #91")
    assert t.s.where[91] == M.PLAYED0 + NIKKE and (t.s.countdown, t.s.repair, t.s.threat) == (12, 5, 2)
    t.do("done")
    assert kind(t.s) == "play_attack_cards" and t.legal_text() == ["done"]


def test_expelled_from_a_section_without_its_effect() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("play Move (Move 1) #92", "done", "enter Accommodation", "done")
    t.chance_lowest()
    t.do("done", "done", "done")
    assert t.s.char_section[JOHN] == -1 and t.s.section_markers[1] == 0
    assert t.s.active == RACHEL


def test_robot_cannot_enter_sections_and_takes_no_marker() -> None:
    t = controlling(ROBOT, others=[RACHEL, REED])
    give(t.s, 20, ROBOT)
    assert t.s.protagonist == 0 and kind(t.s) == "play_move_cards"  # taking the Protagonist is automatic
    t.do("play Space Suit (Move 5) #20", "done")
    assert t.legal_text() == ["done", "go Melita", "go Hill"]  # no Section of E/Rico


def test_autopilot_reaches_later_characters() -> None:
    t = autopilot(standard(3, picks=[REED, JOHN, RACHEL]), REED)
    assert t.s.active == REED and kind(t.s) == "move_for_free" and t.s.char_loc[REED] == HILL
