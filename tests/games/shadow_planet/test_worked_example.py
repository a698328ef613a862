"""The rulebook's worked example (5 players), with the chance outcomes the example shows.

Seats clockwise (left = next seat): Olivia 0 (Protagonist), Alan 1, Demis 2, Giacomo 3,
Gianluca 4 (to Olivia's right, so he draws the random card).  The two Vehicle paragraphs are
separate scenarios (decisions file, procedure 9) and are tested in test_vehicles.py.
"""

from __future__ import annotations

from games.shadow_planet.helpers import (
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
    advance,
    give,
    hand_of,
    kind,
)
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card
from shadowtable.games.shadow_planet.tasks import MatchIdentities

OLIVIA, ALAN, DEMIS, GIACOMO, GIANLUCA = range(5)


def example_round_start() -> Table:
    t = Table(5).setup(["sergeant", "alien", "commander", "guardian", "lieutenant"], protagonist=OLIVIA)
    assert (t.s.countdown, t.s.repair, t.s.threat) == (12, 8, 2)
    return t.draft(ROBOT, [JENNA, REED, RACHEL, JOHN, ROBOT])


def jenna_turn(t: Table) -> Table:
    t.do("cancel John Vargo", "play Move (Move 1) #80", "play Direct Order (Move 1) #81", "done", "go E/Rico")
    t.do("play Search (Search 1) #83", "play Search (Search 1) #84", "done")
    t.reveal(36, 31)  # E/Rico top two: Spare Parts, Messages
    return t.do("place Spare Parts (Repair 1) #36", "done", "done", "done")  # Messages below; draws Spare Parts


def test_control_phase_follows_the_example() -> None:
    t = example_round_start()
    assert t.s.controller == [OLIVIA, -1, GIACOMO, DEMIS, ALAN, GIANLUCA]
    assert t.s.sheets[ALAN * 5 + 4] == 1 and t.s.sheets[OLIVIA * 5 + 0] == 1
    assert sum(t.s.sheets[GIANLUCA * 5 : GIANLUCA * 5 + 5]) == 0  # the Robot takes no Marker


def test_jenna_turn() -> None:
    t = jenna_turn(example_round_start())
    assert t.s.cancelled == JOHN
    assert t.s.char_loc[JENNA] == ERICO
    assert 36 in hand_of(t.s, JENNA)
    assert t.s.top[ERICO] == [31]  # Messages left on top, known to Olivia
    assert (t.s.known[OLIVIA] >> 31) & 1


def six_turns() -> Table:
    t = jenna_turn(example_round_start())
    t.reveal(0)  # Nikke (uncontrolled) discards Medi-Kit from Melita
    assert t.s.where[0] == M.DISCARD
    # John: ability cancelled, no Move; Search + Smoking + Nikke's +1 = look at 4
    t.do("done", "play Search (Search 1) #95", "play Smoking (Search 2) #96", "done")
    t.reveal(2, 3, 4, 1)
    t.do("place Ration K (Move 1) #1", "place Driving (Move 1) #4", "place Digging Tools (Move 1) #3")
    assert t.legal_text() == ["done"]  # Smoking: no Get cards
    t.do("done", "done", "done")
    assert 1 in hand_of(t.s, JOHN)
    # Rachel: orange Marker to Alan; 2 Search + Direct Order = look at 3 (Messages already known)
    t.do("seat 1", "marker orange", "done", "play Search (Search 1) #100", "play Search (Search 1) #101", "done")
    t.reveal(21, 20)
    t.do("place Ration K (Move 1) #21", "place Space Suit (Move 5) #20")
    t.do("play Crying (Get 1) #102", "done", "done", "done")
    assert {20, 21} <= set(hand_of(t.s, RACHEL))
    assert t.s.where[102] == M.MSG and (t.s.public >> 102) & 1  # Crying, face up to the Messages pile
    # Reed: free move into the Graveyard, 2 Search + 2 = look at 4 of the Hill deck
    t.do("use ability", "done", "play Search (Search 1) #107", "play Search (Search 1) #108", "done")
    t.reveal(45, 46, 51, 55)
    t.do("place Pickaxe (Attack 1) #55", "place Fury (Get 1) #51", "place Potatoes (Search 1) #46")
    t.do("done", "done", "done", "resolve 0 Top card", "top of Caves")
    t.reveal(66)
    assert 66 in hand_of(t.s, REED) and 55 in hand_of(t.s, REED)
    assert t.s.section_markers[5] == 1 << 4 and t.s.char_section[REED] == -1 and t.s.char_loc[REED] == HILL
    # Robot: takes the Protagonist card; 3 Search + Direct Order = 4 (Messages known on top)
    t.do("done", "play Search (Search 1) #111", "play Search (Search 1) #112", "play Search (Search 1) #113", "done")
    assert t.s.protagonist == GIANLUCA
    t.reveal(32, 25, 37)
    t.do("place Scrap Metal (Repair 1) #37", "place Family Photo (Search 1) #25", "place Messages (Get 1) #31")
    t.do("done", "play Scrap Metal (Repair 1) #37", "seat 0", "give Help (Repair 1) #114")
    t.do("give Threaten (Move 2) #82", "done", "done")
    assert 114 in hand_of(t.s, JENNA) and 82 in hand_of(t.s, ROBOT)
    return t


