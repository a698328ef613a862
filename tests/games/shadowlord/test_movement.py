"""Step 4 (movement, Diplomatic Immunity, Searching for Allies) and Step 5 (moving a shadow)."""

from __future__ import annotations

from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import Fight, Move, MoveShadow, PlaceShadow, ProposeTruce, Reveal, ShiftFrom

from .helpers import (
    BLUE,
    FORTRESS,
    RED,
    YELLOW,
    G,
    board,
    chance,
    diplomat,
    do,
    game,
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


def moves_of(g: ShadowlordGame, s: State, name: str) -> list[str]:
    return sorted(t for t in texts(g, s) if t.startswith(f"move {name} "))


def test_range_is_the_number_of_space_ships_and_none_without_ships() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 2), ships=2)
    put(s, master(RED), G(0, 2), ships=0)
    s = pending(g, s, Move(0))
    assert moves_of(g, s, "Red Master") == []
    s = do(g, s, "move Red Warrior s")  # (1,2): empty galaxy -> stops
    assert s.loc[warrior(RED)] == G(1, 2) and moves_of(g, s, "Red Warrior") == []


def test_movement_continues_through_own_galaxies_and_stops_in_unoccupied_ones() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 2), ships=3)
    put(s, diplomat(RED), G(0, 3))
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Warrior e")  # into own galaxy: may continue
    assert moves_of(g, s, "Red Warrior") != []
    s = do(g, s, "move Red Warrior e")  # (0,4) unoccupied: stop
    assert s.loc[warrior(RED)] == G(0, 4) and moves_of(g, s, "Red Warrior") == []


def test_movement_stops_in_an_enemy_galaxy_without_permission() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 3), ships=3)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Warrior e")
    assert moves_of(g, s, "Red Warrior") == []


def test_permission_from_an_offer_lets_a_character_pass_through() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 3), ships=3)
    put(s, master(BLUE), G(0, 4), ships=1)
    put(s, diplomat(RED), G(1, 4))
    s = pending(g, s, Move(0))
    s = do(g, s, "make offer to seat 1")
    s = do(g, s, "ask permission")
    s = do(g, s, "send offer")
    s = do(g, s, "accept offer")
    s = do(g, s, "move Red Warrior e")
    assert s.loc[warrior(RED)] == G(0, 4) and "move Red Warrior s" in texts(g, s)


def test_dropping_ships_after_moving_ends_movement_but_not_before() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 2), ships=3)
    put(s, master(RED), G(0, 3), ships=0)
    s = pending(g, s, Move(0))
    s = do(g, s, "drop ship from Red Warrior")
    assert s.loose_n[G(0, 2)] == 1 and moves_of(g, s, "Red Warrior") != []
    s = do(g, s, "move Red Warrior e")
    s = do(g, s, "drop ship from Red Warrior")
    assert moves_of(g, s, "Red Warrior") == [] and s.loose_n[G(0, 3)] == 1
    assert no_conservation_errors(g, s)


def test_pick_up_loose_ships_before_moving() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(0, 2), ships=0)
    loose(s, G(0, 2), RED, 2)
    s = pending(g, s, Move(0))
    s = do(g, s, "pick up ship to Red Warrior")
    assert s.ships[warrior(RED)] == 1 and moves_of(g, s, "Red Warrior") != []


def test_no_moving_through_a_galaxy_where_a_battle_will_take_place() -> None:
    g = game(4)
    s = board(g)
    put(s, master(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    put(s, warrior(RED), G(0, 2), ships=4)
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Warrior s")
    assert moves_of(g, s, "Red Warrior") == []


def test_enemies_cannot_enter_a_galaxy_with_a_diplomat() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(BLUE), G(1, 2))
    put(s, warrior(RED), G(0, 2), ships=2)
    s = pending(g, s, Move(0))
    assert "move Red Warrior s" not in texts(g, s)


def test_diplomats_cannot_enter_enemy_galaxies_or_loose_enemy_ships() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(0, 2), ships=3)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    loose(s, G(0, 3), BLUE, 1)
    s = pending(g, s, Move(0))
    assert moves_of(g, s, "Red Diplomat") == ["move Red Diplomat w"]


