"""Card effects (SP-CARD-*) and Character abilities (SP-AB-*)."""

from __future__ import annotations

from games.shadow_planet.helpers import (
    HILL,
    JENNA,
    JOHN,
    MELITA,
    NIKKE,
    RACHEL,
    REED,
    ROBOT,
    Table,
    advance,
    autopilot,
    controlling,
    data,
    give,
    hand_of,
    kind,
    place,
    reveal_for,
    run_until,
    standard,
    top,
)
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.rules.control import rest_of_round
from shadowtable.games.shadow_planet.tasks import RevealTop, StartTurn


def john_search(t: Table, *cards: str) -> int:
    """John passes step I, plays ``cards`` in step II; returns how many cards chance reveals."""
    t.do("done", *cards, "done")
    revealed = 0
    while reveal_for(t.s) == "search_deck":
        t.chance_lowest(1)
        revealed += 1
    return revealed


def test_direct_order_gives_other_characters_in_jennas_location_one_search() -> None:
    t = standard(3, picks=[JENNA, JOHN, RACHEL], random_char=ROBOT)
    t.do("cancel Nikke Larsson", "play Direct Order (Move 1) #81", "done", "done")
    run_until(t, "play_move_cards")  # Nikke is cancelled: only Direct Order counts for John
    assert t.s.active == JOHN
    assert john_search(t, "play Search (Search 1) #95") == 2


def test_direct_order_does_not_reach_another_location() -> None:
    t = standard(3, picks=[JENNA, JOHN, RACHEL], random_char=ROBOT)
    t.do("cancel Nikke Larsson", "play Direct Order (Move 1) #81", "play Move (Move 1) #80", "done", "go E/Rico")
    run_until(t, "play_move_cards")
    assert john_search(t, "play Search (Search 1) #95") == 1


def test_nikke_uncontrolled_gives_search_to_characters_in_her_location() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    assert t.s.auras == [[NIKKE, 1, 1]]
    assert john_search(t, "play Search (Search 1) #95") == 2


def test_jenna_cancels_an_ability_until_the_end_of_the_round() -> None:
    t = standard(3, picks=[JENNA, JOHN, REED], random_char=ROBOT)
    t.do("cancel Reed Robinson")
    autopilot(t, REED)
    assert kind(t.s) == "play_move_cards" and t.s.bonus == 0  # no free move, no +2 Search
    run_until(t, "draw_draft_card")
    assert t.s.cancelled == -1 and t.s.round == 2  # the Ability card returns


def test_smoking_forbids_get_cards() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    give(t.s, 31, JOHN)
    t.do("done", "play Smoking (Search 2) #96", "done")
    run_until(t, "play_get_cards")
    assert 31 in hand_of(t.s, JOHN) and t.legal_text() == ["done"]


def test_space_suit_only_as_the_sole_move_card() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    give(t.s, 20, JOHN)
    t.do("play Space Suit (Move 5) #20")
    assert not any(a.startswith("play") for a in t.legal_text()) and data(t.s)["total"] == 5


def crawler_and_space_suit(**options: object) -> Table:
    """Jenna on the Hill holding the Crawler card (#40) and Space Suit (#20)."""
    t = controlling(JENNA, others=[RACHEL, JOHN], **options)
    place(t.s, JENNA, HILL)
    give(t.s, 40, JENNA)
    give(t.s, 20, JENNA)
    return t.do("cancel Robot")


def test_space_suit_cannot_follow_the_crawler_card() -> None:
    """Rulebook: Space Suit (Move) - "You cannot play other Move cards this turn"; the Crawler is
    a Move card ("plays Crawler (Move)"), even though it goes to the Messages pile at once and its
    value does not count.  Option ``crawler_is_move_card`` (default): Space Suit cannot follow
    it, exactly as it cannot follow any other Move card, and nothing follows Space Suit."""
    t = crawler_and_space_suit()
    t.do("play Crawler (Move 1) #40")
    assert t.s.where[40] == M.MSG
    assert "play Space Suit (Move 5) #20" not in t.legal_text()
    assert "play Move (Move 1) #80" in t.legal_text()  # other Move cards still may follow it
    other = crawler_and_space_suit()
    other.do("play Space Suit (Move 5) #20")
    assert not any(a.startswith("play") for a in other.legal_text())  # not even the Crawler