def test_the_six_character_turns() -> None:
    t = six_turns()
    assert kind(t.s) == "discard_message" and t.game.current_player(t.s) == GIANLUCA
    assert t.s.char_loc == [ERICO, MELITA, MELITA, ERICO, HILL, ERICO]


def test_messages_phase_moves_threat_2_to_3_and_countdown_12_to_11() -> None:
    t = six_turns()
    t.do("discard Search (Search 1) #111", "discard Help (Repair 1) #114", "discard Move (Move 1) #104")
    t.do("discard Move (Move 1) #98", "discard Fight (Attack 1) #97")
    assert t.s.where.count(M.MSG) == 11
    t.reveal(116, 111, 118, 102, 119, 97)  # Move, Search, Get, Crying (Get), Repair, Fight (Attack)
    assert (t.s.threat, t.s.repair, t.s.countdown) == (3, 8, 11)
    assert t.s.last_reveal == [1, 1, 2, 1, 1]
    assert t.s.where.count(M.REMOVED) == 6 and t.s.where.count(M.MSG) == 5
    assert t.s.round == 2 and kind(t.s) == "draw_draft_card"
    assert t.s.trajectory[-1] == [11, 8, 3]


def test_end_of_game_identities_and_award() -> None:
    """End of the Game (Example): Nikke-Alan, Jenna-Demis, Reed-Gianluca, Rachel-Olivia, John-Giacomo."""
    t = example_round_start()
    s = t.state = t.s.copy()
    s.sheets = [0] * 25
    sheets = {  # Markers per seat (yellow, orange, red, white, black)
        OLIVIA: [2, 3, 3, 1, 2],
        ALAN: [2, 1, 2, 2, 3],
        DEMIS: [0, 2, 1, 1, 1],
        GIACOMO: [3, 2, 1, 3, 3],
        GIANLUCA: [2, 2, 2, 2, 1],
    }
    for seat, row in sheets.items():
        s.sheets[seat * 5 : seat * 5 + 5] = row
    s.pool = [15 - sum(s.sheets[seat * 5 + col] for seat in range(5)) for col in range(5)]
    for card in range(121):
        if s.where[card] >= M.GEAR0:
            move_card(s, card, M.REMOVED)
    for card in (36, 39, 14):
        give(s, card, JENNA)
    for card in (114, 66):
        give(s, card, RACHEL)
    for card in (74, 17):
        give(s, card, REED)  # Ray Gun in an Astronaut's Gear counts as two Attack cards
    give(s, 18, RACHEL)
    for card in (51, 56, 57):
        give(s, card, NIKKE)  # one Get, two Attack
    s.countdown, s.repair, s.threat, s.latched = 0, 3, 5, M.END_COUNTDOWN
    advance(t, MatchIdentities(0))
    assert kind(s) == "over"
    assert s.identity == [RACHEL, NIKKE, JENNA, JOHN, REED]
    out = t.game.observe(s, None)["outcome"]
    assert out["astronaut_repair"] == 5 and out["final_threat"] == 4 and out["astronaut_attack"] == 4
    assert t.game.returns(s) == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert out["winning_role"] == "astronaut"
