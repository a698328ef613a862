"""End-of-turn Section effects (SP-SEC-*), Markers on Sections and expulsion (SP-OPS-END-*)."""

from __future__ import annotations

from games.shadow_planet.helpers import (
    CAVES,
    ERICO,
    HILL,
    JOHN,
    MELITA,
    Table,
    controlling,
    give,
    hand_of,
    kind,
    reveal_lowest,
    run_until,
)
from shadowtable.core import CHANCE
from shadowtable.games.shadow_planet import state as M

FLIGHT, ACCOM, BRIDGE, DECOMP, HIBER, GRAVE, TEMPLE = range(7)
RED = 2


def john_in(section: int, location: int, *cards: int, **options: object) -> Table:
    """John (seat 0) starts his turn in ``section`` holding extra ``cards``; play to the end of turn."""
    t = controlling(JOHN, others=[3, 4], **options)
    t.s.char_loc[JOHN], t.s.char_section[JOHN] = location, section
    for card in cards:
        give(t.s, card, JOHN)
    t.do("done", "done")
    t.chance_lowest()
    t.do("done", "done", "done")
    return t


def test_flight_deck_repair_reveal_advances_repair_by_two_and_leaves_a_marker() -> None:
    t = john_in(FLIGHT, MELITA, 14, 15)
    assert t.legal_text() == ["resolve 0 Repair", "resolve 1 Moonette", "leave section"]
    reveal_lowest(t.do("resolve 0 Repair"))
    assert t.s.repair == 3
    assert t.s.section_markers[FLIGHT] == 1 << RED and t.s.pool[RED] == 13
    assert t.s.char_section[JOHN] == -1 and t.s.char_loc[JOHN] == MELITA
    assert (t.s.public >> 14) & 1 and (t.s.public >> 15) & 1  # revealed cards are seen by all


def test_flight_deck_moonette_reveal_puts_moonette_into_play() -> None:
    t = john_in(FLIGHT, MELITA)
    assert t.legal_text() == ["resolve 1 Moonette", "leave section"]
    reveal_lowest(t.do("resolve 1 Moonette"))
    assert t.s.vehicle_loc[0] == MELITA and t.s.repair == 5


def test_accommodation_looks_at_three_messages_and_removes_one() -> None:
    t = john_in(ACCOM, MELITA, 31, 32)
    t.do("resolve 0 Messages")
    assert t.game.current_player(t.s) == CHANCE
    t.reveal(116, 117, 118)
    assert sorted(t.legal_text()) == sorted(f"remove {t.game.ctx.content.short(c)}" for c in (116, 117, 118))
    t.do("remove Move (Move 0) #116")
    assert t.s.where[116] == M.REMOVED and t.s.where.count(M.MSG) == 4
    assert t.s.top[M.MESSAGES_DECK] == [117, 118] and (t.s.known[0] >> 117) & 1


def test_bridge_swaps_a_robot_gear_card_with_one_from_hand() -> None:
    t = john_in(BRIDGE, ERICO)
    t.do("resolve 0 Robot")
    assert sorted(t.legal_text()) == sorted(f"take {t.game.ctx.content.short(c)}" for c in range(110, 116))
    t.do("take Help (Repair 1) #114", "give Fight (Attack 1) #97")
    assert 114 in hand_of(t.s, JOHN) and 97 in hand_of(t.s, 5)
    assert t.s.section_markers[BRIDGE] == 1 << RED


def test_decompression_chamber_moves_the_countdown_either_way() -> None:
    t = john_in(DECOMP, ERICO, 33)
    reveal_lowest(t.do("resolve 0 Countdown")).do("advance countdown")
    assert t.s.countdown == 11
    back = john_in(DECOMP, ERICO, 33)
    reveal_lowest(back.do("resolve 0 Countdown")).do("move back countdown")
    assert back.s.countdown == 12  # Indicators never move past their maximum


def test_hibernation_chamber_gives_two_pool_markers_to_another_player() -> None:
    t = john_in(HIBER, ERICO)
    t.do("resolve 0 Markers")
    assert t.legal_text() == ["seat 1", "seat 2"]
    t.do("seat 2", "marker black", "marker white")
    assert t.s.sheets[2 * 5 + 4] == 2 and t.s.sheets[2 * 5 + 3] == 1 and t.s.pool[4] == 13


def test_graveyard_takes_the_top_card_of_any_location_deck() -> None:
    t = john_in(GRAVE, HILL, 56)
    t.do("resolve 0 Top card")
    assert t.legal_text() == ["top of Melita", "top of E/Rico", "top of Hill", "top of Caves"]
    t.do("top of Caves")
    t.reveal(74)
    assert 74 in hand_of(t.s, JOHN) and t.s.section_markers[GRAVE] == 1 << RED


def test_temple_puts_five_messages_cards_on_the_temple_pile_revealed_first() -> None:
    t = john_in(TEMPLE, CAVES, 60, 68)
    reveal_lowest(t.do("resolve 0 Temple pile"))
    for card in (120, 119, 118, 117, 116):
        t.do(f"temple {t.game.ctx.content.short(card)}")
    assert t.s.temple == [120, 119, 118, 117, 116] and t.s.where.count(M.MSG) == 0
    run_until(t, "discard_message")
    for _seat in range(3):
        t.act(t.game.legal_actions(t.s)[0])
    assert t.game.current_player(t.s) == CHANCE  # five Temple cards revealed without chance, one random
    assert t.s.where[116] == M.REMOVED and sum(t.s.revealed) == 5


def test_marker_rule_blocks_reentry_for_the_rest_of_the_game() -> None:
    t = john_in(FLIGHT, MELITA, 14, 15)
    reveal_lowest(t.do("resolve 0 Repair"))
    assert t.game.ctx.content.section_names[FLIGHT] not in [a[6:] for a in t.legal_text() if a.startswith("enter")]
    from shadowtable.games.shadow_planet.rules.abilities import can_enter

    assert not can_enter(t.game.ctx, t.s, JOHN, FLIGHT) and can_enter(t.game.ctx, t.s, 0, FLIGHT)


def test_player_chooses_which_cards_to_reveal() -> None:
    t = john_in(HIBER, ERICO, 26)  # John holds Search #95, Smoking #96 and Search #26: two of three
    t.do("resolve 0 Markers")
    assert kind(t.s) == "show_reveal_card"
    assert t.legal_text() == [f"reveal {t.game.ctx.content.short(c)}" for c in (26, 95, 96)]
    t.do("reveal Search (Search 1) #26")
    assert t.game.observe(t.s, 1)["pending"]["data"]["shown"] == [26] and (t.s.public >> 26) & 1
    t.do("reveal Smoking (Search 2) #96")
    assert kind(t.s) == "choose_section_marker_seat" and not (t.s.public >> 95) & 1