def test_crawler_is_move_card_option_off_lets_space_suit_follow_the_crawler() -> None:
    """The other reading (``crawler_is_move_card=False``): the Crawler, discarded at once to the
    Messages pile with its value not counting, is not one of the Move cards Space Suit excludes."""
    t = crawler_and_space_suit(crawler_is_move_card=False)
    t.do("play Crawler (Move 1) #40", "play Space Suit (Move 5) #20")
    assert data(t.s)["total"] == 5 and not any(a.startswith("play") for a in t.legal_text())


def test_crying_goes_face_up_to_the_messages_pile_at_the_end_of_the_turn() -> None:
    t = controlling(RACHEL, others=[REED, JOHN])
    t.do("seat 1", "marker red", "done", "done")
    t.chance_lowest()
    t.do("play Crying (Get 1) #102", "done")
    t.chance_lowest()
    assert t.s.where[102] == M.PLAYED0 + RACHEL
    t.do("done", "done")
    assert t.s.where[102] == M.MSG and (t.s.public >> 102) & 1


def test_scrap_metal_swaps_with_a_player_who_chooses_their_card() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    give(t.s, 37, JOHN)
    t.do("done", "done")
    t.chance_lowest()
    t.do("done", "play Scrap Metal (Repair 1) #37")
    assert t.legal_text() == ["seat 1", "seat 2"]
    t.do("seat 2", "give Fight (Attack 1) #97")
    assert t.game.current_player(t.s) == 2
    seen = t.game.observe(t.s, 2)
    assert seen["pending"]["kind"] == "return_scrap_card" and "given" not in seen["pending"]["data"]
    assert seen["tasks"][-1]["given"] is None  # the other player does not see the offered card
    assert t.game.observe(t.s, 0)["tasks"][-1]["given"] == 97  # the giver does
    t.do("give Axe (Attack 1) #109")
    assert 109 in hand_of(t.s, JOHN) and 97 in hand_of(t.s, REED) and kind(t.s) == "play_repair_cards"


def test_rachel_gives_a_pool_marker_to_another_player() -> None:
    t = controlling(RACHEL, others=[REED, JOHN])
    assert kind(t.s) == "choose_marker_seat" and t.legal_text() == ["seat 1", "seat 2"]
    t.do("seat 2")
    assert t.legal_text() == [f"marker {c}" for c in ("yellow", "orange", "red", "white", "black")]
    t.do("marker orange")
    assert t.s.sheets[2 * 5 + 1] == 1 and t.s.pool[1] == 14


def test_reed_moves_into_the_graveyard_free_and_gains_two_search() -> None:
    t = controlling(REED, others=[RACHEL, JOHN])
    place_reed = t.s.char_loc[REED]
    t.do("use ability")
    assert t.s.char_section[REED] == 5 and place_reed == t.s.char_loc[REED] and t.s.bonus == 2
    t.do("done", "play Search (Search 1) #107", "done")
    revealed = 0
    while reveal_for(t.s) == "search_deck":
        t.chance_lowest(1)
        revealed += 1
    assert revealed == 3


def test_robot_takes_the_protagonist_card_and_the_next_draft_starts_there() -> None:
    t = controlling(ROBOT, others=[RACHEL, REED])
    t.s.protagonist = 1
    advance(t, *rest_of_round(), StartTurn())
    assert t.s.protagonist == 0
    run_until(t, "draw_draft_card")
    t.chance_lowest(1)
    assert t.game.current_player(t.s) == 0


def test_uncontrolled_characters_only_discard_when_they_have_no_ability() -> None:
    t = standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT)
    assert t.s.active == JENNA and top(t.s) == RevealTop(MELITA) and t.s.auras == []
    t.chance_lowest(1)
    assert t.s.active == NIKKE and top(t.s) == RevealTop(MELITA)


def test_reeds_free_move_from_his_location_is_not_told_as_a_move_to_itself() -> None:
    from shadowtable.games.shadow_planet.rules.abilities import free_move_words

    assert free_move_words("Reed Robinson", "Hill", "Hill", "Graveyard") == (
        "Reed Robinson moves into the Graveyard (Hill) for free (ability)"
    )
    assert free_move_words("Reed Robinson", "Caves", "Hill", "Graveyard") == (
        "Reed Robinson moves Caves -> Hill and into the Graveyard for free (ability)"
    )


def test_an_ability_names_its_places_as_printed() -> None:
    from shadowtable.core.registry import make

    characters = make("shadow-planet", players=3).words.reference()["characters"]
    reed = next(c for c in characters if c["name"] == "Reed Robinson")
    assert reed["ability"] == "move for free from Hill into the Graveyard; +2 Search"
