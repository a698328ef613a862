"""The 2-player games, galaxy control, the attacker's order of Battles, and a few more clauses."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import control
from shadowtable.games.shadowlord.state import REMOVED
from shadowtable.games.shadowlord.tasks import (
    Build,
    CallOwnCharacter,
    ChooseNextBattle,
    EndTurn,
    Fight,
    Move,
    PlaceAttacker,
    SendAlly,
)

from .helpers import (
    BLUE,
    FORTRESS,
    GREEN,
    RED,
    YELLOW,
    G,
    board,
    diplomat,
    do,
    game,
    give_hand,
    loose,
    master,
    pending,
    put,
    texts,
    top,
    warrior,
)


def test_home_planet_is_controlled_by_its_owner_unless_an_enemy_is_there() -> None:
    g = game(4)
    s = board(g)
    for f in (master(RED), warrior(RED), diplomat(RED)):
        put(s, f, G(1, 2))
    assert control(g.ctx, s, G(0, 2)) == RED
    put(s, warrior(BLUE), G(0, 2), ships=1)
    assert control(g.ctx, s, G(0, 2)) == BLUE
    g3 = game(3)
    s3 = board(g3)
    loose(s3, G(2, 0), RED, 1)
    assert control(g3.ctx, s3, G(2, 0)) == RED  # loose ships on the unused Home Planet


def test_with_several_ring_colours_the_loose_ships_decide_control() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    assert control(g.ctx, s, G(1, 2)) == -1
    loose(s, G(1, 2), BLUE, 2)
    assert control(g.ctx, s, G(1, 2)) == BLUE


def test_diplomat_passes_an_enemy_galaxy_with_permission() -> None:
    g = game(4)
    s = board(g)
    put(s, diplomat(RED), G(0, 3), ships=3)
    put(s, warrior(BLUE), G(0, 4), ships=1)
    s.perm[BLUE] = 1 << RED
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Diplomat e")
    assert "move Red Diplomat s" in texts(g, s)


def test_the_attacker_chooses_the_order_of_battles() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(YELLOW), G(1, 2), ships=1)
    put(s, master(RED), G(3, 3), ships=1)
    put(s, warrior(GREEN), G(3, 3), ships=1)
    s = pending(g, s, Fight())
    s = do(g, s, "fight")
    s = do(g, s, "fight")
    assert top(s) == ChooseNextBattle(0)
    s = do(g, s, "fight in d2")
    assert isinstance(top(s), PlaceAttacker) and [t for t in texts(g, s) if t.startswith("attack")] == [
        "attack with Red Master"
    ]


def test_no_loose_ships_in_the_lost_fortress_while_the_shadowlord_lives() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), FORTRESS, ships=2)
    s = pending(g, s, Move(0))
    assert "drop ship from Red Warrior" not in texts(g, s)


def test_two_player_turns_alternate_between_the_players() -> None:
    g = game(2)
    s = board(g, cur=RED)
    order = []
    for _ in range(4):
        s.stack = [EndTurn()]
        g.kernel.advance(g.ctx, s)
        order.append((s.cur, g.ctx.seat_of(s.cur)))
    assert order == [(BLUE, 1), (YELLOW, 0), (GREEN, 1), (RED, 0)]


def test_two_player_one_attack_hand_serves_both_alliances() -> None:
    g = game(2)
    s = board(g, cur=YELLOW)
    give_hand(s, 0, 7)
    s = pending(g, s, Build(0))
    assert "place card 7 under Red Warrior" in texts(g, s) and "place card 7 under Yellow Warrior" in texts(g, s)


def test_two_player_own_alliances_never_fight_and_always_pass() -> None:
    g = game(2)
    s = board(g, cur=RED)
    put(s, warrior(RED), G(1, 2), ships=3)
    put(s, warrior(YELLOW), G(1, 3), ships=1)
    s = pending(g, s, Move(0))
    s = do(g, s, "move Red Warrior e")
    assert "move Red Warrior e" in texts(g, s)  # yellow's galaxy does not stop red
    s = pending(g, s, Fight())
    assert s.battle is None


def test_two_player_defender_brings_one_from_each_alliance_attacker_from_the_other() -> None:
    g = game(2)
    s = board(g, cur=RED)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    put(s, master(BLUE), G(1, 3), ships=1)
    put(s, warrior(GREEN), G(1, 1), ships=1)
    put(s, warrior(YELLOW), G(0, 1), ships=2)
    s = pending(g, s, Fight())
    s = do(g, s, "fight")
    assert top(s) == CallOwnCharacter(1, 0, BLUE)
    s = do(g, s, "call in Blue Master")
    assert top(s) == SendAlly(0, 0, YELLOW) and "send to attacker Yellow Warrior" in texts(g, s)
    assert "send to defender Yellow Warrior" not in texts(g, s)
    s = do(g, s, "send to attacker Yellow Warrior")
    assert top(s) == SendAlly(1, 0, GREEN) and "send to attacker Green Warrior" not in texts(g, s)


def test_modified_two_player_removes_the_other_pair_and_their_characters() -> None:
    g = game(2, modified=True)
    s = g.initial_state()
    removed = [master(BLUE), warrior(BLUE), diplomat(BLUE), master(GREEN), warrior(GREEN), diplomat(GREEN)]
    assert all(s.status[f] == REMOVED for f in removed)
    assert sum(s.bag) == 20