def test_a_diplomat_may_not_enter_an_empty_enemy_home_planet() -> None:
    """Rulebook: "You always control your Home Planet unless it is occupied by an enemy Power
    Ring or Space Ship" and "Diplomats cannot move into enemy occupied or controlled galaxy".

    An empty enemy Home Planet is controlled by its owner, so a Diplomat may not enter it (and
    so cannot lock the owner's Master and Warriors out of their own home)."""
    g = game(4)
    blue_home = g.ctx.content.home_of[BLUE]
    assert blue_home == G(2, 4)

    def placed(cur: int) -> State:
        s = board(g, cur=cur)
        put(s, diplomat(RED), G(1, 4), ships=1)
        put(s, master(BLUE), G(2, 3), ships=1)
        put(s, warrior(BLUE), G(3, 4), ships=1)
        put(s, diplomat(BLUE), G(3, 4))
        return s

    s = pending(g, placed(RED), Move(0))
    assert moves_of(g, s, "Red Diplomat") == ["move Red Diplomat n", "move Red Diplomat w"]
    # The owner's own characters can still go home.
    s = pending(g, placed(BLUE), Move(1))
    assert "move Blue Master e" in moves_of(g, s, "Blue Master")
    assert "move Blue Warrior n" in moves_of(g, s, "Blue Warrior")
    s = do(g, s, "move Blue Master e")
    s = do(g, s, "move Blue Warrior n")
    assert s.loc[master(BLUE)] == s.loc[warrior(BLUE)] == blue_home


def test_a_diplomat_with_permission_passes_through_an_enemy_home_planet_but_never_stays() -> None:
    """Rulebook: "Diplomats can move through spaces controlled by another Alliance with their
    permission" - through, not into - and "Enemies cannot move into a galaxy with a Diplomat".

    With Blue's permission, the Red Diplomat may cross Blue's empty Home Planet only when his
    range takes him on to a galaxy where he may stay, and he may not end his movement there:
    Blue's Master and Warrior are never locked out of their own home."""
    g = game(4)
    blue_home = G(2, 4)

    def placed(ships: int) -> State:
        s = board(g)
        put(s, diplomat(RED), G(1, 4), ships=ships)
        put(s, master(BLUE), G(2, 3), ships=1)
        put(s, warrior(BLUE), G(2, 3), ships=1)
        put(s, diplomat(BLUE), G(3, 3))
        s.perm[BLUE] = 1 << RED
        return s

    # One Space Ship: he could only end his move there, so he may not enter.
    s = pending(g, placed(1), Move(0))
    assert "move Red Diplomat s" not in moves_of(g, s, "Red Diplomat")
    # Two: he may cross, but not end his movement (nor drop a ship) on Blue's Home Planet.
    s = pending(g, placed(2), Move(0))
    s = do(g, s, "move Red Diplomat s")
    assert s.loc[diplomat(RED)] == blue_home
    options = texts(g, s)
    assert "end movement" not in options and "drop ship from Red Diplomat" not in options
    assert "move Red Diplomat s" in options  # on to the empty galaxy e2
    s = do(g, s, "move Red Diplomat s")
    s = do(g, s, "end movement")
    assert s.loc[diplomat(RED)] == G(3, 4)
    # Blue's turn: the way home is open.
    s.cur = BLUE
    s = pending(g, s, Move(1))
    s = do(g, s, "move Blue Master e")
    s = do(g, s, "move Blue Warrior e")
    assert s.loc[master(BLUE)] == s.loc[warrior(BLUE)] == blue_home


def test_a_diplomat_stopped_where_he_may_only_pass_retreats_when_movement_ends() -> None:
    """A Diplomat crossing Blue's Home Planet with permission whose move is ended there (he
    trades a Space Ship away: "Once movement starts if characters pick up, trade, or drop Space
    Ships they cannot move further") does not stay: when movement ends he retreats/teleports to
    the nearest friendly galaxy, as the Diplomatic Immunity clauses make Diplomats do."""
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(1, 4), ships=2)
    put(s, master(BLUE), G(2, 3), ships=1)
    put(s, warrior(BLUE), G(2, 3))
    put(s, diplomat(BLUE), G(3, 3))
    s.perm[BLUE] = 1 << RED
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Diplomat s")
    s = do(g, s, "make offer to seat 1")
    s = do(g, s, "offer a ship from Red Diplomat")
    s = do(g, s, "send offer")
    s = do(g, s, "accept offer")
    assert moves_of(g, s, "Red Diplomat") == [] and "end movement" in texts(g, s)
    s = do(g, s, "end movement")
    assert s.loc[diplomat(RED)] == G(0, 2) and no_conservation_errors(g, s)


