"""Every change of a public quantity is told with its cause and its numbers (events with a kind,
a text, a rule and data), and hidden values only to the seats that may know them."""

from __future__ import annotations

from shadowtable.games.shadowlord.content import EVENTS
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import CAPTIVE, NOBODY, REMOVED, State
from shadowtable.games.shadowlord.tasks import (
    Build,
    ChooseEventTarget,
    DrawToHand,
    Fight,
    ProposeTruce,
    RollEvent,
    ShiftFrom,
    StartTurn,
)

from .helpers import (
    BLUE,
    RED,
    G,
    Hold,
    board,
    chance,
    do,
    draw,
    game,
    give_hand,
    heard,
    heard_text,
    master,
    pending,
    put,
    shadow,
    top,
    warrior,
)

C4 = G(1, 2)


def fight(g: ShadowlordGame, s: State) -> State:
    s = pending(g, s, Fight())
    if isinstance(top(s), ProposeTruce):
        s = do(g, s, "fight")
    while isinstance(top(s), ShiftFrom):
        s = do(g, s, "stop shifting")
    return s


def test_a_duel_is_told_with_each_sides_breakdown_the_margin_and_the_ships_destroyed() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=3)
    put(s, warrior(BLUE), C4, ships=4)
    give_hand(s, 0, 10)
    s = fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 4)
    s = draw(g, s, 0)
    s = do(g, s, "commit hand card 10")
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    [duel] = heard(2, "duel")
    assert duel["text"].startswith(
        "Duel: Red Warrior: strength 6 + ships 3 + cards 14 = 23 vs Blue Warrior: strength 6 + ships 4 + cards 0 = 10; "
        "Red Warrior wins by 13; 4 Space Ships of Blue Warrior destroyed and 3 of Red Warrior"
    ), duel["text"]
    data = duel["data"]
    assert data["attacker"] == {
        "figure": warrior(RED),
        "strength": 6,
        "ships": 3,
        "cards": 14,
        "card_values": [4, 10],
        "total": 23,
    }
    assert data["defender"]["total"] == 10 and data["defender"]["cards"] == 0
    assert data["winner"] == warrior(RED) and data["loser"] == warrior(BLUE) and data["margin"] == 13
    assert data["destroyed"] == {"loser": 4, "winner": 3} and duel["rule"] == "battle_board"
    [captured] = heard(None, "capture")
    assert captured["text"] == "Blue Warrior is captured by Red Warrior in c4"
    assert captured["data"] == {"figure": warrior(BLUE), "captor": warrior(RED), "galaxy": C4}
    assert s.status[warrior(BLUE)] == CAPTIVE
    [reward] = heard(None, "reward")
    assert reward["data"] == {"seat": 0, "cards": 1}


def test_committed_cards_are_not_told_before_the_duel_is_resolved() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    give_hand(s, 0, 10)
    s = fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 2)
    s = draw(g, s, 2)
    s = do(g, s, "commit hand card 10")
    assert "10" not in heard_text(1) and "10" not in heard_text(None) and not heard(None, "duel")


def test_a_battle_is_told_where_who_against_whom_and_its_outcome() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=2)
    put(s, warrior(BLUE), C4, ships=1)
    s = fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 7)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    s = draw(g, s, 2)  # the reward, then the Battle ends
    start, end = heard(3, "battle")
    assert start["text"] == "Battle in c4: red (Red Warrior) attacks blue (Blue Warrior)"
    assert start["data"]["attackers"] == [warrior(RED)] and start["data"]["defenders"] == [warrior(BLUE)]
    assert start["data"]["attacker"] == RED and start["data"]["defender"] == BLUE
    assert end["text"] == "the Battle in c4 ends: red (attacker) wins with Red Warrior standing"
    assert end["data"]["attacker_won"] is True and end["data"]["survivors"] == [warrior(RED)]


def test_loose_ships_nobody_defends_are_destroyed_with_their_number() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=1)
    s.loose_col[C4], s.loose_n[C4] = BLUE, 3
    s.supply[BLUE] -= 3
    s = pending(g, s, Fight())
    s = do(g, s, "challenge loose ships")
    while type(top(s)) is not Hold:
        s = do(
            g,
            s,
            "send nobody" if "send nobody" in [g.words.action_to_str(s, a) for a in g.legal_actions(s)] else "done",
        )
    [destroyed] = heard(None, "loose")
    assert destroyed["data"] == {"galaxy": C4, "colour": BLUE, "destroyed": 3}
    assert "3 loose blue Space Ships in c4 are destroyed" in destroyed["text"]


