"""Setup, Step 1 (draw, Ruins, the Power Stone Timer), cards under portraits, Step 3 (building)."""

from __future__ import annotations

from shadowtable.core import CHANCE
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import (
    AnswerOffer,
    Build,
    DrawToHand,
    EndTurn,
    FinishDraws,
    Move,
    PlacePortraitCards,
    PlaceStartingShip,
    QueueTurnSteps,
    RollFirstPlayer,
    ShiftFrom,
    StartBuild,
    StartTurn,
    Vote,
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
    chance,
    diplomat,
    do,
    draw,
    game,
    give_hand,
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


def test_setup_places_three_rings_home_and_shadows_in_fortress() -> None:
    g = game(4)
    s = g.initial_state()
    homes = {RED: G(0, 2), BLUE: G(2, 4), YELLOW: G(4, 2), GREEN: G(2, 0)}
    for c, h in homes.items():
        assert [s.loc[f] for f in (master(c), warrior(c), diplomat(c))] == [h, h, h]
    assert all(s.loc[f] == FORTRESS for f in range(LORD, LORD + 9))
    assert s.stone == LORD and s.ships[LORD] == 5 and s.ships[shadow(1)] == 0
    assert sum(s.disc) == 20 and s.disc[FORTRESS] == 0 and all(s.disc[h] == 0 for h in homes.values())
    assert sum(s.deck) == 50 and s.timer == 6
    assert g.current_player(s) == CHANCE and top(s) == RollFirstPlayer()


def test_first_player_roll_then_each_player_places_three_ships() -> None:
    g = game(4)
    s = chance(g, g.initial_state(), 2)  # seat 2 (yellow) plays first
    assert s.cur == YELLOW and top(s) == PlaceStartingShip(2, YELLOW)
    for _ in range(3):
        s = do(g, s, "ship to Yellow Warrior")
    assert s.ships[warrior(YELLOW)] == 3 and top(s) == PlaceStartingShip(3, GREEN)
    assert no_conservation_errors(g, s)


def test_three_player_game_removes_one_alliance() -> None:
    g = game(3)
    s = g.initial_state()
    assert s.alive == [1, 1, 1, 0]
    assert all(s.status[f] == 3 for f in (master(GREEN), warrior(GREEN), diplomat(GREEN)))
    assert sum(s.disc) == 20


def test_first_round_moves_only_to_the_galaxy_left_of_home() -> None:
    g = game(4)
    s = board(g)
    s.first_round_turns = 4
    put(s, warrior(RED), G(0, 2), ships=3)
    s = pending(g, s, Move(0))
    moves = [t for t in texts(g, s) if t.startswith("move")]
    assert moves == ["move Red Warrior e"]  # (0,3) = d5, left of the red Home Planet
    s = do(g, s, "move Red Warrior e")
    assert s.loc[warrior(RED)] == G(0, 3) and not [t for t in texts(g, s) if t.startswith("move")]


def test_three_player_first_round_side_and_middle_players() -> None:
    g = game(3)
    s = board(g)
    s.first_round_turns = 3
    put(s, warrior(RED), G(0, 2), ships=2)
    s = pending(g, s, Move(0))
    assert [t for t in texts(g, s) if t.startswith("move")] == ["move Red Warrior w"]  # toward empty home
    s = board(g, cur=BLUE)
    s.first_round_turns = 3
    put(s, warrior(BLUE), G(2, 4), ships=2)
    s = pending(g, s, Move(1))
    assert sorted(t for t in texts(g, s) if t.startswith("move")) == [
        "move Blue Warrior n",
        "move Blue Warrior s",
        "move Blue Warrior w",
    ]


def test_modified_two_player_game_has_red_and_yellow_only() -> None:
    g = game(2, modified=True)
    s = g.initial_state()
    assert s.alive == [1, 0, 1, 0]
    assert g.ctx.seat_alliances == [[RED], [YELLOW]]
    assert sum(s.disc) == 20


def test_two_player_game_gives_each_player_two_alliances() -> None:
    g = game(2)
    assert g.ctx.seat_alliances == [[RED, YELLOW], [BLUE, GREEN]]


def test_draw_one_card_plus_one_per_controlled_ruins() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 1), ships=1)
    put(s, master(RED), G(1, 3), ships=1)
    s = pending(g, s, QueueTurnSteps())
    draws = [t for t in s.stack if isinstance(t, DrawToHand)]
    assert len(draws) == 3


