"""Finished tables' records and replays, built once and kept (the most recently asked for).

A finished game never changes, so its record and its replay index are worked out the first time
someone asks and kept for the next ones.  The index replays the game once, keeping the state every
:data:`CHECKPOINT_EVERY` steps and, per audience, the version it had reached at each step; a
replay page then costs at most that many steps from the nearest checkpoint, not the whole game.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.wording import NamedResult, SeatNames, SeatResult
from shadowtable.server.errors import Conflict
from shadowtable.server.live import Channel, LiveTable, replayed
from shadowtable.server.service import TableService
from shadowtable.server.views import seat_view

CHECKPOINT_EVERY = 32
"""Steps between two kept states: a replay page replays at most this many."""


@dataclass(frozen=True)
class ReplayIndex:
    """What a finished game's replay pages are built from."""

    every: int
    """Steps between two checkpoints."""
    checkpoints: list[Any]
    """The state after step ``k * every``, for each ``k``."""
    versions: dict[int | None, list[int]]
    """Per audience, the version its channel had reached after each step (``[0]`` at the start)."""
    channels: dict[int | None, Channel]
    """Per audience, the events of every version."""


def build_index(game: Game[Any], rows: list[tuple[int, int]], every: int = CHECKPOINT_EVERY) -> ReplayIndex:
    """Replay ``rows`` once, keeping what :func:`replay_message` needs for any step."""
    live = LiveTable.new(game)
    checkpoints = [live.state]
    versions: dict[int | None, list[int]] = {audience: [0] for audience in live.audiences()}
    for done, row in enumerate(rows, 1):
        live.commit(replayed(game, [row], live.state))
        for audience, reached in versions.items():
            reached.append(live.channels[audience].v)
        if done % every == 0:
            checkpoints.append(live.state)
    return ReplayIndex(every, checkpoints, versions, live.channels)


def replay_message(
    game: Game[Any],
    rows: list[tuple[int, int]],
    index: ReplayIndex,
    seat: int | None,
    step: int,
) -> dict[str, Any]:
    """The view message ``seat`` (``None``: a spectator) had after the first ``step`` actions of a
    finished game, with every event it had been told; never actionable (no ``legal``)."""
    base = step // index.every
    state = index.checkpoints[base]
    for _seat, action in rows[base * index.every : step]:
        state, _events = game.apply_recorded(state, action)
    v = index.versions[seat][step]
    events = index.channels[seat].through(v)
    message = seat_view(game, state, seat, v=v, events=events, turn=None)
    message["legal"] = message["groups"] = None
    return message


@dataclass
class Finished:
    """One finished table: its description, game record and (once asked for) replay index."""

    game: Game[Any]
    rows: list[tuple[int, int]]
    info: dict[str, Any]
    record: dict[str, Any]
    index: asyncio.Future[ReplayIndex] | None = field(default=None, repr=False)
    shown_results: list[NamedResult] | None = field(default=None, repr=False)

    async def replay_index(self) -> ReplayIndex:
        """The replay index, built once (in a thread) whoever asks first."""
        if self.index is None:
            self.index = asyncio.ensure_future(asyncio.to_thread(build_index, self.game, self.rows, CHECKPOINT_EVERY))
        return await asyncio.shield(self.index)

    async def message(self, seat: int | None, step: int) -> dict[str, Any]:
        """The replay message of ``seat`` at ``step``; at the last step, with every seat's result."""
        index = await self.replay_index()
        message = replay_message(self.game, self.rows, index, seat, step)
        message["presence"] = [{"seat": s["seat"], "name": s["name"]} for s in self.info["seats"]]  # names: public
        if step == len(self.rows):
            message["results"] = await self.results()
        return message

    async def results(self) -> list[NamedResult]:
        """Each seat's name, result and why (worked out once)."""
        if self.shown_results is None:
            found = self.final_results(await self.replay_index())
            by_seat = {s["seat"]: s["name"] for s in self.info["seats"]}
            names = SeatNames.of([by_seat.get(seat, "") for seat in range(max(by_seat, default=-1) + 1)])
            self.shown_results = [r.named(names) for r in found]
        return self.shown_results

    def final_results(self, index: ReplayIndex) -> tuple[SeatResult, ...]:
        """Each seat's result of the finished game, as the game words it."""
        game, rows = self.game, self.rows
        base = len(rows) // index.every
        state = index.checkpoints[base]
        for _seat, action in rows[base * index.every :]:
            state = game.apply(state, action)
        public = index.channels[None].through(index.versions[None][len(rows)])
        return game.words.results(state, public)


class FinishedTables:
    """The finished tables asked for most recently (at most ``size``), each built once."""

    def __init__(self, service: Callable[[], TableService], size: int) -> None:
        self.service = service
        self.size = size
        self.kept: OrderedDict[str, Finished] = OrderedDict()

    async def get(self, table_id: str, not_over: str) -> Finished:
        """The finished table ``table_id``; :class:`Conflict` with ``not_over`` before its end,
        :class:`~shadowtable.server.errors.NotFound` if there is none."""
        if table_id in self.kept:
            self.kept.move_to_end(table_id)
            return self.kept[table_id]
        svc = self.service()
        table = await svc.table(table_id)
        if table.status != "over":
            raise Conflict(not_over)
        if table_id in self.kept:  # built meanwhile
            return self.kept[table_id]
        record = (await svc.record(table_id)).to_json()
        finished = Finished(table.game, list(table.live.rows), svc.info(table), record)
        if self.size:
            self.kept[table_id] = finished
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return finished
