"""Step 2, Special Events: the table, skipping, and every result."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import place
from shadowtable.games.shadowlord.content import EVENTS
from shadowtable.games.shadowlord.tasks import (
    ChooseEventTarget,
    DiscardStormShip,
    Draw,
    DrawToHand,
    Move,
    RollEvent,
    Vote,
)

from .helpers import (
    BLUE,
    RED,
    YELLOW,
    G,
    board,
    chance,
    diplomat,
    do,
    game,
    give_hand,
    hand,
    heard_text,
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


def test_event_table_is_data_with_the_rulebook_pairs() -> None:
    g = game(4)
    names = {t: EVENTS[g.ctx.content.events[t]] for t in range(2, 17)}
    assert names[2] == names[16] == "defect"
    assert names[3] == names[15] == "escape"
    assert names[4] == names[14] == "spacestorm"
    assert names[5] == names[13] == "discover"
    assert names[6] == names[12] == "steal"
    assert names[9] == "draw2" and {names[t] for t in (7, 8, 10, 11)} == {"none"}


def test_draw_two_cards_is_mandatory() -> None:
    g = game(4)
    s = pending(g, board(g), RollEvent())
    s = chance(g, s, 9)
    assert [t for t in s.stack if isinstance(t, Draw)] == [DrawToHand(0)] * 2
    assert not any(isinstance(t, ChooseEventTarget) for t in s.stack)


def test_any_other_event_can_be_skipped() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=2)
    s = pending(g, s, RollEvent())
    s = chance(g, s, 2)
    assert top(s) == ChooseEventTarget(0, EVENTS.index("defect"))
    s = do(g, s, "skip event")
    assert settled(s) and s.owner[warrior(BLUE)] == BLUE


def test_defect_in_a_four_player_game_needs_one_yes_vote() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=2)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("defect")))
    s = do(g, s, "target Blue Warrior")
    assert top(s) == Vote(1)
    s = do(g, s, "vote no")
    s = do(g, s, "vote yes")
    s = do(g, s, "vote no")
    assert s.owner[warrior(BLUE)] == RED and s.ships[warrior(BLUE)] == 2
    assert no_conservation_errors(g, s)


def test_defect_fails_when_every_other_player_votes_no() -> None:
    g = game(3)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=2)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("defect")))
    s = do(g, s, "target Blue Warrior")
    s = do(g, s, "vote no")
    s = do(g, s, "vote no")
    assert s.owner[warrior(BLUE)] == BLUE and settled(s)


def test_defect_in_a_two_player_game_needs_no_vote() -> None:
    g = game(2, modified=True)
    s = board(g)
    put(s, warrior(YELLOW), G(3, 3), ships=1)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("defect")))
    s = do(g, s, "target Yellow Warrior")
    assert s.owner[warrior(YELLOW)] == RED and settled(s)


def test_defector_among_only_enemy_diplomats_makes_them_retreat() -> None:
    """Rulebook (Bribery, which Defect follows): "If there are only enemy Diplomats in the galaxy
    with the traitor, the enemy Diplomats immediately retreat/teleport to the nearest friendly
    galaxy."

    The Defect event comes in the current player's Step 2: the Diplomats retreat, the
    defector is not forced to move away."""
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=2)
    put(s, diplomat(BLUE), G(1, 4))
    put(s, diplomat(YELLOW), G(1, 4))
    s = pending(g, s, Move(0), ChooseEventTarget(0, EVENTS.index("defect")))
    s = do(g, s, "target Blue Warrior")
    s = do(g, s, "vote yes")
    s = do(g, s, "vote no")
    s = do(g, s, "vote no")
    assert s.owner[warrior(BLUE)] == RED and s.loc[warrior(BLUE)] == G(1, 4)
    assert s.loc[diplomat(BLUE)] != G(1, 4) and s.loc[diplomat(YELLOW)] != G(1, 4)
    assert top(s) == Move(0) and "end movement" in texts(g, s)
    assert no_conservation_errors(g, s)


def test_characters_on_a_home_planet_cannot_defect() -> None:
    g = game(4)
    s = board(g)
    put(s, master(RED), G(1, 3), ships=1)
    put(s, diplomat(BLUE), G(2, 4))
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("defect")))
    assert "target Blue Diplomat" not in texts(g, s)
    put(s, diplomat(BLUE), G(1, 4))
    assert "target Blue Diplomat" in texts(g, s) and "target Blue Master" not in texts(g, s)


def test_escape_frees_a_captive_to_the_masters_galaxy_without_ships() -> None:
    g = game(4)
    s = board(g)
    put(s, master(RED), G(1, 2), ships=2)
    put(s, warrior(BLUE), G(3, 3), ships=3)
    s.status[warrior(RED)] = 2
    s.captor[warrior(RED)] = warrior(BLUE)
    s.supply[RED] += s.ships[warrior(RED)]
    s.ships[warrior(RED)] = 0
    place(s, warrior(RED), -1)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("escape")))
    s = do(g, s, "target Red Warrior")
    assert s.status[warrior(RED)] == 1 and s.loc[warrior(RED)] == G(1, 2) and s.ships[warrior(RED)] == 0
    assert no_conservation_errors(g, s)


def test_spacestorm_target_loses_d8_ships_of_his_choice() -> None:
    g = game(2, modified=True)
    s = board(g)
    put(s, warrior(YELLOW), G(3, 3), ships=2)
    loose(s, G(3, 3), YELLOW, 3)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("spacestorm")))
    s = do(g, s, "target seat 1")
    s = chance(g, s, 4)
    assert top(s) == DiscardStormShip(1, 4)
    s = do(g, s, "lose ship of Yellow Warrior")
    for _ in range(3):
        s = do(g, s, "lose loose ship in d2")
    assert s.ships[warrior(YELLOW)] == 1 and s.loose_n[G(3, 3)] == 0 and settled(s)
    assert no_conservation_errors(g, s)


def test_spacestorm_loses_at_most_what_the_target_has() -> None:
    g = game(2, modified=True)
    s = board(g)
    put(s, warrior(YELLOW), G(3, 3), ships=1)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("spacestorm")))
    s = do(g, s, "target seat 1")
    s = chance(g, s, 8)
    assert top(s) == DiscardStormShip(1, 1)


def test_discover_turns_over_a_disc_and_the_character_may_move_this_turn() -> None:
    g = game(4)
    s = board(g)
    s.disc[G(1, 0)] = 1
    s.bag[1] = 1  # one Merchant disc
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("discover")))
    s = do(g, s, "discover in a4")
    s = chance(g, s, 1)
    s = do(g, s, "enlist")
    m = 16
    assert s.owner[m] == RED and s.loc[m] == G(1, 0) and s.ships[m] == 0
    s.ships[m] = 1
    s.supply[RED] -= 1
    s = pending(g, s, Move(0))
    assert any(t.startswith("move Merchant M1") for t in texts(g, s))


def test_steal_two_random_cards_from_an_attack_hand() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 2, 7, 10, 0)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("steal")))
    s = do(g, s, "target seat 2")
    for _ in range(3):
        s = do(g, s, "vote yes")
    s = chance(g, s, 4)
    s = chance(g, s, 3)
    assert hand(s, 0) == [0, 0, 0, 1, 1] and hand(s, 2) == [1, 0, 0, 0, 0] and settled(s)
    assert "steals a Power Card from seat 2" in heard_text(None) and "10" not in heard_text(None)


def test_spacestorm_in_a_four_player_game_goes_to_a_vote() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 4), ships=3)
    s = pending(g, s, ChooseEventTarget(0, EVENTS.index("spacestorm")))
    s = do(g, s, "target seat 1")
    assert top(s) == Vote(1)
    for _ in range(3):
        s = do(g, s, "vote no")
    assert settled(s) and s.ships[warrior(BLUE)] == 3