def test_reshuffle_moves_the_power_stone_timer() -> None:
    g = game(4)
    s = board(g)
    s.discard = s.deck[:]
    s.deck = [0] * 5
    s = pending(g, s, DrawToHand(0))
    assert s.timer == 5 and sum(s.deck) == 50 and sum(s.discard) == 0
    s = draw(g, s, 7)
    assert hand(s, 0)[3] == 1 and settled(s)


def test_timer_on_the_starburst_at_turn_start_means_the_shadowlord_wins() -> None:
    g = game(4)
    s = board(g)
    s.timer = 0
    s = pending(g, s, StartTurn())
    assert s.end == "shadowlord_timer" and g.returns(s) == [0.0] * 4
    assert "Starburst" in g.observe(s, 0)["outcome"]


def test_timer_every_turn_option_moves_one_notch_per_turn() -> None:
    g = game(4, timer_mode="every_turn")
    s = board(g)
    s.timer = 10
    s = pending(g, s, FinishDraws())
    assert s.timer == 9
    g2 = game(4)
    s2 = pending(g2, board(g2), FinishDraws())
    assert s2.timer == 6


def test_place_card_under_a_portrait_during_own_turn() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 7, 4)
    s = pending(g, s, Build(0))
    s = do(g, s, "place card 7 under Red Warrior")
    assert hand(s, 0) == [0, 0, 1, 0, 0] and s.pcards[warrior(RED) * 5 + 3] == 1
    assert "place card 4 under Red Diplomat" in texts(g, s)  # pointless (Diplomats never fight) but allowed
    assert "place card 4 under Blue Warrior" not in texts(g, s)


def play_to_the_fight(g: ShadowlordGame, s: State, step_one: int, discard: bool = False) -> State:
    """Run Red's turn from Step 1 (drawing ``step_one``; no Special Event) to Step 6."""
    s = pending(g, s, QueueTurnSteps())
    s = draw(g, s, step_one)
    s = chance(g, s, 7)  # 2d8 = 7: no Special Event
    if discard:
        s = do(g, s, f"discard card {step_one} for {step_one} Space Ships")
    s = do(g, s, "end building")
    s = do(g, s, "end movement")
    return do(g, s, "no shadow move")


def test_cards_can_go_under_portraits_after_the_last_battle_before_the_turn_passes() -> None:
    """Rulebook: "Anytime during your turn, you can place cards from your Attack Hand under a
    character portrait."

    A Duel reward drawn in the last Battle can still be set aside for defence: after the last
    Battle the current player is offered the placements, ending with 'end turn'."""
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=3)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    s = play_to_the_fight(g, s, step_one=4)
    s = do(g, s, "fight")
    while isinstance(top(s), ShiftFrom):
        s = do(g, s, "stop shifting")
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Blue Warrior")
    s = draw(g, s, 7)  # attacker
    s = draw(g, s, 0)  # defender
    s = do(g, s, "commit no more cards")
    s = do(g, s, "commit no more cards")
    s = draw(g, s, 10)  # the Duel reward
    assert s.cur == RED and hand(s, 0) == [0, 0, 1, 0, 1]
    assert top(s) == PlacePortraitCards(0)
    options = texts(g, s)
    assert "end turn" in options and "place card 10 under Red Master" in options
    assert not any(t.startswith("bribe") for t in options)  # a Battle was fought this turn
    s = do(g, s, "place card 10 under Red Master")
    assert s.pcards[master(RED) * 5 + 4] == 1 and top(s) == PlacePortraitCards(0)
    s = do(g, s, "end turn")
    assert s.cur == BLUE and hand(s, 0) == [0, 0, 1, 0, 0] and no_conservation_errors(g, s)


def test_no_placement_offer_after_the_fight_with_nothing_left_to_do() -> None:
    """The decision after the fight is skipped when the Attack Hand is empty and no offer is
    left this turn (and vanishes once the last card is placed)."""
    g = game(4, max_offers_per_turn=0)
    s = board(g)
    s = play_to_the_fight(g, s, step_one=4, discard=True)
    assert hand(s, 0) == [0] * 5 and s.cur == BLUE
    s = board(g)
    give_hand(s, 0, 7)
    s = pending(g, s, EndTurn(), PlacePortraitCards(0))
    s = do(g, s, "place card 7 under Red Warrior")
    assert s.cur == BLUE and s.pcards[warrior(RED) * 5 + 3] == 1


