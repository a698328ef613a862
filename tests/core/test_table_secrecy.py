"""Secrecy through the core table: every front end's seat view comes from one place.

Random games of both titles are played on a :class:`~shadowtable.core.table.Table`.  At sampled
steps, for every seat and a spectator, the table's view must hold that reader's observation and
nothing more: a view built from a twin state the reader cannot tell apart (``determinize`` of its
observation), with the same version, events and turn, must give the same bytes; legal choices go
only to the seat that decides; the events are exactly what :meth:`Game.told` tells that reader.
The terminal table and the server's message are then checked to be that same view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.table import SeatView, Table, encode, view_of
from shadowtable.server import live, views
from shadowtable.tui.table import Table as TerminalTable

CONFIGS = [("shadow-planet", 3), ("shadowlord", 2)]
EVERY = 6
"""Steps between two checked ones (and the last), to cover whole games in the time."""

ViewBuilder = Callable[[Game[Any], Any, "int | None", SeatView], dict[str, Any]]


def _rebuilt(game: Game[Any], state: Any, seat: int | None, view: SeatView) -> dict[str, Any]:
    """``view`` built again from ``state`` (the true one or a twin), as the table builds it."""
    events = [event.to_json() for event in view.events]
    return view_of(game, state, seat, v=view.v, events=events, after=view.after, turn=view.turn).to_json()


def _leaky(game: Game[Any], state: Any, seat: int | None, view: SeatView) -> dict[str, Any]:
    """A view that also carries the next seat's observation."""
    other = 0 if seat is None else (seat + 1) % game.players
    return {**_rebuilt(game, state, seat, view), "other": game.observe(state, other)}


def _played(
    title: str, players: int, seed: int, limit: int | None
) -> Iterator[tuple[int, Table, dict[int | None, int]]]:
    """A seeded game of random bots on a table that tells every audience (``limit``: only its
    first steps); yields ``(step, table, version each reader had before the step)`` at every
    ``EVERY``-th step and the last."""
    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], seed)
    table.tell()
    had = {audience: 0 for audience in table.audiences()}
    while not table.is_over() and (limit is None or len(table.actions) < limit):
        table.step()
        if len(table.actions) % EVERY == 0 or table.is_over():
            yield len(table.actions), table, dict(had)
            had = {audience: channel.v for audience, channel in table.channels.items()}


def _problems(
    title: str, players: int, seed: int, build: ViewBuilder = _rebuilt, limit: int | None = None
) -> tuple[list[str], int, int]:
    """What leaks at the sampled steps of one game, how many views were compared, and how many
    of the twins were really another state (so the comparison was not vacuous)."""
    problems: list[str] = []
    compared = other_states = 0
    for step, table, had in _played(title, players, seed, limit):
        game, state = table.game, table.state
        for seat in table.audiences():
            view = table.view(seat, had[seat])
            where = f"{title} seed {seed} step {step} seat {seat}"
            if view.observation != game.observe(state, seat):
                problems.append(f"{where}: the observation is not the reader's")
            if view.deciding != (seat is not None and game.current_player(state) == seat):
                problems.append(
                    f"{where}: legal choices sent to a seat that does not decide (or not to the one that does)"
                )
            told = table.channels[seat].since(had[seat])
            if [event.to_json() for event in view.events] != told:
                problems.append(f"{where}: the events are not the ones told to the reader")
            twin = game.determinize(game.observe(state, seat), random.Random(f"{seed}/{step}/{seat}"))
            compared += 1
            other_states += game.state_to_json(twin) != game.state_to_json(state)
            if encode(build(game, state, seat, view)) != encode(build(game, twin, seat, view)):
                problems.append(f"{where}: the view differs between states the reader cannot tell apart")
    return problems, compared, other_states


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_each_readers_view_holds_only_what_it_may_know(title: str, players: int) -> None:
    problems, compared, other_states = _problems(title, players, seed=3)
    assert problems == []
    assert compared > 20 * (players + 1)
    assert other_states > compared // 4, "twins were rarely another state: the check proves little"


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_check_catches_a_view_that_carries_another_seats_observation(title: str, players: int) -> None:
    problems, _compared, _other = _problems(title, players, seed=3, build=_leaky, limit=60)
    assert any("cannot tell apart" in problem for problem in problems)


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_terminal_table_and_the_server_show_the_core_view(title: str, players: int) -> None:
    """The terminal table reads its log from the core table's channels, and the server's live
    table is the core table and sends the core view's JSON."""
    game = make(title, players=players)
    core = Table(game, [make_bot("random") for _ in range(players)], 5)
    terminal = TerminalTable(core, humans=[])
    assert live.LiveTable is Table and isinstance(terminal.session, Table)
    terminal.run_automatic(limit=60)
    for seat in core.audiences():
        view = core.view(seat, 0)
        assert terminal.events(seat) == list(view.events) != []
        assert terminal.view(seat) == view
        sent = views.seat_view(game, core.state, seat, v=view.v, events=core.channels[seat].since(0), turn=view.turn)
        assert encode(sent) == encode(view.to_json())
    server = live.LiveTable.new(game)
    server.commit(live.replayed(game, core.rows))
    for seat in core.audiences():
        assert server.channels[seat] == core.channels[seat]
        assert server.view(seat, 2) == core.view(seat, 2)
