"""A bot deciding outside the table (a server's worker) is asked the table's turn, and its choice is
planned by the table: the same steps as the table stepping that bot itself."""

from __future__ import annotations

import pytest

from shadowtable.bots import RandomBot
from shadowtable.core import BotError, make
from shadowtable.core.table import Table, bot_rng


def _stepping(seed: int) -> Table:
    game = make("tiny-showdown", players=3)
    return Table(game, [RandomBot() for _ in range(game.players)], seed)


def test_a_bot_asked_the_turn_elsewhere_plays_the_game_the_table_would_have_played() -> None:
    seed = 11
    inside, outside = _stepping(seed), _stepping(seed)
    inside.tell()
    outside.tell()
    inside.resolve_chance()
    outside.commit(outside.plan(None, None))
    bot = RandomBot()
    while not inside.is_over():
        inside.step()
        inside.resolve_chance()
        turn = outside.turn()
        action = bot.choose(outside.game, turn.seat, turn.observation, turn.legal, bot_rng(seed, turn.seat, turn.step))
        outside.commit(outside.plan_turn(turn, action))
    assert outside.is_over()
    assert list(outside.rows) == list(inside.rows)
    assert outside.channels[0].log == inside.channels[0].log


def test_a_turn_is_what_the_seat_to_act_observes_and_may_do() -> None:
    table = _stepping(3)
    table.resolve_chance()
    turn = table.turn()
    assert turn.seat == table.current_player
    assert turn.step == len(table.actions)
    assert turn.observation == table.game.observe(table.state, turn.seat)
    assert turn.legal == table.game.legal_actions(table.state)


def test_a_stale_turn_or_an_illegal_choice_is_refused_and_changes_nothing() -> None:
    table = _stepping(5)
    table.resolve_chance()
    turn = table.turn()
    illegal = max(turn.legal) + 1
    with pytest.raises(BotError, match="chose illegal action"):
        table.plan_turn(turn, illegal)
    table.step()
    rows = list(table.rows)
    with pytest.raises(BotError, match="moved on"):
        table.plan_turn(turn, turn.legal[0])
    assert list(table.rows) == rows


def test_no_turn_while_chance_acts_next() -> None:
    table = _stepping(7)
    assert table.current_player < 0  # tiny-showdown starts with the deal
    with pytest.raises(BotError, match="no seat decides now"):
        table.turn()