def test_a_diplomat_may_enter_an_enemy_diplomats_galaxy_cancelling_immunity() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(0, 2), ships=2)
    put(s, diplomat(BLUE), G(1, 2))
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Diplomat s")
    assert s.loc[diplomat(RED)] == G(1, 2)


def test_a_diplomat_who_cancels_immunity_lets_his_own_side_in_to_battle() -> None:
    """Rulebook: "Diplomats can enter an enemy Diplomat's space. The Diplomats cancel each
    other's Diplomatic Immunity. ... While the Diplomats talk the other characters Battle."

    Once the Red Diplomat stands with the Blue Diplomat in c4, the Blue Diplomat protects
    nobody there: the Red Warrior may follow him in, and in Step 6 the Battle is fought with
    both Diplomats staying (an escorted Diplomat retreats only "if there are no enemy Diplomats
    to cancel")."""
    g = game(4)
    s = board(g)
    c4 = G(1, 2)
    put(s, diplomat(RED), G(0, 2), ships=1)
    put(s, warrior(RED), G(0, 2), ships=1)
    put(s, diplomat(BLUE), c4)
    put(s, warrior(BLUE), c4, ships=1)
    s = pending(g, s, Fight(), Move(0))
    assert "move Red Warrior s" not in moves_of(g, s, "Red Warrior")  # the Blue Diplomat protects c4
    s = do(g, s, "move Red Diplomat s")
    assert "move Red Warrior s" in moves_of(g, s, "Red Warrior")
    s = do(g, s, "move Red Warrior s")
    s = do(g, s, "end movement")
    assert s.battle is not None and [e.to_json()[:3] for e in s.battle.plan] == [[c4, RED, BLUE]]
    assert s.loc[diplomat(RED)] == s.loc[diplomat(BLUE)] == c4
    assert top(s) == ProposeTruce(0, 0) and no_conservation_errors(g, s)


def test_a_cancelled_immunity_protects_nobody_else_either() -> None:
    """ "The Diplomats cancel each other's Diplomatic Immunity": with Red and Blue Diplomats in
    c4, a third Alliance's character may enter too; a lone enemy Diplomat still protects."""
    g = game(4)
    s = board(g, cur=YELLOW)
    c4 = G(1, 2)
    put(s, diplomat(RED), c4)
    put(s, diplomat(BLUE), c4)
    put(s, warrior(BLUE), c4, ships=1)
    put(s, warrior(YELLOW), G(1, 1), ships=1)
    s = pending(g, s, Move(2))
    assert "move Yellow Warrior e" in moves_of(g, s, "Yellow Warrior")
    put(s, diplomat(RED), G(0, 2))
    assert "move Yellow Warrior e" not in moves_of(g, s, "Yellow Warrior")


def test_diplomats_never_fight() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(1, 2))
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = pending(g, s, Fight())
    assert s.loc[diplomat(RED)] != G(1, 2)  # unescorted in an enemy galaxy: it retreats
    assert s.battle is None


def test_search_enlists_a_character_that_cannot_move_this_turn() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(1, 2), ships=2)
    s.disc[G(1, 2)] = 1
    s.bag[0] = 1
    s = pending(g, s, Move(0))
    s = do(g, s, "search with Red Diplomat")
    s = chance(g, s, 0)
    s = do(g, s, "enlist")
    w = 12
    assert s.owner[w] == RED and s.loc[w] == G(1, 2)
    assert moves_of(g, s, "Red Diplomat") == [] and moves_of(g, s, "Warrior W1") == []
    assert s.disc[G(1, 2)] == 0


def test_enlisted_character_can_be_given_away_or_removed() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(1, 2), ships=2)
    put(s, warrior(BLUE), G(1, 4), ships=1)
    s.disc[G(1, 2)] = 1
    s.bag[1] = 1
    s = pending(g, s, Move(0))
    s = do(g, s, "search with Red Diplomat")
    s = chance(g, s, 1)
    s = do(g, s, "give to seat 1")
    s = do(g, s, "place in e4")
    assert s.owner[16] == BLUE and s.loc[16] == G(1, 4)


