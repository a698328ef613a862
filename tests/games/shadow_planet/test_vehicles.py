"""Driving Vehicles (SP-VEH-*): the rulebook's Moonette and Crawler scenarios and their limits."""

from __future__ import annotations

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
    Table,
    autopilot,
    controlling,
    data,
    give,
    kind,
    place,
)
from shadowtable.games.shadow_planet import state as M

MOONETTE, CRAWLER = 0, 1


def moonette_scene() -> Table:
    """Olivia 0 Nikke, Alan 1 Jenna, Demis 2 Rachel, Giacomo 3 Robot, Gianluca 4 John; Reed free."""
    t = Table(5).setup(["sergeant", "alien", "commander", "guardian", "lieutenant"])
    t.draft(REED, [NIKKE, JENNA, RACHEL, ROBOT, JOHN])
    autopilot(t, RACHEL)
    t.do("seat 0", "marker yellow")
    for ch in (RACHEL, REED, ROBOT):
        place(t.s, ch, MELITA)
    place(t.s, JENNA, HILL)  # Alan's Jenna is on the Hill in the Crawler scenario
    t.s.vehicle_loc[MOONETTE] = MELITA
    give(t.s, 20, RACHEL)  # Space Suit
    return t


def test_driver_declares_the_destination_before_playing_move_cards() -> None:
    t = moonette_scene()
    assert "drive Moonette to Caves" in t.legal_text()
    t.do("play Move (Move 1) #98")
    assert not any(a.startswith("drive") for a in t.legal_text())


def test_moonette_carries_three_asked_in_initiative_order_and_doubles_move() -> None:
    t = moonette_scene()
    t.do("drive Moonette to Caves")
    assert kind(t.s) == "ask_rider" and t.game.current_player(t.s) == 0  # Olivia (Nikke) first
    t.do("ride")
    assert t.game.current_player(t.s) == 4  # then Gianluca (John); Reed is uncontrolled
    t.do("ride")
    assert kind(t.s) == "play_move_cards" and data(t.s)["passengers"] == [NIKKE, JOHN]  # full: the Robot is not asked
    t.do("play Space Suit (Move 5) #20")
    assert not any(a.startswith("play") for a in t.legal_text())  # no other Move card after Space Suit
    t.do("done")
    assert [t.s.char_loc[c] for c in (RACHEL, NIKKE, JOHN, ROBOT, REED)] == [CAVES, CAVES, CAVES, MELITA, MELITA]
    assert t.s.vehicle_loc[MOONETTE] == CAVES and kind(t.s) == "play_search_cards"


def test_passengers_may_refuse() -> None:
    t = moonette_scene()
    t.do("drive Moonette to Caves", "stay", "ride")
    assert t.game.current_player(t.s) == 3  # the Robot is asked once there is room
    t.do("stay", "play Space Suit (Move 5) #20", "done")
    assert [t.s.char_loc[c] for c in (RACHEL, NIKKE, JOHN, ROBOT)] == [CAVES, MELITA, CAVES, MELITA]


def crawler_scene() -> Table:
    t = controlling(JENNA, others=[RACHEL, JOHN])  # Reed, on the Hill, is uncontrolled
    place(t.s, JENNA, HILL)
    give(t.s, 40, JENNA)  # the Crawler card
    return t.do("cancel Robot")


def test_crawler_card_puts_the_crawler_into_play_and_goes_to_the_messages_pile() -> None:
    t = crawler_scene()
    t.do("play Crawler (Move 1) #40")
    assert t.s.vehicle_loc[CRAWLER] == HILL and t.s.where[40] == M.MSG and (t.s.public >> 40) & 1
    assert data(t.s)["total"] == 0  # its value does not count


def test_crawler_adds_one_per_card_and_a_short_driver_goes_elsewhere() -> None:
    t = crawler_scene()
    t.do("play Crawler (Move 1) #40", "drive Crawler to Caves")
    assert kind(t.s) == "play_move_cards"  # no controlled Character on the Hill to ask
    t.do("play Move (Move 1) #80", "play Direct Order (Move 1) #81", "play Threaten (Move 2) #82", "done")
    assert data(t.s)["points"] == 7 and kind(t.s) == "drive_elsewhere"
    assert t.legal_text() == ["done", "go Melita", "go E/Rico"]  # 7 < 8 to the Caves; no Sections
    t.do("go E/Rico")
    assert t.s.char_loc[JENNA] == ERICO and t.s.vehicle_loc[CRAWLER] == ERICO and t.s.char_section[JENNA] == -1


def test_without_fallback_option_a_short_driver_stays() -> None:
    t = controlling(JENNA, others=[RACHEL, JOHN], vehicle_fallback=False)
    place(t.s, JENNA, HILL)
    give(t.s, 40, JENNA)
    t.do("cancel Robot", "play Crawler (Move 1) #40", "drive Crawler to Caves", "play Move (Move 1) #80", "done")
    assert t.s.char_loc[JENNA] == HILL and kind(t.s) == "play_search_cards"
