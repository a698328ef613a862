"""The Messages phase (SP-MSG-*), the end of the round, and the end of the game (SP-END-*)."""

from __future__ import annotations

from games.shadow_planet.helpers import (
    JENNA,
    JOHN,
    NIKKE,
    RACHEL,
    REED,
    ROBOT,
    Table,
    advance,
    give,
    kind,
    run_until,
    standard,
)
from shadowtable.core import CHANCE
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card
from shadowtable.games.shadow_planet.tasks import MatchIdentities


def at_discards(players: int = 3, **options: object) -> Table:
    return run_until(standard(players, picks=[JOHN, RACHEL, REED], random_char=ROBOT, **options), "discard_message")


def test_players_pick_up_played_cards_then_discard_face_down_from_the_protagonist() -> None:
    t = standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT)
    run_until(t, "play_move_cards")
    t.do("play Move (Move 1) #92")
    run_until(t, "discard_message")
    assert t.s.where[92] == M.GEAR0 + JOHN and t.game.current_player(t.s) == 0
    assert "discard Move (Move 1) #92" in t.legal_text()
    t.do("discard Move (Move 1) #92")
    assert t.s.where[92] == M.MSG and t.game.current_player(t.s) == 1
    for seat in (1, 2, None):
        zones = t.game.observe(t.s, seat)["public"]["zones"]
        assert 92 not in zones["decks"][4]["rest_known"] and 92 not in zones["gear"][JOHN]["known"]
    assert 92 in t.game.observe(t.s, 0)["public"]["zones"]["decks"][4]["rest_known"]