def test_bribery_and_offers_after_the_fight_in_a_turn_without_a_battle() -> None:
    """Rulebook: "Once anytime during your turn you can try Bribing an enemy character" and
    "Trading and negotiations can occur at any time"; only "Once the first Battle starts ...
    characters cannot be Bribed".

    In a turn with no Battle, after Step 6 the current player may still Bribe and make an
    offer, even with nothing to place under a portrait; after a Battle he may make an offer
    but not Bribe."""
    g = game(4)
    s = board(g)
    put(s, warrior(BLUE), G(1, 3), ships=1)
    give_hand(s, 0, 4, 4, 4)
    s = play_to_the_fight(g, s, step_one=4, discard=False)
    assert s.cur == RED and top(s) == PlacePortraitCards(0)
    options = texts(g, s)
    assert "bribe Blue Warrior with four 4s" in options and "make offer to seat 1" in options
    s = do(g, s, "bribe Blue Warrior with four 4s")
    assert s.bribed and hand(s, 0) == [0] * 5
    s = chance(g, s, 8)  # the briber rolls 8
    s = chance(g, s, 1)  # the owner rolls 1
    assert s.owner[warrior(BLUE)] == RED and top(s) == PlacePortraitCards(0)
    s = do(g, s, "make offer to seat 1")
    s = do(g, s, "offer to want card 7")
    s = do(g, s, "send offer")
    assert isinstance(top(s), AnswerOffer) and top(s).seat == 1
    s = do(g, s, "refuse offer")
    # Nothing is left to do (no card, the Bribery and the turn's one offer used): the turn passes.
    assert s.cur == BLUE and no_conservation_errors(g, s)


def test_no_cards_under_portraits_during_another_players_turn() -> None:
    g = game(4)
    s = board(g, cur=BLUE)
    give_hand(s, 0, 7)
    s = pending(g, s, Vote(0))
    assert not any(t.startswith("place card") for t in texts(g, s))


def test_build_three_ships_per_merchant_and_space_base() -> None:
    g = game(4)
    s = board(g)
    put(s, 16, G(0, 0), owner=RED)  # a Merchant on a Space Base
    s = pending(g, s, StartBuild())
    assert s.pool == 6 and top(s) == Build(0)
    s = do(g, s, "ship to Merchant M1")
    s = do(g, s, "loose ship in a5")
    assert s.ships[16] == 1 and s.loose_n[G(0, 0)] == 1 and s.pool == 4
    s = do(g, s, "end building")
    assert s.pool == 0 and settled(s) and no_conservation_errors(g, s)


def test_discard_cards_for_ships_even_without_room() -> None:
    g = game(4)
    s = board(g)
    give_hand(s, 0, 4)
    s.supply[RED] = 0
    s = pending(g, s, Build(0))
    s = do(g, s, "discard card 4 for 4 Space Ships")
    assert s.pool == 4 and hand(s, 0) == [0] * 5 and s.discard[2] == 1
    assert texts(g, s)[0] == "end building" and not any(t.startswith("ship to") for t in texts(g, s))


def test_only_one_colour_of_loose_ships_in_a_galaxy() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 2), ships=1)
    put(s, warrior(BLUE), G(1, 2), ships=1)
    loose(s, G(1, 2), BLUE, 1)
    s.pool = 3
    s = pending(g, s, Build(0))
    assert "loose ship in c4" not in texts(g, s)


def test_ring_holds_six_including_the_power_stone() -> None:
    g = game(4)
    s = board(g)
    put(s, master(RED), G(0, 2), ships=5)
    s.stone = master(RED)
    s.pool = 3
    s = pending(g, s, Build(0))
    assert "ship to Red Master" not in texts(g, s)


def test_rules_help_quotes_the_rulebook_for_the_pending_decision() -> None:
    from shadowtable.bots import RandomBot
    from shadowtable.core import make
    from shadowtable.core.runner import Session

    game = make("shadowlord", players=3)
    session = Session(game, [RandomBot()] * 3, seed=3)
    seen: dict[str, str] = {}
    while not session.is_over() and len(session.actions) < 400:
        if session.current_player >= 0:
            observation = game.observe(session.state, session.current_player)
            seen[observation["pending"]["kind"]] = game.words.rules_help(observation)
        session.step()
    assert "Step 4 - Movement" in seen["move"] and "Characters can move a number of galaxy" in seen["move"]
    assert "Place Under a Character Portrait" in seen["move"]
    assert "Step 3 - Building Space Ships" in seen["build"]
    assert all(text for text in seen.values()), [k for k, v in seen.items() if not v]
