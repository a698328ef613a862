"""Undo through the core table: who may take back what, what an undo restores, and what it tells.

Random games of both titles are played by random bots on a table that tells every audience.  At
every step each seat's :meth:`Table.undoable` is checked against the rule worked out here from
the log alone (a chance step or another seat's decision since is a barrier, and a decision that
showed a reader anything it could not have known is one too); at sampled steps a seat takes back
its decisions and the table must equal one replayed from the log without them, and every reader's
new view must hold nothing a twin state it cannot tell apart would not give.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import RecordError, UndoError
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.table import CHANCE_SEAT, Table, encode, view_of
from shadowtable.core.undo import UNDO_SEAT, effective_rows, quiet, reveals, undo_event

CONFIGS = [("shadow-planet", 3), ("shadowlord", 2)]
SEEDS = [1, 2, 3]
FURTHER = pytest.mark.slow  # further seeds of the same checks: the long run's
STEPS = 160
"""Steps played per game (the start of a game holds every kind of decision and chance)."""


def _table(title: str, players: int, seed: int) -> Table:
    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], seed)
    table.tell()
    return table


def _expected_undoable(
    game: Game[Any], rows: list[tuple[int, int]], states: list[Any], seat: int, quiet_rows: dict[int, bool]
) -> int:
    """The rule, from the log alone (``states[k]``: the state before row ``k``, replayed here):
    ``seat``'s decisions at the end of the log, back to a chance step, another seat's decision or
    a decision that revealed something (``quiet_rows``: whether row ``k`` revealed nothing, worked
    out here once per row)."""
    if game.is_terminal(states[-1]):
        return 0
    count = 0
    for index in range(len(rows) - 1, -1, -1):
        who, action = rows[index]
        if who == CHANCE_SEAT or who != seat:
            break
        if index not in quiet_rows:
            quiet_rows[index] = quiet(game, states[index], who, action, index)
        if not quiet_rows[index]:
            break
        count += 1
    return count


def _replayed(game: Game[Any], rows: list[tuple[int, int]]) -> Table:
    fresh = Table(game)
    fresh.tell()
    fresh.replay_log(rows)
    return fresh


@pytest.mark.parametrize("seed", [SEEDS[0], pytest.param(SEEDS[1], marks=FURTHER)])
@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_may_undo_follows_the_rule_at_every_step(title: str, players: int, seed: int) -> None:
    table = _table(title, players, seed)
    allowed_somewhere = refused_own = 0
    states = [table.game.initial_state()]
    quiet_rows: dict[int, bool] = {}
    while not table.is_over() and len(table.actions) < STEPS:
        table.step()
        rows = list(table.rows)
        states.append(table.game.apply(states[-1], rows[-1][1]))
        for seat in range(players):
            answer = table.undoable(seat)
            # the cheap barrier part, stated on its own: only the seat that acted last, never past a chance step
            if answer:
                tail = rows[-answer:]
                assert all(who == seat for who, _ in tail), f"step {len(rows)}: seat {seat} may undo others' steps"
            if len(rows) % 5 == 0 or answer:
                assert answer == _expected_undoable(table.game, rows, states, seat, quiet_rows), (
                    f"step {len(rows)} seat {seat}"
                )
            allowed_somewhere += answer > 0
            refused_own += answer == 0 and rows[-1][0] == seat
    assert allowed_somewhere > 10, "no decision could ever be taken back: the check proves little"
    assert refused_own > 0, "every decision could be taken back: nothing was ever a barrier"


def _twin_check(table: Table, seat: int | None, since: int, key: str) -> bool:
    """Whether ``seat``'s view (the events after version ``since``) is the same built from a twin
    state it cannot tell from the true one."""
    game, state = table.game, table.state
    view = table.view(seat, since)
    events = [event.to_json() for event in view.events]
    twin = game.determinize(game.observe(state, seat), random.Random(key))

    def built(world: Any) -> str:
        return encode(view_of(game, world, seat, v=view.v, events=events, after=view.after, turn=view.turn).to_json())

    return built(state) == built(twin)


@pytest.mark.parametrize("seed", [*SEEDS[:2], pytest.param(SEEDS[2], marks=FURTHER)])
@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_an_undo_restores_the_replayed_state_and_reveals_nothing(title: str, players: int, seed: int) -> None:
    table = _table(title, players, seed)
    rng = random.Random(seed)
    undos = 0
    stored: list[tuple[int, int]] = []  # the log as a server stores it: every action and undo row
    while not table.is_over() and len(table.actions) < STEPS:
        table.step()
        stored.append(table.rows[-1])
        seat = table.rows[-1][0]
        allowed = table.undoable(seat) if seat >= 0 else 0
        if not allowed or undos >= 12 or rng.random() < 0.5:
            continue
        count = rng.randint(1, allowed)
        had = {audience: channel.v for audience, channel in table.channels.items()}
        stored.append((UNDO_SEAT, count))
        log = list(stored)
        logged = table.logged
        undone = table.undo(seat, count)
        undos += 1
        assert table.logged == logged + 1
        assert len(undone.actions) == count
        played, _undos = effective_rows(log)
        assert list(table.rows) == played
        fresh = Table(table.game)
        fresh.tell()
        fresh.commit([])
        for who, action in played:
            fresh.apply(action)
            assert fresh.seats[-1] == who
        game = table.game
        assert game.state_to_json(table.state) == game.state_to_json(fresh.state)
        for audience in table.audiences():
            assert table.view(audience).observation == fresh.view(audience).observation
            assert table.view(audience).choices == fresh.view(audience).choices
            # told once, in one new version, and nothing but the undo itself
            assert table.channels[audience].v == had[audience] + 1
            assert table.channels[audience].since(had[audience]) == [undo_event(undone)]
            assert _twin_check(table, audience, had[audience], f"{seed}/{len(log)}/{audience}")
        # the stored log, undo rows and all, replays to the same table and the same channels
        again = _replayed(game, log)
        assert game.state_to_json(again.state) == game.state_to_json(table.state)
        assert again.channels == table.channels
    assert undos > 3, "too few undos to prove anything"


def test_an_undo_not_allowed_is_refused_and_changes_nothing() -> None:
    table = _table("shadowlord", 2, 4)
    table.run(max_steps=1)
    while table.current_player < 0 or table.rows[-1][0] == table.current_player:
        table.step()
    seat = table.current_player
    other = table.rows[-1][0]
    before = (list(table.rows), encode(table.game.state_to_json(table.state)), table.channels[None].v)
    if other >= 0:
        assert table.undoable(seat) == 0
    for asked_seat, count in [(seat, 1), (seat, 0), (seat, True)]:
        with pytest.raises(UndoError):
            table.undo(asked_seat, count)
    assert (list(table.rows), encode(table.game.state_to_json(table.state)), table.channels[None].v) == before


def test_a_stored_undo_row_that_takes_back_too_much_does_not_replay() -> None:
    with pytest.raises(RecordError):
        effective_rows([(CHANCE_SEAT, 3), (0, 5), (UNDO_SEAT, 2)])
    game = make("shadowlord", players=2)
    table = Table(game)
    with pytest.raises(RecordError):
        table.replay_log([(UNDO_SEAT, 1)])


def test_a_record_shows_its_undos() -> None:
    table = _table("shadowlord", 2, 6)
    rng = random.Random(6)
    while not table.undos and len(table.actions) < STEPS:
        table.step()
        seat = table.rows[-1][0]
        if seat >= 0 and table.undoable(seat) and rng.random() < 0.5:
            table.undo(seat)
    assert table.undos, "no undo happened"
    record = table.record()
    assert record.metadata["undos"] == [undone.to_json() for undone in table.undos]
    assert record.actions == table.actions


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_answer_tells_the_undoing_seat_nothing_it_cannot_see(title: str, players: int) -> None:
    """A "yes" depends on the true world only through :func:`reveals`; a decision that revealed
    something in the true world must reveal something in every world the deciding seat cannot tell
    from it, so that "no" would have been the answer there too (the seat learns nothing)."""
    compared = revealing = 0
    for seed in (11, 12):
        compared, revealing = _compare_twins(_table(title, players, seed), compared, revealing)
    assert revealing >= 2 and compared == 3 * revealing


def _compare_twins(table: Table, compared: int, revealing: int) -> tuple[int, int]:
    game, title = table.game, table.game.spec.id
    while not table.is_over() and len(table.actions) < STEPS:
        seat, before = table.current_player, table.state
        table.step()
        if seat < 0:
            continue
        index, action = len(table.actions) - 1, table.actions[-1]
        after, events = game.apply_recorded(before, action)
        if not reveals(game, before, action, after, events, index):
            continue
        revealing += 1
        rng = random.Random(f"{title}/{index}")
        for _ in range(3):
            twin = game.determinize(game.observe(before, seat), rng)
            assert action in game.legal_actions(twin), f"step {index}: the seat's own action is not legal in its twin"
            twin_after, twin_events = game.apply_recorded(twin, action)
            compared += 1
            assert reveals(game, twin, action, twin_after, twin_events, index), f"step {index}"
    return compared, revealing
