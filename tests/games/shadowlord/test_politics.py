"""Bribery and traitors, the Diplomatic Immunity retreat clauses, the seven-character limit
(Dismissing), votes, and every kind of trade."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import place
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.rules.negotiation import MAX_ITEMS
from shadowtable.games.shadowlord.state import ACTIVE, CAPTIVE, REMOVED, State
from shadowtable.games.shadowlord.tasks import (
    AnswerOffer,
    Build,
    ChooseEventTarget,
    Dismiss,
    Enlist,
    Fight,
    GiveDismissed,
    Move,
    PlaceCharacter,
    PlaceTraded,
    ProposeTruce,
    Vote,
    Want,
)

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    G,
    Hold,
    board,
    chance,
    diplomat,
    do,
    game,
    give_hand,
    give_portrait,
    hand,
    loose,
    master,
    no_conservation_errors,
    pending,
    put,
    settled,
    texts,
    top,
    warrior,
)


def bribe_setup() -> tuple[ShadowlordGame, State]:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 3), ships=2)
    give_hand(s, 0, 4, 4, 4, 4)
    return g, s


def test_bribe_success_on_a_higher_roll() -> None:
    g, s = bribe_setup()
    give_portrait(s, warrior(BLUE), 7)
    loose(s, G(1, 3), BLUE, 2)
    s = pending(g, s, Build(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    assert hand(s, 0) == [0] * 5 and s.discard[2] == 4
    s = chance(g, s, 6)
    s = chance(g, s, 5)
    assert s.owner[warrior(BLUE)] == RED and s.ships[warrior(BLUE)] == 2
    assert s.pcards[warrior(BLUE) * 5 + 3] == 1  # the cards follow the traitor
    assert s.loose_col[G(1, 3)] == RED and s.loose_n[G(1, 3)] == 2
    assert top(s) == Build(0) and no_conservation_errors(g, s)


def test_bribe_fails_on_a_tie_or_lower_roll() -> None:
    for mine, theirs in ((4, 4), (2, 7)):
        g, s = bribe_setup()
        s = pending(g, s, Build(0))
        s = do(g, s, "bribe Blue Warrior with four 4s")
        s = chance(g, s, mine)
        s = chance(g, s, theirs)
        assert s.owner[warrior(BLUE)] == BLUE and hand(s, 0) == [0] * 5


def test_bribe_only_once_per_turn() -> None:
    g, s = bribe_setup()
    give_hand(s, 0, 2, 2, 2, 2)
    s = pending(g, s, Build(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    s = chance(g, s, 1)
    s = chance(g, s, 8)
    assert not any(t.startswith("bribe") for t in texts(g, s))


def test_masters_shadows_and_characters_on_home_planets_cannot_be_bribed() -> None:
    g, s = bribe_setup()
    put(s, master(BLUE), G(1, 4), ships=1)
    put(s, diplomat(BLUE), G(2, 4))
    s = pending(g, s, Move(0))
    options = [t for t in texts(g, s) if t.startswith("bribe")]
    assert options == ["bribe Blue Warrior with four 4s"]


def test_traitor_among_only_enemy_diplomats_makes_them_retreat() -> None:
    g, s = bribe_setup()
    put(s, diplomat(GREEN), G(1, 3))
    put(s, master(GREEN), G(1, 1), ships=1)
    s.stack = [Hold(0)]
    from shadowtable.games.shadowlord.rules.recruit import become_traitor

    become_traitor(g.ctx, s, warrior(BLUE), RED)
    assert s.loc[diplomat(GREEN)] == G(1, 1)


def test_bribed_traitor_among_only_enemy_diplomats_during_movement_makes_them_retreat() -> None:
    """Rulebook (Bribery): "If there are only enemy Diplomats in the galaxy with the traitor, the
    enemy Diplomats immediately retreat/teleport to the nearest friendly galaxy."

    Bribed during the current player's own turn (Step 4): the Diplomats retreat at once and the
    traitor is free to stay; he "must move away" only from enemy characters protected by a
    Diplomat."""
    g, s = bribe_setup()
    put(s, diplomat(GREEN), G(1, 3))
    put(s, master(GREEN), G(1, 1), ships=1)
    s = pending(g, s, Move(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    s = chance(g, s, 8)
    s = chance(g, s, 1)
    assert s.owner[warrior(BLUE)] == RED and s.loc[warrior(BLUE)] == G(1, 3)
    assert s.loc[diplomat(GREEN)] == G(1, 1)
    assert "end movement" in texts(g, s)  # the traitor is not forced away
    s = do(g, s, "end movement")
    assert s.loc[warrior(BLUE)] == G(1, 3) and no_conservation_errors(g, s)


def test_escorted_diplomat_in_a_battle_galaxy_without_enemy_diplomats_retreats() -> None:
    g = game(4)
    s = board(g, cur=YELLOW)
    put(s, warrior(BLUE), G(1, 3), ships=2)
    put(s, master(BLUE), G(1, 3), ships=1)
    put(s, diplomat(BLUE), G(1, 3))
    put(s, warrior(GREEN), G(1, 4), ships=1)
    from shadowtable.games.shadowlord.rules.recruit import become_traitor

    become_traitor(g.ctx, s, warrior(BLUE), RED)  # red now has a character there: a Battle is due
    assert s.loc[diplomat(BLUE)] != G(1, 3)


def test_two_unescorted_diplomats_loose_ships_decide_who_retreats() -> None:
    g = game(4)
    s = board(g, cur=YELLOW)
    put(s, diplomat(RED), G(3, 0))
    put(s, diplomat(BLUE), G(3, 0))
    loose(s, G(3, 0), BLUE, 1)
    from shadowtable.games.shadowlord.rules.alliances import resolve_diplomats

    resolve_diplomats(g.ctx, s)
    assert s.loc[diplomat(RED)] != G(3, 0) and s.loc[diplomat(BLUE)] == G(3, 0)
    s.loose_n[G(3, 0)] = 0
    s.supply[BLUE] += 1
    s.loose_col[G(3, 0)] = -1
    put(s, diplomat(RED), G(3, 0))
    resolve_diplomats(g.ctx, s)
    assert s.loc[diplomat(RED)] != G(3, 0) and s.loc[diplomat(BLUE)] != G(3, 0)


def test_current_player_is_spared_the_retreat_clauses_until_step_4_ends() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(3, 0))
    put(s, diplomat(BLUE), G(3, 0))
    loose(s, G(3, 0), BLUE, 1)
    from shadowtable.games.shadowlord.rules.alliances import resolve_diplomats

    resolve_diplomats(g.ctx, s, exempt=RED)
    assert s.loc[diplomat(RED)] == G(3, 0)


def seven(s: State, colour: int) -> None:
    """Give ``colour`` seven characters: its three plus four disc characters."""
    for f in (12, 13, 16, 20):
        put(s, f, G(1, 2), ships=0, owner=colour)


def test_seventh_limit_forces_dismissal_and_the_dismissed_goes_to_who_wants_him() -> None:
    g = game(4)
    s = board(g)
    seven(s, RED)
    put(s, diplomat(RED), G(1, 1), ships=1)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s = pending(g, s, Enlist(0, 14, G(1, 1), False))
    s = do(g, s, "enlist")
    assert top(s) == Dismiss(0, RED) and "dismiss Red Master" not in texts(g, s)
    s = do(g, s, "dismiss Merchant M1")
    assert top(s) == Want(1, 16)
    s = do(g, s, "take character")
    s = do(g, s, "decline")
    s = do(g, s, "decline")
    s = do(g, s, "place in e4")
    assert s.owner[16] == BLUE and s.loc[16] == G(1, 4)
    assert s.owner[14] == RED and s.status[14] == ACTIVE and no_conservation_errors(g, s)


def test_dismissed_character_nobody_wants_is_removed() -> None:
    g = game(3)
    s = board(g)
    seven(s, RED)
    give_portrait(s, 16, 7)
    s = pending(g, s, Enlist(0, 14, G(1, 1), False))
    s = do(g, s, "enlist")
    s = do(g, s, "dismiss Merchant M1")
    s = do(g, s, "decline")
    s = do(g, s, "decline")
    assert s.status[16] == REMOVED and s.discard[3] == 1 and s.owner[14] == RED


def test_bribed_character_joining_a_full_alliance_needs_a_dismissal() -> None:
    g, s = bribe_setup()
    seven(s, RED)
    s = pending(g, s, Build(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    s = chance(g, s, 8)
    s = chance(g, s, 1)
    assert top(s) == Dismiss(0, RED)


def test_captured_characters_cannot_be_dismissed() -> None:
    g = game(4)
    s = board(g)
    seven(s, RED)
    put(s, warrior(BLUE), G(4, 4), ships=1)
    s.status[12] = CAPTIVE
    s.captor[12] = warrior(BLUE)
    place(s, 12, -1)
    s = pending(g, s, Dismiss(0, RED))
    assert "dismiss Warrior W1" not in texts(g, s)


def test_vote_is_secret_until_everyone_voted_and_one_yes_passes() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s = pending(g, s, ChooseEventTarget(0, 1))
    s = do(g, s, "target Blue Warrior")
    s = do(g, s, "vote yes")
    assert g.observe(s, 2)["public"]["vote"]["votes"][1] == -2
    assert g.observe(s, 1)["public"]["vote"]["votes"][1] == 1


def test_after_the_vote_each_voter_still_sees_his_own_vote_and_only_his() -> None:
    """Rulebook: "The current player specifies the action and then the other players vote. If
    at least one other player votes 'Yes' then the action occurs as specified."  Votes are cast
    secretly (SL-VOTE-4): once the vote closes, each voter can still read what he voted, the
    table reads the result, and nobody reads another seat's vote - in the observation and in
    its text rendering."""
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s = pending(g, s, ChooseEventTarget(0, 1))
    s = do(g, s, "target Blue Warrior")
    s = do(g, s, "vote yes")  # seat 1
    s = do(g, s, "vote no")  # seat 2
    s = do(g, s, "vote no")  # seat 3
    assert s.vote is None and s.owner[warrior(BLUE)] == RED
    for seat, mine in ((1, 1), (2, 0), (3, 0)):
        last = g.observe(s, seat)["public"]["last_vote"]
        assert last["passed"] is True and last["kind"] == "defect"
        assert last["votes"][seat] == mine
        assert all(v == -2 for k, v in enumerate(last["votes"]) if k not in (0, seat))
        text = g.words.render(g.observe(s, seat))
        assert f"Last Vote: Blue Warrior Defects to red: passed. You voted {'yes' if mine else 'no'}." in text
    for seat in (0, None):
        last = g.observe(s, seat)["public"]["last_vote"]
        assert last["votes"] == [-1, -2, -2, -2]
        assert "You voted" not in g.words.render(g.observe(s, seat))


def test_voting_is_suspended_with_two_players_left() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s.seat_out[2] = s.seat_out[3] = 1
    s.alive[YELLOW] = s.alive[GREEN] = 0
    s = pending(g, s, ChooseEventTarget(0, 1))
    s = do(g, s, "target Blue Warrior")
    assert s.owner[warrior(BLUE)] == RED and settled(s)


def offer(g: ShadowlordGame, s: State, target: int, *items: str) -> State:
    s = do(g, s, f"make offer to seat {target}")
    for item in items:
        s = do(g, s, item)
    return do(g, s, "send offer")


def test_trade_power_cards_between_attack_hands() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7)
    give_hand(s, 1, 10)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer to give card 7", "offer to want card 10")
    assert top(s) == AnswerOffer(1)
    s = do(g, s, "accept offer")
    assert hand(s, 0) == [0, 0, 0, 0, 1] and hand(s, 1) == [0, 0, 0, 1, 0] and top(s) == Build(0)


def test_refused_offer_changes_nothing() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7)
    s = pending(g, s, Build(0))
    s = offer(g, s, 2, "offer to give card 7")
    s = do(g, s, "refuse offer")
    assert hand(s, 0) == [0, 0, 0, 1, 0] and hand(s, 2) == [0] * 5 and s.offer is None


def test_an_offer_cannot_be_accepted_without_the_wanted_cards() -> None:
    g = game(4)
    s = board(g)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer to want card 10")
    assert texts(g, s) == ["refuse offer"]


def test_trade_a_character_with_its_ships_recoloured() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=3)
    give_portrait(s, warrior(RED), 4)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer trade of Red Warrior")
    s = do(g, s, "accept offer")
    assert top(s) == PlaceTraded(1, warrior(RED)) and "put traded character in e3" in texts(g, s)
    s = do(g, s, "put traded character in c4")
    assert s.owner[warrior(RED)] == BLUE and s.ships[warrior(RED)] == 3 and s.loc[warrior(RED)] == G(1, 2)
    assert s.pcards[warrior(RED) * 5 + 2] == 1 and no_conservation_errors(g, s)


def test_release_a_captive_as_part_of_a_negotiation() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, master(BLUE), G(1, 4), ships=1)
    s.status[warrior(BLUE)] = CAPTIVE
    s.captor[warrior(BLUE)] = warrior(RED)
    place(s, warrior(BLUE), -1)
    s.supply[BLUE] += s.ships[warrior(BLUE)]
    s.ships[warrior(BLUE)] = 0
    give_hand(s, 1, 7)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer release of Blue Warrior", "offer to want card 7")
    s = do(g, s, "accept offer")
    assert s.status[warrior(BLUE)] == ACTIVE and s.loc[warrior(BLUE)] == G(1, 4) and hand(s, 0)[3] == 1


def test_truce_as_part_of_a_negotiation_prevents_the_battle() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = pending(g, s, Fight(), Build(0))
    s = offer(g, s, 1, "offer truce in c4")
    s = do(g, s, "accept offer")
    s = do(g, s, "end building")
    assert settled(s) and s.battle is None


def test_offers_per_turn_are_limited_by_the_option() -> None:
    g = game(4, max_offers_per_turn=1)
    s = board(g)
    give_hand(s, 0, 7)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer to give card 7")
    s = do(g, s, "refuse offer")
    assert not any(t.startswith("make offer") for t in texts(g, s))
    g0 = game(4, max_offers_per_turn=0)
    s0 = pending(g0, board(g0), Build(0))
    assert not any(t.startswith("make offer") for t in texts(g0, s0))


def test_trade_space_ships_recoloured_in_their_current_space() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=3)
    put(s, warrior(BLUE), G(1, 2), ships=5)
    give_hand(s, 1, 7)
    s = pending(g, s, Build(0))
    s = offer(g, s, 1, "offer a ship from Red Warrior", "offer a ship from Red Warrior", "offer to want card 7")
    s = do(g, s, "accept offer")
    assert s.ships[warrior(RED)] == 1 and s.ships[warrior(BLUE)] == 6
    assert s.loose_col[G(1, 2)] == BLUE and s.loose_n[G(1, 2)] == 1 and hand(s, 0)[3] == 1
    assert no_conservation_errors(g, s)


def test_trading_ships_after_moving_ends_the_move() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 2), ships=4)
    put(s, diplomat(RED), G(0, 3))
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Warrior e")
    s = offer(g, s, 1, "offer a ship from Red Warrior")
    s = do(g, s, "accept offer")
    assert s.ships[warrior(RED)] == 3 and not any(t.startswith("move Red Warrior") for t in texts(g, s))


def test_a_truce_can_be_revoked_and_the_battle_happens() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = pending(g, s, Fight(), Build(0))
    s = offer(g, s, 1, "offer truce in c4")
    s = do(g, s, "accept offer")
    assert s.truce >> G(1, 2) & 1
    s = do(g, s, "revoke truce in c4")
    assert not s.truce
    s = do(g, s, "end building")
    assert s.battle is not None and isinstance(top(s), ProposeTruce)


def test_a_permission_can_be_revoked() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 3), ships=3)
    put(s, master(BLUE), G(0, 4), ships=1)
    put(s, diplomat(RED), G(1, 4))
    s.perm[BLUE] = 1 << RED
    s = pending(g, s, Vote(1), Move(0))
    s.stack = [Hold(0), Move(0), Want(1, 12)]  # seat 1 has a decision pending
    assert "revoke permission of seat 0" in texts(g, s)
    s = do(g, s, "revoke permission of seat 0")
    assert s.perm[BLUE] == 0
    s = do(g, s, "decline")
    s = do(g, s, "move Red Warrior e")
    assert not any(t.startswith("move Red Warrior") for t in texts(g, s))


def test_a_traitor_among_enemies_protected_by_a_diplomat_must_move_away() -> None:
    g, s = bribe_setup()
    put(s, diplomat(BLUE), G(1, 3))
    put(s, master(BLUE), G(1, 3), ships=1)
    s = pending(g, s, Move(0))
    s = do(g, s, "bribe Blue Warrior with four 4s")
    s = chance(g, s, 8)
    s = chance(g, s, 1)
    assert s.owner[warrior(BLUE)] == RED and s.loc[diplomat(BLUE)] == G(1, 3)
    assert "end movement" not in texts(g, s)
    s = do(g, s, "move Blue Warrior n")
    assert "end movement" in texts(g, s)


def test_several_players_want_the_dismissed_character_and_a_payment_can_be_asked() -> None:
    g = game(3)
    s = board(g)
    seven(s, RED)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    put(s, warrior(YELLOW), G(3, 3), ships=1)
    give_hand(s, 2, 10)
    s = pending(g, s, Dismiss(0, RED))
    s = do(g, s, "dismiss Merchant M1")
    s = do(g, s, "take character")
    s = do(g, s, "take character")
    assert top(s) == GiveDismissed(0, 16, 0b110)
    s = offer(g, s, 2, "offer to want card 10")
    s = do(g, s, "accept offer")
    s = do(g, s, "dismiss to seat 2")
    s = do(g, s, "place in d2")
    assert s.owner[16] == YELLOW and hand(s, 0)[4] == 1 and no_conservation_errors(g, s)


def test_a_given_character_goes_to_an_alliance_with_room_when_placed() -> None:
    g = game(2)
    s = board(g)
    seven(s, RED)
    put(s, warrior(YELLOW), G(3, 3), ships=1)
    s = pending(g, s, PlaceCharacter(0, 14, RED))
    s = do(g, s, "place in d2")
    assert s.owner[14] == YELLOW and s.loc[14] == G(3, 3) and no_conservation_errors(g, s)


def test_no_character_changes_hands_once_the_first_battle_started() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, master(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = pending(g, s, Fight())
    s = do(g, s, "fight")
    s = do(g, s, "stop shifting")
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "make offer to seat 1")
    assert not any(t.startswith(("offer trade of", "offer a ship from")) for t in texts(g, s))
    assert "offer to want card 7" in texts(g, s)


def test_a_full_offer_can_only_be_sent_or_withdrawn_and_its_prompt_names_the_limit() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7)
    s = pending(g, s, Build(0))
    s = do(g, s, "make offer to seat 1")
    for item in ("offer to give card 7", "offer to want card 2", "offer to want card 4", "offer to want card 10"):
        s = do(g, s, item)
    assert texts(g, s) == ["withdraw offer", "send offer"]
    prompt = g.observe(s, 0)["pending"]["prompt"]
    assert prompt == f"Your offer: add an item (up to {MAX_ITEMS}), send it, or withdraw it" and MAX_ITEMS == 4