def test_search_reveals_a_shadow_placed_with_a_vote() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(1, 2), ships=2)
    put(s, warrior(BLUE), G(3, 3), ships=1)
    s.disc[G(1, 2)] = 1
    s.bag[3 + 4] = 1  # "Attacks: Shadow 5"
    s = pending(g, s, Move(0))
    s = do(g, s, "search with Red Diplomat")
    s = chance(g, s, 7)
    assert "place shadow in c4" not in texts(g, s) and "place shadow in c3" not in texts(g, s)
    s = do(g, s, "place shadow in d2")
    s = chance(g, s, 4)  # a 10: six Space Ships at most
    assert s.ships[shadow(5)] == 6
    s = do(g, s, "vote yes")
    s = do(g, s, "vote no")
    s = do(g, s, "vote no")
    assert s.loc[shadow(5)] == G(3, 3) and s.shadow_ctl >> shadow(5) & 1


def test_placed_shadow_is_removed_when_everybody_votes_no() -> None:
    g = game(3)
    s = board(g)
    s = pending(g, s, PlaceShadow(0, shadow(2)))
    s = do(g, s, "place shadow in d2")
    s = chance(g, s, 2)
    s = do(g, s, "vote no")
    s = do(g, s, "vote no")
    assert s.status[shadow(2)] == 3 and s.ships[shadow(2)] == 0 and no_conservation_errors(g, s)


def test_attack_disc_of_a_shadow_that_left_the_fortress_has_no_effect() -> None:
    g = game(4)
    s = board(g)
    put(s, shadow(1), G(4, 4))
    s.disc[G(1, 2)] = 1
    s.bag[3] = 1
    s = pending(g, s, Reveal(G(1, 2), False))
    s = chance(g, s, 3)
    assert settled(s) and s.loc[shadow(1)] == G(4, 4)


def test_master_searches_when_the_alliance_has_no_diplomat() -> None:
    g = game(4)
    s = board(g)
    put(s, master(RED), G(1, 2), ships=1)
    s.status[diplomat(RED)] = 3
    s.disc[G(1, 2)] = 1
    s.bag[0] = 1
    s = pending(g, s, Move(0))
    assert "search with Red Master" in texts(g, s)


def test_moving_a_shadow_needs_a_ship_and_a_vote_else_it_returns() -> None:
    g = game(4)
    s = board(g)
    put(s, shadow(3), G(3, 3), ships=1)
    put(s, warrior(YELLOW), G(3, 4), ships=1)
    put(s, diplomat(BLUE), G(2, 3))
    s = pending(g, s, MoveShadow(0))
    options = sorted(t for t in texts(g, s) if t.startswith("move Shadow 3"))
    assert options == ["move Shadow 3 e", "move Shadow 3 s", "move Shadow 3 w"]  # not the Diplomat's
    s = do(g, s, "move Shadow 3 e")
    for _ in range(3):
        s = do(g, s, "vote no")
    assert s.loc[shadow(3)] == G(3, 3) and not s.shadow_ctl


def test_shadow_may_not_enter_home_fortress_or_own_galaxy() -> None:
    g = game(4)
    s = board(g)
    put(s, shadow(3), G(1, 1), ships=1)
    put(s, warrior(RED), G(0, 1), ships=1)
    put(s, shadow(4), G(3, 2), ships=1)
    s = pending(g, s, MoveShadow(0))
    moves = [t for t in texts(g, s) if t.startswith("move Shadow")]
    assert "move Shadow 3 n" not in moves and "move Shadow 3 w" in moves
    assert "move Shadow 4 n" not in moves and "move Shadow 4 s" not in moves  # fortress, yellow home
    assert G(2, 2) == FORTRESS


def test_pass_the_power_stone_to_a_character_in_the_same_galaxy() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, master(RED), G(1, 2), ships=1)
    s.stone = warrior(RED)
    s = pending(g, s, Move(0))
    s = do(g, s, "pass stone to Red Master")
    assert s.stone == master(RED) and settled(s) is False


def test_a_shadow_meeting_another_shadow_may_rearrange_their_ships() -> None:
    g = game(2, modified=True)
    s = board(g)
    put(s, shadow(3), G(3, 3), ships=4)
    put(s, shadow(4), G(3, 4), ships=1)
    s = pending(g, s, MoveShadow(0))
    s = do(g, s, "move Shadow 3 e")
    assert isinstance(top(s), ShiftFrom)
    s = do(g, s, "shift ship from Shadow 3")
    s = do(g, s, "shift ship to Shadow 4")
    s = do(g, s, "stop shifting")
    assert s.ships[shadow(3)] == 3 and s.ships[shadow(4)] == 2 and settled(s)