def test_reveal_six_and_apply_the_three_consequences_in_order() -> None:
    t = at_discards()
    t.do("discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    assert t.game.current_player(t.s) == CHANCE
    t.reveal(116, 92, 98, 117, 120, 109)  # 3 Move, 1 Search, 0 Get, 0 Repair, 2 Attack
    assert t.s.threat == 0  # 0 Get - 2 Attack: back 2
    assert t.s.repair == 7  # 2 Attack vs 0 Repair: the Repair Indicator moves back 2
    assert t.s.countdown == 12 - 2 - 1  # more Move by 2, then +1
    assert all(t.s.where[c] == M.REMOVED for c in (116, 92, 98, 117, 120, 109))
    assert t.s.round == 2 and kind(t.s) == "draw_draft_card"


def test_fewer_than_six_messages_cards_are_all_revealed() -> None:
    t = at_discards()
    for card in (116, 117, 118, 119):
        move_card(t.s, card, M.REMOVED)
    t.do("discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    t.reveal(92, 98, 109, 120)
    assert t.s.last_reveal == [2, 0, 0, 0, 2] and kind(t.s) == "draw_draft_card"


def test_each_depleted_deck_advances_the_countdown_once_more() -> None:
    t = at_discards()
    for card in range(60, 80):
        if t.s.where[card] == 3:
            move_card(t.s, card, M.REMOVED)
    t.do("discard Move (Move 1) #92", "discard Search (Search 1) #100", "discard Search (Search 1) #107")
    t.reveal(92, 100, 107, 116, 117, 118)  # 2 Move, 3 Search: back 1, then +1 and +1 (Caves depleted)
    assert t.s.countdown == 10  # back 1 is clamped at 12, then -1 and -1 more for the Caves


def test_indicators_clamp_and_latch_the_end_at_the_end_of_the_round() -> None:
    t = at_discards()
    t.s.countdown = 1
    t.do("discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    t.reveal(116, 92, 98, 117, 120, 109)
    assert t.s.countdown == 0 and kind(t.s) in ("choose_identity", "over")


def test_threat_has_priority_over_countdown_and_the_guardian_wins() -> None:
    t = at_discards(5)
    t.s.countdown, t.s.threat = 1, 7
    for _ in range(5):
        t.act(t.game.legal_actions(t.s)[0])
    while t.game.current_player(t.s) == CHANCE:
        gets = [c for c in t.game.legal_actions(t.s) if t.game.ctx.card_type[c] == 2]
        t.act(gets[0] if gets else t.game.legal_actions(t.s)[0])
    run_until(t, "over")
    out = t.game.observe(t.s, None)["outcome"]
    assert out["reason"] == "threat" and out["winning_role"] == "guardian"
    assert t.game.returns(t.s) == [1.0 if seat == 4 else 0.0 for seat in range(5)]


def finished(players: int, objectives: list[int], sheets: dict[int, list[int]], reason: int, **opts: object) -> Table:
    """An end-of-game position built by editing: Objectives, Markers, indicators, empty Gear."""
    t = standard(players, **opts)
    s = t.s
    s.objectives = objectives
    s.removed_objectives = [o for o in range(1, 5) if o not in objectives][: 5 - players]
    s.sheets = [0] * (5 * players)
    for seat, row in sheets.items():
        s.sheets[seat * 5 : seat * 5 + 5] = row
    s.pool = [15 - sum(s.sheets[seat * 5 + col] for seat in range(players)) for col in range(5)]
    for card in range(121):
        if s.where[card] >= M.GEAR0:
            move_card(s, card, M.REMOVED)
    s.latched, s.stack = reason, [MatchIdentities(0)]
    return t


def test_identities_by_fewest_markers_in_priority_order_and_ties_are_chosen() -> None:
    t = finished(3, [4, 0, 1], {0: [0, 0, 1, 1, 1], 1: [0, 1, 1, 1, 1], 2: [1, 1, 1, 1, 0]}, M.END_COUNTDOWN)
    advance(t)
    assert t.s.identity == [NIKKE, JENNA, REED] and kind(t.s) == "over"  # Alien, Commander, Guardian
    t2 = finished(3, [4, 0, 1], {0: [0, 0, 1, 1, 1], 1: [0, 1, 1, 1, 1], 2: [1, 0, 0, 1, 1]}, M.END_COUNTDOWN)
    advance(t2)
    assert t2.game.current_player(t2.s) == 2 and t2.legal_text() == ["identity Nikke Larsson", "identity John Vargo"]
    t2.do("identity John Vargo")
    assert t2.s.identity == [NIKKE, JENNA, JOHN] and kind(t2.s) == "over"


def test_identity_ties_option_takes_the_lowest_initiative() -> None:
    t = finished(3, [4, 0, 1], {}, M.END_COUNTDOWN, identity_ties="lowest_initiative")
    advance(t)
    assert t.s.identity == [JOHN, JENNA, NIKKE] and kind(t.s) == "over"


def test_missing_guardian_takes_the_highest_initiative_unmatched_character() -> None:
    t = finished(3, [1, 0, 2], {}, M.END_COUNTDOWN, identity_ties="lowest_initiative")
    t.s.repair = 3
    advance(t)
    out = t.game.observe(t.s, None)["outcome"]
    assert out["phantom_guardian"] == "Reed Robinson" and out["roles"]["Rachel Robinson"] == "astronaut"
    assert out["winning_role"] == "guardian" and t.game.returns(t.s) == [0.0, 0.0, 0.0]


def test_repair_end_guardian_loses_and_alien_faces_astronaut_attack() -> None:
    t = finished(3, [4, 0, 1], {}, M.END_REPAIR, identity_ties="lowest_initiative")
    s = t.s
    s.threat, s.repair = 3, 0
    for card in (51, 52, 31):  # Alien (Jenna): Fury, Get, Messages (2 Get for the Alien)
        give(s, card, JENNA)
    for card in (56, 57):
        give(s, card, NIKKE)  # Commander (Nikke): 2 Attack
    advance(t)
    out = t.game.observe(s, None)["outcome"]
    assert out["alien_get"] == 4 and out["final_threat"] == 7 and out["astronaut_attack"] == 2
    assert out["winning_role"] == "alien" and t.game.returns(s) == [0.0, 1.0, 0.0]
    assert out["seats"][1]["why"] == "Alien (alien) matched Jenna Scott; the alien side won, so this seat wins"
    assert out["seats"][0]["role"] == "guardian" and not out["seats"][0]["won"]


def test_countdown_end_repair_check_with_non_counting_repair_cards() -> None:
    t = finished(3, [4, 0, 1], {}, M.END_COUNTDOWN, identity_ties="lowest_initiative")
    s = t.s
    s.repair = 2
    give(s, 38, NIKKE)  # Corroded Part: no Repair for an Astronaut
    give(s, 36, NIKKE)
    advance(t)
    out = t.game.observe(s, None)["outcome"]
    assert out["astronaut_repair"] == 1 and out["winning_role"] == "guardian"
    assert t.game.returns(s) == [1.0, 0.0, 0.0]


def test_ray_gun_counts_two_attack_for_astronauts() -> None:
    t = finished(3, [4, 0, 1], {}, M.END_COUNTDOWN, identity_ties="lowest_initiative")
    s = t.s
    s.repair, s.threat = 1, 2
    give(s, 36, NIKKE)
    give(s, 74, NIKKE)
    advance(t)
    out = t.game.observe(s, None)["outcome"]
    assert out["astronaut_attack"] == 2 and out["winning_role"] == "astronaut"
    assert t.game.returns(s) == [0.0, 0.0, 1.0]


def test_summary_reports_the_trajectory_and_identities() -> None:
    t = finished(3, [4, 0, 1], {}, M.END_COUNTDOWN, identity_ties="lowest_initiative")
    advance(t)
    summary = t.game.summary(t.s)
    assert summary["end_reason"] == "countdown" and summary["trajectory"][0] == {
        "countdown": 12,
        "repair": 5,
        "threat": 2,
    }
    assert [row["identity"] for row in summary["seats"]] == ["John Vargo", "Jenna Scott", "Nikke Larsson"]
    assert "Game over" in t.game.words.render(t.game.observe(t.s, 0))
