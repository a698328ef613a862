"""Game end: Master of the Universe, surrender, the Shadowlord's win, the turn cap, summary."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import place
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import REMOVED, State
from shadowtable.games.shadowlord.tasks import EndTurn, Fight, StartTurn, Surrender

from .helpers import (
    BLUE,
    LORD,
    RED,
    YELLOW,
    G,
    board,
    do,
    draw,
    game,
    heard,
    master,
    pending,
    put,
    shadow,
    top,
    warrior,
)

C4 = G(1, 2)


def banish_shadows(s: State) -> None:
    for f in range(LORD, LORD + 9):
        s.boxed[4] += s.ships[f]
        s.ships[f] = 0
        s.status[f] = REMOVED
        place(s, f, -1)
    s.boxed[4] += s.supply[4]
    s.supply[4] = 0
    s.timer = -1


def capture_blue_master(g: ShadowlordGame, s: State) -> State:
    put(s, warrior(RED), C4, ships=3)
    put(s, master(YELLOW), C4, ships=0)
    s = pending(g, s, Fight())
    s = do(g, s, "fight")
    s = do(g, s, "attack with Red Warrior")
    s = do(g, s, "defend with Yellow Master")
    s = draw(g, s, 10)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    return do(g, s, "commit no more cards")


def test_master_of_the_universe_when_the_shadowlord_and_other_masters_are_defeated() -> None:
    g = game(2, modified=True)
    s = board(g)
    banish_shadows(s)
    s.stone = master(RED)
    s = capture_blue_master(g, s)
    assert s.end == "master_of_universe" and s.winner == 0 and g.returns(s) == [1.0, 0.0]
    assert "Master of the Universe" in g.observe(s, None)["outcome"]
    assert g.summary(s)["end_reason"] == "master_of_universe" and g.summary(s)["winner"] == 0


def test_last_player_must_still_defeat_the_shadowlord() -> None:
    g = game(2, modified=True)
    s = capture_blue_master(g, board(g))
    assert not s.end and s.seat_out[1] and not s.alive[YELLOW]


def test_other_players_may_surrender_to_the_power_stone_owner() -> None:
    g = game(3)
    s = board(g, cur=BLUE)
    banish_shadows(s)
    s.stone = master(RED)
    s = pending(g, s, StartTurn())
    assert top(s) == Surrender(1)
    s = do(g, s, "surrender")
    assert s.seat_out[1] and not s.end
    s = board(g, cur=YELLOW)
    banish_shadows(s)
    s.stone = master(RED)
    s.seat_out[1] = 1
    s.alive[BLUE] = 0
    for f in (master(BLUE), warrior(BLUE), 9):
        s.status[f] = REMOVED
    s = pending(g, s, StartTurn())
    s = do(g, s, "surrender")
    assert s.end == "surrender" and s.winner == 0 and g.returns(s) == [1.0, 0.0, 0.0]


def test_a_surrender_ending_is_announced_as_a_surrender() -> None:
    """Rulebook: "The other players can also surrender to the Power Stone owner after it's been
    taken from the Shadowlord."  When the last other player surrenders, the game ends as a
    surrender, and its end event says so - not that every Star Master was defeated."""
    g = game(3)
    s = board(g, cur=YELLOW)
    banish_shadows(s)
    s.stone = master(RED)
    s.seat_out[1] = 1
    s.alive[BLUE] = 0
    for f in (master(BLUE), warrior(BLUE), 9):
        s.status[f] = REMOVED
    s = pending(g, s, StartTurn())
    s = do(g, s, "surrender")
    ends = heard(kind="end")
    assert s.end == "surrender" and len(ends) == 1
    assert ends[0]["data"]["end"] == "surrender" and ends[0]["data"]["winner"] == 0
    assert "surrendered" in ends[0]["text"] and "defeated" not in ends[0]["text"]
    results = g.words.results(s, heard())
    assert results[2].result == "lost" and results[2].why.startswith("surrendered")  # not "eliminated"
    assert "Master of the Universe" in results[2].why and "before the end" not in results[2].why
    assert results[1].why.startswith("eliminated; ")  # out before, with no leave event told


def test_no_surrender_while_the_shadowlord_holds_the_stone() -> None:
    g = game(4)
    s = pending(g, board(g, cur=BLUE), StartTurn())
    assert not isinstance(top(s), Surrender)


def test_shadowlord_wins_when_every_alliance_is_defeated() -> None:
    g = game(2, modified=True)
    s = board(g)
    s.alive[YELLOW] = 0
    s.seat_out[1] = 1
    put(s, master(RED), C4, ships=0)
    put(s, shadow(8), C4, ships=3)
    s = pending(g, s, Fight())
    s = do(g, s, "attack with Red Master")
    s = do(g, s, "defend with Shadow 8")
    s = draw(g, s, 0)
    s = draw(g, s, 0)
    s = do(g, s, "commit no more cards")
    assert s.end == "shadowlord_wins" and g.returns(s) == [0.0, 0.0]


def test_turn_cap_truncates_with_zero_returns() -> None:
    g = game(4, turn_cap=3)
    s = board(g)
    s.turn = 3
    s = pending(g, s, StartTurn())
    assert s.end == "truncated" and g.returns(s) == [0.0] * 4
    summary = g.summary(s)
    assert summary["truncated"] and summary["end_reason"] == "truncated" and len(summary["seats"]) == 4


def test_turn_passes_to_the_left_skipping_defeated_alliances() -> None:
    g = game(4)
    s = board(g, cur=RED)
    s.alive[BLUE] = 0
    s.stack = [EndTurn()]
    g.kernel.advance(g.ctx, s)
    assert s.cur == YELLOW and s.turn == 1


def test_random_games_end_within_the_declared_length() -> None:
    from shadowtable.bots.random_bot import RandomBot
    from shadowtable.core import play_game

    for players, opts in ((2, {}), (2, {"modified": True}), (3, {}), (4, {})):
        g = game(players, **opts)
        record = play_game(g, [RandomBot() for _ in range(players)], seed=11)
        assert not record.truncated and record.metadata["end_reason"] in (
            "master_of_universe",
            "surrender",
            "shadowlord_timer",
            "shadowlord_wins",
            "truncated",
        )
        assert len(record.actions) < g.spec.max_game_length