def test_a_vote_tells_its_subject_and_voters_then_only_its_result() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=3)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("spacestorm")))
    s = do(g, s, "target seat 1")
    [opened] = heard(2, "vote")
    assert opened["text"] == (
        "Vote: a Spacestorm strikes seat 1 (1d8 Space Ships lost)? seat 1, seat 2 and seat 3 vote secretly; "
        "one yes passes it"
    )
    assert opened["data"] == {"motion": "storm", "subject": 1, "origin": -1, "voters": [1, 2, 3]}
    s = do(g, s, "vote no")
    s = do(g, s, "vote yes")
    assert len(heard(None, "vote")) == 1  # nothing is told while votes are being cast
    s = do(g, s, "vote no")
    closed = heard(1, "vote")[-1]
    assert closed["data"]["passed"] is True and "passes" in closed["text"]
    assert "seat 2" not in closed["text"] and "yes" not in str(closed["data"])  # who voted yes stays secret
    s = chance(g, s, 5)
    [storm] = heard(0, "storm")
    assert storm["data"] == {"seat": 1, "roll": 5, "lost": 3}
    assert storm["text"] == "Spacestorm: seat 1 rolls 5 and loses 3 Space Ships (only 3 left)"


def test_an_offer_tells_its_terms_and_what_was_carried_out() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7)
    give_hand(s, 1, 10)
    s = pending(g, s, Build(0))
    s = do(g, s, "make offer to seat 1")
    s = do(g, s, "offer to give card 7")
    s = do(g, s, "offer to want card 10")
    s = do(g, s, "send offer")
    sent = heard(3, "offer")[-1]
    assert sent["text"] == "seat 0 offers seat 1: seat 0 gives Power Card 7; seat 1 gives Power Card 10"
    assert sent["data"]["terms"]["give"] == [7] and sent["data"]["terms"]["want"] == [10]
    assert sent["data"]["step"] == "sent"
    s = do(g, s, "accept offer")
    done = heard(2, "offer")[-1]
    assert done["data"]["step"] == "accepted" and done["text"].startswith("seat 1 accepts the offer of seat 0")


def test_a_refused_offer_is_told() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7)
    s = pending(g, s, Build(0))
    s = do(g, s, "make offer to seat 2")
    s = do(g, s, "offer to give card 7")
    s = do(g, s, "send offer")
    s = do(g, s, "refuse offer")
    assert heard(None, "offer")[-1]["data"]["step"] == "refused"


def test_a_captured_star_master_ends_his_alliance_with_the_cause_and_the_cards() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=2)
    put(s, master(BLUE), C4, ships=0)
    put(s, warrior(BLUE), G(4, 4), ships=3)
    give_hand(s, 1, 7, 7)
    s = fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Master")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    [left] = heard(3, "leave")
    assert left["text"].startswith(
        "blue leaves the game: its Star Master was captured by Red Warrior; 3 characters removed; "
        "0 Power Cards from its portraits and 2 from the Attack Hand of seat 1 go to seat 0"
    )
    assert left["rule"] == "capture_master"
    data = left["data"]
    assert data["colour"] == BLUE and data["seat"] == 1 and data["reason"] == "captured"
    assert data["captor"] == warrior(RED) and data["gainer"] == 0 and data["hand_cards"] == 2
    assert s.status[warrior(BLUE)] == REMOVED


def test_a_beaten_shadow_outside_the_lost_fortress_is_removed_with_its_cause() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), C4, ships=2)
    put(s, shadow(1), C4, ships=0)
    s = fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Shadow 1")
    s = draw(g, s, 7)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    [removed] = heard(None, "remove")
    assert removed["data"]["figure"] == shadow(1) and removed["rule"] == "shadow_fight"
    assert "outside the Lost Fortress" in removed["text"]


def test_a_stolen_card_is_named_to_the_thief_and_the_victim_only() -> None:
    g = game(2)
    s = board(g)
    give_hand(s, 1, 10)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("steal")))
    s = do(g, s, "target seat 1")
    s = chance(g, s, 4)
    public = heard(None, "steal")
    assert [e["text"] for e in public] == ["seat 0 steals a Power Card from seat 1"]
    assert "card" not in public[0]["data"]
    for seat in (0, 1):
        named = [e for e in heard(seat, "steal") if "card" in e["data"]]
        assert named and named[0]["data"]["card"] == 10 and "is a 10" in named[0]["text"]


def test_a_stolen_card_is_not_named_to_the_other_seats() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 2, 10)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("steal")))
    s = do(g, s, "target seat 2")
    for _ in range(3):
        s = do(g, s, "vote yes")
    s = chance(g, s, 4)
    assert "10" not in heard_text(1) and "10" not in heard_text(3) and "10" not in heard_text(None)
    assert "is a 10" in heard_text(0) and "is a 10" in heard_text(2)


