"""Step 6: Truces, Calling in Allies, the Battle Board, Duels, Blasts, shadows, loose ships,
capturing a Star Master, and the Lost Fortress."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import place
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import ACTIVE, CAPTIVE, REMOVED, State
from shadowtable.games.shadowlord.tasks import (
    CallOwnCharacter,
    Commit,
    DrawToDuel,
    Fight,
    GiveStone,
    PlaceAttacker,
    PrepareDuel,
    ProposeTruce,
    SendAlly,
    ShiftFrom,
    Teleport,
)

from .helpers import (
    BLUE,
    FORTRESS,
    GREEN,
    LORD,
    RED,
    YELLOW,
    G,
    board,
    diplomat,
    do,
    draw,
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
    shadow,
    texts,
    top,
    warrior,
)
from .helpers import chance as roll

C4 = G(1, 2)


def choices(g: ShadowlordGame, s: State) -> list[str]:
    """Legal actions without the negotiation openers."""
    return [t for t in texts(g, s) if not t.startswith("make offer")]


def duel_setup(players: int = 4) -> tuple[ShadowlordGame, State]:
    """Red Warrior (6) with ``a`` ships attacks Blue Warrior (6) in c4."""
    g = game(players)
    s = board(g)
    return g, s


def start_fight(g: ShadowlordGame, s: State) -> State:
    s = pending(g, s, Fight())
    if isinstance(top(s), ProposeTruce):
        s = do(g, s, "fight")
    while isinstance(top(s), ShiftFrom):
        s = do(g, s, "stop shifting")
    return s


def test_truce_accepted_means_no_battle() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=2)
    put(s, warrior(BLUE), C4, ships=2)
    s = pending(g, s, Fight())
    s = do(g, s, "propose truce in c4")
    s = do(g, s, "accept truce")
    assert settled(s) and s.status[warrior(BLUE)] == ACTIVE and s.truce >> C4 & 1


def test_truce_refused_means_battle() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=2)
    put(s, warrior(BLUE), C4, ships=2)
    s = pending(g, s, Fight())
    s = do(g, s, "propose truce in c4")
    s = do(g, s, "refuse truce")
    assert top(s) == PlaceAttacker(0, 0, -1)


def test_duel_attacker_wins_destroys_the_margin_and_takes_the_rest() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=3)
    put(s, warrior(BLUE), C4, ships=4)
    give_hand(s, 0, 10)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 4)  # attacker draws 4
    s = draw(g, s, 0)  # defender draws 0
    s = do(g, s, "commit hand card 10")
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    # attacker 6 + 3 + 4 + 10 = 23; defender 6 + 4 + 0 = 10; margin 13 > 4 ships: all destroyed
    # the shortfall 9 comes from the winner's 3 ships
    assert s.status[warrior(BLUE)] == CAPTIVE and s.captor[warrior(BLUE)] == warrior(RED)
    assert s.ships[warrior(RED)] == 0 and s.ships[warrior(BLUE)] == 0
    assert s.battle is not None and s.battle.last is not None and s.battle.last["totals"] == [23, 10]
    s = draw(g, s, 7)  # the reward
    assert hand(s, 0)[3] == 1 and settled(s) and no_conservation_errors(g, s)


def test_duel_winner_takes_the_losers_remaining_ships() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=2)
    put(s, warrior(BLUE), C4, ships=5)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    # 6 + 2 + 10 = 18 vs 6 + 5 + 0 = 11: margin 7 destroys Blue's 5 and 2 of Red's 2
    assert s.ships[warrior(RED)] == 0
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=4)
    put(s, warrior(BLUE), C4, ships=5)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 7)
    s = draw(g, s, 4)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    # 6 + 4 + 7 = 17 vs 6 + 5 + 4 = 15: margin 2 destroys 2 of Blue's 5; Red takes the other 3,
    # two fit in the ring (6 max), one is left loose
    assert s.ships[warrior(RED)] == 6 and s.loose_n[C4] == 1 and s.loose_col[C4] == RED
    assert no_conservation_errors(g, s)


def test_duel_tie_goes_to_the_defender() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=3)
    put(s, warrior(BLUE), C4, ships=3)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 4)
    s = draw(g, s, 4)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    assert s.status[warrior(RED)] == CAPTIVE and s.captor[warrior(RED)] == warrior(BLUE)
    assert s.ships[warrior(BLUE)] == 6  # margin 0: nothing destroyed; Blue takes Red's 3
    s = draw(g, s, 2)
    assert hand(s, 1)[1] == 1


def test_defender_uses_only_portrait_cards() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    give_hand(s, 1, 10)
    give_portrait(s, warrior(BLUE), 7)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    assert texts(g, s) == ["commit no more cards", "commit portrait card 7"]


def test_committed_cards_are_hidden_until_the_reveal() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    give_hand(s, 0, 10)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit hand card 10")
    seen_by_blue = g.observe(s, 1)
    assert seen_by_blue["public"]["battle"]["duel"]["count"] == [1, 0]
    assert seen_by_blue["private"]["commit"][0] is None
    assert g.observe(s, 0)["private"]["commit"][0] == [0, 0, 0, 0, 1]


def test_two_attackers_two_defenders_the_defender_chooses_pairings() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, master(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    put(s, master(BLUE), C4, ships=1)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "defend with Blue Master")  # opposite the first attacker
    s = do(g, s, "defend with Blue Warrior")
    assert s.battle is not None and s.battle.duel is not None and s.battle.duel.figures == [warrior(RED), master(BLUE)]
    assert [t for t in s.stack if isinstance(t, PrepareDuel)] == [PrepareDuel(0, master(RED), warrior(BLUE))]


def test_a_lone_defender_chooses_which_attacker_to_face() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, master(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "attack with Red Master")
    assert sorted(choices(g, s)) == ["face Red Master", "face Red Warrior"]


def test_defender_calls_in_one_of_his_own_characters() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    put(s, master(BLUE), G(1, 4), ships=2)
    put(s, diplomat(BLUE), G(1, 3))
    s = start_fight(g, s)
    assert isinstance(top(s), CallOwnCharacter)
    s = do(g, s, "call in Blue Master")
    assert s.loc[master(BLUE)] == C4


def test_other_players_send_allies_attackers_may_use_the_owners_hand() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    put(s, warrior(GREEN), G(1, 1), ships=1)
    put(s, master(GREEN), G(1, 1), ships=1)
    give_hand(s, 3, 7)
    s = start_fight(g, s)
    assert top(s) == SendAlly(3, 0, GREEN)
    s = do(g, s, "send to attacker Green Warrior")
    s = do(g, s, "attack with Green Warrior")
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "face Green Warrior")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    assert top(s) == Commit(3, 0) and "commit hand card 7" in texts(g, s)


def test_power_blast_extra_card() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, master(RED), C4, ships=0)
    put(s, warrior(BLUE), C4, ships=1)
    s.stone = master(RED)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "face Red Warrior")
    s = roll(g, s, 6)  # Blast roll for the attacker side: 5-8 blasts
    s = do(g, s, "blast: extra card")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    assert s.battle is not None and s.battle.duel is not None and s.battle.duel.drawn == [[4, 0], [0]]


def test_power_blast_destroys_d8_ships_with_carry_over() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=3)
    put(s, warrior(BLUE), C4, ships=2)
    s.stone = warrior(BLUE)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = roll(g, s, 8)  # the defender's Blast
    s = do(g, s, "blast: destroy ships")
    s = roll(g, s, 5)  # five ships: Red's 3, then 2 carried over to the blaster
    assert s.ships[warrior(RED)] == 0 and s.ships[warrior(BLUE)] == 0


def test_power_blast_fails_on_one_to_four() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=3)
    put(s, warrior(BLUE), C4, ships=2)
    s.stone = warrior(BLUE)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = roll(g, s, 4)
    assert top(s) == DrawToDuel(0)


def test_shadow_beaten_outside_the_fortress_is_removed_and_captives_released() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=2)
    put(s, master(RED), G(0, 2), ships=1)
    put(s, shadow(1), C4, ships=1)
    s.status[diplomat(RED)] = CAPTIVE
    s.captor[diplomat(RED)] = shadow(1)
    place(s, diplomat(RED), -1)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Shadow 1")
    s = draw(g, s, 4)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    assert s.status[shadow(1)] == REMOVED and s.status[diplomat(RED)] == ACTIVE
    assert s.loc[diplomat(RED)] == G(0, 2)  # released to the Star Master's galaxy
    assert no_conservation_errors(g, s)


def test_shadow_wins_captures_and_takes_no_reward() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, shadow(8), C4, ships=2)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Shadow 8")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    assert s.status[warrior(RED)] == CAPTIVE and s.captor[warrior(RED)] == shadow(8)
    assert settled(s) and sum(s.hand) == 0


def test_a_shadow_the_player_moved_attacks_with_him_in_control() -> None:
    g, s = duel_setup()
    put(s, shadow(2), G(3, 3), ships=1)
    put(s, warrior(YELLOW), G(3, 3), ships=1)
    s.shadow_ctl = 1 << shadow(2)
    s = pending(g, s, Fight())
    assert isinstance(top(s), PlaceAttacker) and top(s).seat == 0 and choices(g, s) == ["attack with Shadow 2"]


def test_undefended_loose_ships_are_destroyed_without_a_reward() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    loose(s, C4, BLUE, 3)
    s = pending(g, s, Fight())
    s = do(g, s, "challenge loose ships")
    assert s.loose_n[C4] == 0 and settled(s) and sum(s.hand) == 0
    assert no_conservation_errors(g, s)


def test_loose_ships_may_be_left_alone() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    loose(s, C4, BLUE, 3)
    s = pending(g, s, Fight())
    s = do(g, s, "ignore loose ships")
    assert s.loose_n[C4] == 3 and settled(s)


def test_capturing_a_star_master_removes_the_alliance_and_gives_its_cards() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=2)
    put(s, master(BLUE), C4, ships=0)
    put(s, warrior(BLUE), G(4, 4), ships=3)
    give_hand(s, 1, 7, 7)
    give_portrait(s, warrior(BLUE), 10)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Master")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    assert not s.alive[BLUE] and s.seat_out[1]
    assert all(s.status[f] == REMOVED for f in (master(BLUE), warrior(BLUE), diplomat(BLUE)))
    assert hand(s, 0) == [0, 0, 0, 2, 1] and hand(s, 1) == [0] * 5
    assert no_conservation_errors(g, s)


def test_star_master_captured_by_a_shadow_discards_the_cards() -> None:
    g, s = duel_setup()
    put(s, master(RED), C4, ships=0)
    put(s, shadow(8), C4, ships=2)
    give_hand(s, 0, 7)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "defend with Shadow 8")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    assert not s.alive[RED] and sum(s.hand) == 0 and s.discard[3] == 1


def test_two_player_capture_gives_only_the_portrait_cards() -> None:
    g = game(2)
    s = board(g)
    put(s, warrior(RED), C4, ships=2)
    put(s, master(BLUE), C4, ships=0)
    put(s, warrior(BLUE), G(4, 4), ships=0)
    give_hand(s, 1, 7)
    give_portrait(s, warrior(BLUE), 10)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Master")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    assert not s.alive[BLUE] and s.alive[GREEN] and not s.seat_out[1]
    assert hand(s, 0)[4] == 1 and hand(s, 1)[3] == 1


def test_lost_fortress_shadows_first_and_the_shadowlord_last() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), FORTRESS, ships=6)
    for i in range(2, 9):
        s.status[shadow(i)] = REMOVED
        place(s, shadow(i), -1)
    s = pending(g, s, Fight())
    s = draw(g, s, 7)  # Shadow 1 draws its Space Ships: 6 at most
    assert s.ships[shadow(1)] == 6
    assert choices(g, s) == ["attack with Red Warrior"]
    s = do(g, s, "attack with Red Warrior")
    assert top(s).seat == 1 and choices(g, s) == ["defend with Shadow 1"]  # seat to the left decides


def test_winning_the_lost_fortress() -> None:
    g, s = duel_setup()
    put(s, master(RED), FORTRESS, ships=5)
    put(s, yellow := warrior(YELLOW), G(4, 4), ships=0)
    for i in range(1, 9):
        s.status[shadow(i)] = REMOVED
        place(s, shadow(i), -1)
    s.status[yellow] = CAPTIVE
    s.captor[yellow] = shadow(1)
    s.status[shadow(1)] = ACTIVE
    place(s, shadow(1), G(4, 4))
    place(s, yellow, -1)
    s = pending(g, s, Fight())
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "defend with Shadowlord")
    s = roll(g, s, 1)  # the Shadowlord's Blast fails
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    # 8 + 5 + 10 = 23 against 10 + 5 + 1 = 16
    s = draw(g, s, 0)  # reward
    assert s.stone == master(RED) and s.timer == -1
    assert all(s.status[f] == REMOVED for f in range(LORD, LORD + 9))
    assert s.status[yellow] == ACTIVE and s.loc[yellow] == G(4, 2)  # back with its Star Master
    assert top(s) == GiveStone(0, RED, FORTRESS)
    s = do(g, s, "stone to Red Master")
    s = do(g, s, "teleport home")
    assert s.loc[master(RED)] == G(0, 2) and settled(s) and no_conservation_errors(g, s)


def test_losing_in_the_lost_fortress() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), FORTRESS, ships=1)
    for i in range(3, 9):
        s.status[shadow(i)] = REMOVED
        place(s, shadow(i), -1)
    s = pending(g, s, Fight())
    s = draw(g, s, 4)  # Shadow 2 (4): four ships
    s = draw(g, s, 2)  # Shadow 1 (3): two ships
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Shadow 1")
    s = roll(g, s, 2)
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    # 6 + 1 = 7 against 3 + 2 = 5: Shadow 1 is captive in the Fortress (not removed)
    assert s.status[shadow(1)] == CAPTIVE
    s = draw(g, s, 0)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Shadow 2")
    s = roll(g, s, 1)
    s = draw(g, s, 0)
    s = draw(g, s, 10)
    s = do(g, s, "commit no more cards")
    # 6 + 0 = 6 against 4 + 4 + 10: Red Warrior captive; Shadow 1 released without ships;
    # the shadows' ships go to the Shadowlord (six slots, the Power Stone takes one)
    assert s.status[warrior(RED)] == CAPTIVE and s.status[shadow(1)] == ACTIVE
    assert s.ships[shadow(1)] == 0 and s.ships[shadow(2)] == 0 and s.ships[LORD] == 5
    assert settled(s) and no_conservation_errors(g, s)


def test_losing_side_diplomats_retreat_after_the_battle() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=3)
    put(s, diplomat(BLUE), C4)
    put(s, diplomat(RED), C4)
    put(s, master(BLUE), G(1, 4), ships=0)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    s = draw(g, s, 0)
    assert s.loc[diplomat(BLUE)] == G(1, 4) and s.loc[diplomat(RED)] == C4


def test_no_teleport_home_when_enemies_control_it() -> None:
    g, s = duel_setup()
    put(s, master(RED), FORTRESS, ships=1)
    put(s, warrior(BLUE), G(0, 2), ships=1)
    s = pending(g, s, Teleport(0))
    s = do(g, s, "teleport home")
    assert s.loc[master(RED)] == FORTRESS


def test_ships_are_redistributed_before_the_battle() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=4)
    put(s, master(RED), C4, ships=0)
    put(s, warrior(BLUE), C4, ships=1)
    s = pending(g, s, Fight())
    s = do(g, s, "fight")
    assert isinstance(top(s), ShiftFrom) and top(s).seat == 0
    s = do(g, s, "shift ship from Red Warrior")
    s = do(g, s, "shift ship to Red Master")
    s = do(g, s, "shift ship from Red Warrior")
    s = do(g, s, "shift ship to Red Master")
    s = do(g, s, "stop shifting")
    assert s.ships[warrior(RED)] == 2 and s.ships[master(RED)] == 2 and isinstance(top(s), PlaceAttacker)


def test_allies_join_a_loose_ship_challenger_only_once_someone_defends() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    loose(s, C4, BLUE, 3)
    put(s, warrior(GREEN), G(1, 1), ships=1)
    s = pending(g, s, Fight())
    s = do(g, s, "challenge loose ships")
    assert top(s) == SendAlly(3, 0, GREEN)
    assert "send to attacker Green Warrior" not in texts(g, s) and "send to defender Green Warrior" in texts(g, s)


def test_the_two_duels_on_the_board_are_fought_at_the_same_time() -> None:
    g, s = duel_setup()
    put(s, warrior(RED), C4, ships=1)
    put(s, master(RED), C4, ships=1)
    put(s, warrior(BLUE), C4, ships=1)
    put(s, 16, C4, ships=1, owner=BLUE)  # Merchant M1 (3)
    give_hand(s, 0, 10, 7)
    s = start_fight(g, s)
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "defend with Merchant M1")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit hand card 10")
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    # the first Duel waits face down while the second is prepared
    assert s.battle is not None and s.battle.last is None and len(s.battle.ready) == 1
    assert g.observe(s, 1)["private"]["ready_commit"] == [[None, [0, 0, 0, 0, 0]]]
    assert "commit" not in g.observe(s, 1)["public"]["battle"]["ready"][0]
    s = draw(g, s, 0)
    s = draw(g, s, 4)
    s = do(g, s, "commit hand card 7")
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    # Red Warrior 6+1+10 = 17 beats Merchant 3+1 = 4; Red Master 8+1+7 = 16 beats Blue Warrior 6+1+4 = 11
    assert s.status[16] == CAPTIVE and s.status[warrior(BLUE)] == ACTIVE
    s = draw(g, s, 0)  # the first winner's reward, then the second Duel is revealed
    assert s.status[warrior(BLUE)] == CAPTIVE
    assert no_conservation_errors(g, s)
