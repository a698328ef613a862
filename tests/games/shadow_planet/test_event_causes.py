"""Events: every change of a public quantity carries its cause and its numbers (kind, text,
data), and no event tells a seat a card it may not know (docs/games/shadow-planet.md, "Events")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.shadow_planet.helpers import (
    JOHN,
    MELITA,
    NIKKE,
    RACHEL,
    REED,
    Table,
    advance,
    controlling,
    give,
    kind,
    standard,
)
from games.shadow_planet.test_messages_end import at_discards, finished
from games.shadow_planet.test_sections import FLIGHT, john_in
from games.shadow_planet.test_vehicles import moonette_scene
from shadowtable.core import CHANCE, make
from shadowtable.core.events import Event
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card
from shadowtable.testing import check_resampling


def record(t: Table, *texts: str) -> list[Event]:
    """Apply each action (by notation) while recording; every event noted, in order."""
    events: list[Event] = []
    for text in texts:
        action = t.game.words.parse_action(t.state, text)
        t.state, noted = t.game.apply_recorded(t.state, action)
        events.extend(noted)
    return events


def record_ids(t: Table, *actions: int) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        t.state, noted = t.game.apply_recorded(t.state, action)
        events.extend(noted)
    return events


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: list[Event], kind: str, **data: Any) -> Event:
    """The single event of ``kind`` whose data holds ``data``."""
    found = [e for e in events if e.kind == kind and all(e.data.get(k) == v for k, v in data.items())]
    assert len(found) == 1, (kind, data, [e.text for e in events])
    return found[0]


# -- Messages from the Shadows: reveals and the three consequences ---------------------------------
def test_messages_reveals_then_each_indicator_moves_with_its_counts() -> None:
    t = at_discards()
    t.s.countdown = 9
    events = record(t, "discard Move (Move 1) #92", "discard Search (Search 1) #100", "discard Search (Search 1) #107")
    assert one(events, "discard", seat=0, card=92).seats == (0,)
    events = record_ids(t, 100, 107, 117, 116, 118, 119)  # 3 Search, 1 Move, 1 Get, 1 Repair, 0 Attack
    reveals = of(events, "reveal")
    assert [e.data["card"] for e in reveals] == [100, 107, 117, 116, 118, 119]
    assert [e.data["number"] for e in reveals] == [1, 2, 3, 4, 5, 6]
    assert reveals[0].text == "Message 1 revealed from the Messages pile: Search (Search 1) #100 (Search 1 so far)"
    assert reveals[-1].data["counts"] == {"move": 1, "search": 3, "get": 1, "repair": 1, "attack": 0}
    assert all(e.seats is None for e in reveals)

    threat = one(events, "threat")
    assert threat.text == "Threat 2 -> 3: Get cards 1 outnumber Attack cards 0"
    assert threat.data == {"indicator": "threat", "before": 2, "after": 3, "cause": "messages", "get": 1, "attack": 0}
    repair = one(events, "repair")
    assert repair.text == "Repair 5 -> 4: Repair cards 1 outnumber Attack cards 0"
    assert repair.data["before"] == 5 and repair.data["after"] == 4 and repair.data["repair"] == 1
    countdown = one(events, "countdown", cause="messages")
    assert countdown.text == "Countdown 9 -> 11: Search cards 3 outnumber Move cards 1"  # moves back 3 - 1
    assert countdown.data == {
        "indicator": "countdown",
        "before": 9,
        "after": 11,
        "cause": "messages",
        "search": 3,
        "move": 1,
    }
    end_of_round = one(events, "countdown", cause="end_of_round")
    assert end_of_round.text == "Countdown 11 -> 10: end of the round (advances 1)"
    assert end_of_round.data["depleted"] == 0 and end_of_round.data["round_end"] == 1
    assert t.s.countdown == 10 and t.s.threat == 3 and t.s.repair == 4
    kinds = [e.kind for e in events if e.kind in ("threat", "repair", "countdown")]
    assert kinds == ["threat", "repair", "countdown", "countdown"]  # the rulebook's order
    assert one(events, "round").data == {
        "round": 1,
        "countdown": 10,
        "repair": 4,
        "threat": 3,
        "revealed": {"move": 1, "search": 3, "get": 1, "repair": 1, "attack": 0},
    }


def test_countdown_9_to_10_when_search_cards_2_outnumber_move_cards_1() -> None:
    t = at_discards()
    t.s.countdown = 9
    record(t, "discard Move (Move 1) #92", "discard Search (Search 1) #100", "discard Search (Search 1) #107")
    events = record_ids(t, 100, 107, 116, 118, 119, 120)  # 2 Search, 1 Move, 1 Get, 1 Repair, 1 Attack
    countdown = one(events, "countdown", cause="messages")
    assert countdown.text == "Countdown 9 -> 10: Search cards 2 outnumber Move cards 1"
    assert countdown.data == {
        "indicator": "countdown",
        "before": 9,
        "after": 10,
        "cause": "messages",
        "search": 2,
        "move": 1,
    }
    assert one(events, "countdown", cause="end_of_round").text == "Countdown 10 -> 9: end of the round (advances 1)"
    assert one(events, "repair").text == "Repair stays at 5: Attack cards 1 and Repair cards 1 cancel out"


def test_equal_counts_cancel_out_and_depleted_decks_are_named() -> None:
    t = at_discards()
    for card in range(60, 80):
        if t.s.where[card] == 3:
            move_card(t.s, card, M.REMOVED)
    record(t, "discard Move (Move 1) #92", "discard Search (Search 1) #100", "discard Search (Search 1) #107")
    events = record_ids(t, 92, 100, 118, 120, 116, 117)  # 2 Move, 2 Search, 1 Get, 1 Attack
    threat = one(events, "threat")
    assert threat.text == "Threat stays at 2: Get cards 1 and Attack cards 1 cancel out"
    assert threat.data["before"] == threat.data["after"] == 2
    clamp = one(events, "repair")
    assert clamp.text == "Repair 5 -> 6: Attack cards 1 outnumber Repair cards 0"
    end_of_round = one(events, "countdown", cause="end_of_round")
    assert end_of_round.text == "Countdown 12 -> 10: end of the round (advances 1) and 1 depleted Location deck (Caves)"
    assert end_of_round.data["depleted"] == 1 and end_of_round.data["decks"] == ["Caves"]


def test_a_face_down_discard_names_its_card_only_to_the_discarder() -> None:
    t = at_discards()
    before = t.state
    action = t.game.words.parse_action(before, "discard Move (Move 1) #92")
    t.state, events = t.game.apply_recorded(before, action)
    own = t.game.words.told(before, action, events, 0)
    assert any("#92" in e["text"] and e["data"].get("card") == 92 for e in own)
    for seat in (1, 2, None):
        told = t.game.words.told(before, action, events, seat)
        assert all("#92" not in e["text"] and "Move (Move 1)" not in e["text"] for e in told), told
        assert all("card" not in e["data"] and "name" not in e["data"] for e in told)
    public = [e for e in t.game.words.told(before, action, events, 1) if e["kind"] == "discard"]
    assert public and public[0]["text"] == (
        "seat 0 discards a card from John Vargo's Gear face down to the Messages pile"
    )
    assert public[0]["data"] == {
        "seat": 0,
        "character": "John Vargo",
        "to": "messages",
        "face_up": False,
        "pile": 6,
    }


# -- Sections: paying, the Repair Indicator, the Marker left, the expulsion ------------------------
def test_flight_deck_repair_names_what_was_paid_the_new_repair_and_the_marker() -> None:
    t = john_in(FLIGHT, MELITA, 14, 15)
    events = record(t, "resolve 0 Repair")
    while t.game.current_player(t.s) != CHANCE and "reveal" in t.legal_text()[0]:
        events += record_ids(t, t.game.legal_actions(t.s)[0])
    pay = [e for e in events if e.kind == "pay"]
    public = next(e for e in pay if e.seats == (1, 2))
    assert public.text == "seat 0 pays the Flight Deck effect (Repair) by revealing 2 Move, 2 Repair from hand"
    assert public.data["cost"] == {"move": 2, "repair": 2} and "cards" not in public.data
    mine = next(e for e in pay if e.seats == (0,))
    assert len(mine.data["cards"]) == 4 and {14, 15} & set(mine.data["cards"])
    assert all((t.s.public >> card) & 1 for card in mine.data["cards"])  # shown to all, named to the payer
    repair = one(events, "repair")
    assert repair.text == "Repair 5 -> 3: the Flight Deck effect (advances 2)"
    assert repair.data == {"indicator": "repair", "before": 5, "after": 3, "cause": "section", "amount": 2}
    marker = one(events, "marker")
    assert marker.data["colour"] == "red" and marker.data["section"] == "Flight Deck" and marker.data["pool"] == 13
    assert marker.text.startswith("a red Marker is placed on the Flight Deck: John Vargo applied its effect")
    expel = one(events, "expel")
    assert expel.data == {
        "character": "John Vargo",
        "section": "Flight Deck",
        "to": "Melita",
        "cause": "after its effect",
    }
    kinds = [e.kind for e in events if e.seats is None]
    assert kinds.index("repair") < kinds.index("marker") < kinds.index("expel")


def test_leaving_a_section_unpaid_places_no_marker() -> None:
    t = john_in(FLIGHT, MELITA, 14, 15)
    events = record(t, "leave section")
    assert one(events, "expel").text == (
        "John Vargo is expelled from the Flight Deck into Melita (seat 0 does not pay its effect)"
    )
    assert not of(events, "marker") and t.s.section_markers[FLIGHT] == 0


# -- Markers: the draft's Marker and Rachel's gift -------------------------------------------------
def test_control_and_its_marker_are_noted_when_the_draft_is_revealed() -> None:
    t = standard(3, picks=[JOHN, RACHEL])
    events = record(t, "pick Reed Robinson")
    control = of(events, "control")
    assert [e.data["character"] for e in control if e.data["seat"] >= 0] == [
        "John Vargo",
        "Rachel Robinson",
        "Reed Robinson",
    ]
    assert one(events, "control", seat=0).text == "seat 0 controls John Vargo this round"
    free = [e.data["character"] for e in control if e.data["seat"] < 0]
    assert free == ["Jenna Scott", "Nikke Larsson", "Robot"]
    marker = one(events, "marker", seat=0)
    assert marker.text == "seat 0 receives a red Marker (1 now): controls John Vargo"
    assert marker.data["colour"] == "red" and marker.data["total"] == 1 and marker.data["pool"] == 14
    assert marker.data["cause"] == "control"
    assert one(events, "marker", seat=1).data["colour"] == "white"


def test_rachels_ability_marker_says_who_gave_which_colour_to_whom() -> None:
    t = controlling(RACHEL, others=[REED, JOHN])
    t.do("seat 2")
    events = record(t, "marker orange")
    marker = one(events, "marker")
    assert marker.text == "seat 2 receives an orange Marker (1 now): given by seat 0 with Rachel Robinson's ability"
    assert marker.data["seat"] == 2 and marker.data["giver"] == 0 and marker.data["colour"] == "orange"
    assert marker.data["cause"] == "ability" and marker.data["pool"] == 14 and marker.seats is None


# -- Movement and Vehicles -------------------------------------------------------------------------
def test_a_walk_names_the_link_its_cost_and_the_points_left() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("play Move (Move 1) #92", "play Move (Move 1) #93", "done")
    move = one(record(t, "go E/Rico"), "move")
    assert move.text == "John Vargo moves Melita -> E/Rico (Link cost 2, 0 of 2 Move points left)"
    assert move.data == {
        "character": "John Vargo",
        "by": "walk",
        "origin": "Melita",
        "to": "E/Rico",
        "cost": 2,
        "points": 2,
        "left": 0,
    }


def test_a_drive_names_the_vehicle_passengers_distance_and_move_total() -> None:
    t = moonette_scene()
    t.do("drive Moonette to Caves", "ride", "ride", "play Space Suit (Move 5) #20")
    drive = one(record(t, "done"), "drive")
    assert drive.text == (
        "Rachel Robinson drives the Moonette Melita -> Caves with Nikke Larsson, John Vargo "
        "(distance 10, Move total 10)"
    )
    assert drive.data["passengers"] == ["Nikke Larsson", "John Vargo"]
    assert drive.data["cost"] == 10 and drive.data["points"] == 10 and drive.data["vehicle"] == "Moonette"


# -- Card swaps ------------------------------------------------------------------------------------
def test_a_swap_names_the_cards_only_to_the_two_players() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    give(t.s, 37, JOHN)
    t.do("done", "done")
    t.chance_lowest()
    t.do("done", "play Scrap Metal (Repair 1) #37", "seat 2", "give Fight (Attack 1) #97")
    before = t.state
    action = t.game.words.parse_action(before, "give Axe (Attack 1) #109")
    t.state, events = t.game.apply_recorded(before, action)
    swaps = of(events, "swap")
    assert {e.seats for e in swaps} == {(0, 2), (1,)}
    known = next(e for e in swaps if e.seats == (0, 2))
    assert known.data["given"] == 97 and known.data["taken"] == 109
    assert known.text == (
        "seat 0 and seat 2 swap a card (Scrap Metal): "
        "seat 0 gives Fight (Attack 1) #97, seat 2 gives Axe (Attack 1) #109"
    )
    for e in t.game.words.told(before, action, events, 1):
        assert "#97" not in e["text"] and "#109" not in e["text"] and "given" not in e["data"]
    assert any(e["kind"] == "swap" for e in t.game.words.told(before, action, events, 1))


# -- The end of the game: why it ended, who was whom, who wins -------------------------------------
def test_the_end_names_its_condition_values_identities_and_the_winners() -> None:
    t = at_discards(identity_ties="lowest_initiative")
    t.s.countdown = 1
    record(t, "discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    events = record_ids(t, 116, 92, 98, 117, 120, 109)  # 3 Move, 1 Search, 2 Attack
    countdown = one(events, "countdown", cause="messages")
    assert countdown.text == "Countdown 1 -> 0 (clamped: -1 is off the track): Move cards 3 outnumber Search cards 1"
    latch = one(events, "latch")
    assert latch.data == {"indicator": "countdown", "value": 0, "round": 1}
    end = one(events, "end")
    assert end.data == {
        "reason": "countdown",
        "conditions": ["countdown"],
        "round": 1,
        "threat": 0,
        "repair": 7,
        "countdown": 0,
    }
    assert end.text == "the game ends after round 1: Countdown reached 0; Countdown 0, Repair 7, Threat 0"
    identities = [e for e in of(events, "identity") if e.data["seat"] >= 0]
    assert [e.data["seat"] for e in identities] == [0, 1, 2]  # Alien, Commander, Lieutenant
    assert [e.data["character"] for e in identities] == [t.game.ctx.content.char_names[ch] for ch in t.s.identity]
    assert identities[0].data["role"] == "alien" and identities[0].data["objective"] == "Alien"
    outcome = one(events, "outcome")
    assert outcome.data["reason"] == "countdown" and outcome.data["winners"] == [
        seat for seat, r in enumerate(t.game.returns(t.s)) if r == 1.0
    ]
    assert outcome.data["phantom_guardian"] == "Reed Robinson"  # no Guardian with 3 players here
    assert outcome.text.startswith(outcome.data["why"])
    results = of(events, "result")
    assert [e.data["won"] for e in results] == [r == 1.0 for r in t.game.returns(t.s)]
    assert all(e.seats is None for e in events)


def test_a_chosen_identity_on_a_tie_names_the_tie_and_the_fewest_markers() -> None:
    t = finished(3, [4, 0, 1], {0: [0, 0, 1, 1, 1], 1: [0, 1, 1, 1, 1], 2: [1, 0, 0, 1, 1]}, M.END_COUNTDOWN)
    advance(t)
    events = record(t, "identity John Vargo")
    chosen = one(events, "identity", seat=2)
    assert chosen.text == (
        "seat 2 (Commander, an Astronaut) is John Vargo: fewest Markers: 0 red "
        "(tied among Nikke Larsson, John Vargo: chosen)"
    )
    assert chosen.data["tied"] == ["Nikke Larsson", "John Vargo"] and chosen.data["markers"] == 0
    assert chosen.data["sheet"] == {"yellow": 1, "orange": 0, "red": 0, "white": 1, "black": 1}
    assert one(events, "outcome").data["winning_role"] == "guardian"
    assert len(of(events, "result")) == 3


# -- No event tells a reader what it may not know ---------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_no_event_leaks_on_states_a_reader_cannot_tell_apart(players: int, seed: int) -> None:
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    state = game.initial_state()
    kinds: set[str] = set()
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(legal)
        after, events = game.apply_recorded(state, action)
        if events:
            kinds.update(e.kind for e in events)
            check_resampling(game, state, action, f"seed {seed} players {players}", samples=1, limit=40)
        state = after
    assert {"reveal", "countdown", "threat", "repair", "control", "marker", "end", "identity", "outcome"} <= kinds


def test_recording_changes_nothing_in_the_state() -> None:
    """The recorded apply reaches the same state as the plain one, and leaves no journal behind."""
    plain, recorded = standard(3, picks=[JOHN, NIKKE, REED]), standard(3, picks=[JOHN, NIKKE, REED])
    steps = 0
    while kind(plain.s) != "discard_message" and steps < 500:
        legal = plain.game.legal_actions(plain.s)
        action = A.DONE if A.DONE in legal else legal[0]
        plain.state = plain.game.apply(plain.s, action)
        recorded.state, _ = recorded.game.apply_recorded(recorded.s, action)
        assert recorded.s.journal is None
        steps += 1
    assert kind(plain.s) == "discard_message" and steps > 20
    assert recorded.game.state_to_json(recorded.s) == plain.game.state_to_json(plain.s)


def test_an_identity_names_the_side_only_where_the_objective_does_not() -> None:
    from shadowtable.games.shadow_planet.rules.endgame import objective_words

    assert objective_words("Alien", "alien") == "Alien" and objective_words("Guardian", "guardian") == "Guardian"
    assert objective_words("Lieutenant", "astronaut") == "Lieutenant, an Astronaut"