def test_bribery_tells_both_rolls_and_the_discarded_value_to_the_briber_only() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 3), ships=2)
    give_hand(s, 0, 4, 4, 4, 4)
    s = pending(g, s, Build(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    s = chance(g, s, 6)
    s = chance(g, s, 5)
    rolls = [e for e in heard(1, "bribe") if "success" in e["data"]]
    assert rolls[0]["text"] == "Bribery of Blue Warrior: red rolls 6 against 5: Blue Warrior turns traitor"
    assert rolls[0]["data"] == {
        "figure": warrior(BLUE),
        "briber": RED,
        "briber_roll": 6,
        "answer_roll": 5,
        "success": True,
    }
    assert "4s" not in heard_text(1) and "are 4s" in heard_text(0)
    [traitor] = heard(None, "traitor")
    assert traitor["data"]["old"] == BLUE and traitor["data"]["new"] == RED and traitor["data"]["ships"] == 2


def test_a_special_event_roll_is_told_with_its_number() -> None:
    g = game(4)
    s = board(g)
    s = pending(g, s, RollEvent())
    s = chance(g, s, 8)
    [rolled] = heard(None, "special_event")
    assert rolled["data"]["roll"] == 8 and rolled["rule"] == "event"
    assert rolled["text"] == "Special Event roll 8: no event"


def test_a_special_event_is_told_by_the_charts_name() -> None:
    g = game(4)
    s = pending(g, board(g), RollEvent())
    s = chance(g, s, 9)
    [rolled] = heard(None, "special_event")
    assert rolled["text"] == "Special Event roll 9: Draw 2 Power Cards" and rolled["data"]["event"] == "draw2"
    roll = pending(g, board(g), RollEvent())
    assert g.words.action_to_str(roll, 9) == "roll 2d8: 9 (Draw 2 Power Cards)"  # the chance line of the log
    assert g.words.action_from_str(roll, "roll 2d8: 9 (draw 2 power cards)") == 9


def test_the_shadows_attack_in_the_plural() -> None:
    """Seeded games of heuristic bots until the shadows open a Battle (the first two seeds have one)."""
    from shadowtable.bots.registry import make_bot
    from shadowtable.core.registry import make
    from shadowtable.core.table import Table

    told = []
    for seed in range(2):
        table = Table(make("shadowlord", players=3), [make_bot("heuristic") for _ in range(3)], seed)
        table.tell()
        while not table.is_over() and len(table.actions) < 3000:
            table.step()
        told += [e["text"] for e in table.view(None, 0).to_json()["events"] if e["text"].startswith("Battle in")]
    by_shadows = [text for text in told if ": the shadows (" in text]
    assert by_shadows and all(") attack " in text for text in by_shadows)
    assert all(") attacks " in text for text in told if text not in by_shadows)


def test_a_reshuffle_moves_the_timer_and_says_so() -> None:
    g = game(4)
    s = board(g)
    s.discard = s.deck[:]
    s.deck = [0] * 5
    s.discard[0] -= 1
    s.deck[0] += 1  # one card left: the draw after it reshuffles (recorded with the action)
    s = pending(g, s, DrawToHand(0), DrawToHand(0))
    s = draw(g, s, 0)
    [shuffled] = heard(None, "reshuffle")
    assert shuffled["data"] == {"cards": 49} and shuffled["rule"] == "timer"
    [timer] = heard(None, "timer")
    assert timer["data"] == {"timer": 5, "was": 6, "cause": "reshuffle"}
    assert timer["text"] == "the Power Stone Timer moves one notch: 5 left to the Starburst"


def test_the_timer_on_the_starburst_ends_the_game_with_its_cause() -> None:
    g = game(4)
    s = board(g)
    s.timer = 1
    s.discard = s.deck[:]
    s.deck = [0] * 5
    s.discard[0] -= 1
    s.deck[0] += 1
    s = pending(g, s, StartTurn(), DrawToHand(0), DrawToHand(0))
    s = draw(g, s, 0)  # reshuffle: the timer reaches the Starburst
    s = draw(g, s, 2)  # then the turn starts on the Starburst
    [end] = heard(None, "end")
    assert end["data"] == {"end": "shadowlord_timer", "winner": NOBODY, "timer": 0} and end["rule"] == "timer"
    assert s.end == "shadowlord_timer"


def test_an_event_with_no_target_says_that_nothing_happens_and_why() -> None:
    """Steal with nobody holding a Power Card, Discover with no face-down disc: the log says so
    rather than going on to the next step with no word."""
    g = game(4)
    steal = next(total for total in range(2, 17) if EVENTS[g.ctx.content.events[total]] == "steal")
    s = chance(g, pending(g, board(g), RollEvent()), steal)
    rolled, nothing = heard(None, "special_event")
    assert rolled["text"].startswith(f"Special Event roll {steal}: Steal")
    assert nothing["text"] == "Steal 2 Power Cards has no target (no other player holds a Power Card): nothing happens"
    assert nothing["data"] == {"event": "steal", "no_target": True}
    assert not isinstance(top(s), ChooseEventTarget)
    g = game(4)
    discover = next(total for total in range(2, 17) if EVENTS[g.ctx.content.events[total]] == "discover")
    chance(g, pending(g, board(g), RollEvent()), discover)  # the board has no face-down disc
    assert heard(None, "special_event")[1]["text"].endswith("(no face-down disc is left): nothing happens")
