"""What runs by itself at a table this process owns: bots' moves, clocks and their timeouts, and
a bot taking over a seat whose player is away (a "zombie" seat) until that player is back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from shadowtable.server import master, turn_clock
from shadowtable.server.bot_levels import LEVELS, run_spec, takeover_level
from shadowtable.server.bots import BotRunner
from shadowtable.server.config import ServerConfig
from shadowtable.server.errors import ServiceError, Stale
from shadowtable.server.live import Step, Turn
from shadowtable.server.presence import connected, send_presence
from shadowtable.server.repository.tables import Repository, table_unrated, update_seat
from shadowtable.server.table import Table, TurnRules, person_decides, seat_name

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

log = logging.getLogger("shadowtable.server")


def move_seconds(table: Table, seat: int, now: float) -> float:
    """The seconds a move of ``seat`` may take at ``table``: with a live clock, the bonus per move
    plus a twentieth of what the seat's clock has left; with turn deadlines, what is left of the
    seat's turn; without a clock, no bound (``inf``)."""
    stored = table.stored
    if stored.clock is not None:
        return (int(stored.clock["bonus_ms"]) + (table.seats[seat].clock_ms or 0) / 20) / 1000
    if stored.turn is not None:
        left = turn_clock.ms_left(stored.turn, table.seats[seat], now)
        return float("inf") if left is None else max(0.0, left / 1000)
    return float("inf")


class Timers:
    """Schedules each table's next bot move or clock, and the away periods of its seats."""

    def __init__(self, service: TableService, config: ServerConfig, bots: BotRunner, repository: Repository) -> None:
        self.service = service
        self.config = config
        self.bots = bots
        self.repository = repository

    def schedule(self, table: Table) -> None:
        """Start what the decision the table waits for needs: a bot's move or the seat's clock."""
        if table.status != "playing" or self.service.closing:
            return
        if not table.sockets.owned:
            if person_decides(table):
                table.timers.set_fast_forward(False)  # as on the process running the bots
            return
        player = table.game.current_player(table.live.state)
        if player < 0:
            return
        timers, decision, seat = table.timers, (player, table.steps), table.seats[player]
        if seat.kind == "bot" or seat.zombie or timers.skip_once == decision:
            if timers.bot_task is None or timers.bot_task.done():
                timers.bot_task = self.service.spawn(self._bot_move(table, player, table.steps))
            return
        timers.set_fast_forward(False)  # a person decides: the bots keep the table's pace again
        if table.stored.turn is not None:
            if timers.clock_for != decision:
                if timers.clock_task is not None:
                    timers.clock_task.cancel()
                timers.clock_for = decision
                fresh = seat.deadline is None  # else stored already: kept (after a restart, a takeover)
                if fresh:  # set now, so the views sent next show it; stored by the clock's task
                    seat.deadline = turn_clock.new_deadline(table.stored.turn, seat, self.config.now())
                timers.clock_task = self.service.spawn(self._turn_clock(table, decision, fresh=fresh))
            return
        if table.stored.clock is not None and timers.clock_for != decision:
            if timers.clock_task is not None:
                timers.clock_task.cancel()
            timers.clock_for = decision
            timers.turn_started = time.monotonic()
            timers.clock_task = self.service.spawn(self._timeout(table, decision, (seat.clock_ms or 0) / 1000))

    async def _bot_move(self, table: Table, seat: int, at: int) -> None:
        try:
            if not table.timers.fast_forward and (delay := table.stored.bot_delay_s(self.config.bot_delay_s)):
                await table.timers.pace(delay)
            stale = await self._bot_decides(table, seat, at)
        finally:
            table.timers.bot_task = None
        if stale:
            await self.service.refresh(table)
        self.service.after_change(table)

    async def _bot_decides(self, table: Table, seat: int, at: int) -> bool:
        """The bot of ``seat`` is asked the table's turn (off the event loop), then its choice is
        planned by the table, stored and committed; whether another process moved first."""
        turn = self._turn(table, seat, at)
        if turn is None:
            return False
        spec = self.spec_for(table, seat)
        action = await self.bots.choose(table.game, spec, seat, turn.observation, turn.legal)
        async with table.lock:
            if table.steps != at or table.status != "playing":
                return False
            return await self._play(table, seat, at, table.live.plan_turn(turn, action))

    def spec_for(self, table: Table, seat: int) -> str:
        """The spec that decides for ``seat``: its level's; for a person's seat a bot takes over (away,
        or out of time), the strongest offered level whose time fits the table's clock, unless the
        operator's ``--default-bot`` is a spec of its own."""
        game, budget, default = table.game, self.config.bot_budget_s, self.config.default_bot
        stored = table.seats[seat]
        if stored.kind == "bot" or default not in LEVELS:
            return run_spec(stored.bot or default, default, budget, game.spec.id)
        move_s = min(budget, move_seconds(table, seat, self.config.now()))
        level = takeover_level(game.spec.id, game.players, move_s, dict(game.options))
        return run_spec(level, default, move_s, game.spec.id)

    @staticmethod
    def _turn(table: Table, seat: int, at: int) -> Turn | None:
        """What the bot of ``seat`` is asked, if the table still awaits its decision at step ``at``."""
        if table.steps != at or table.status != "playing" or table.game.current_player(table.live.state) != seat:
            return None
        return table.live.turn()

    async def _play(self, table: Table, seat: int, at: int, steps: list[Step]) -> bool:
        """Under the table's lock: store and commit a bot's steps; whether another process moved
        first (the table is then re-read and the bot decides again)."""
        try:
            await self.service.persist(table, steps, None)
        except Stale:
            return True
        except ServiceError:
            await asyncio.sleep(1.0)  # the store is down: nothing was lost, try again
            return False
        if table.timers.skip_once == (seat, at):
            table.timers.skip_once = None
        self.service.commit(table, steps)
        return False

    async def _timeout(self, table: Table, decision: tuple[int, int], seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))
        seat, at = decision
        if table.timers.clock_for != decision or table.steps != at or table.status != "playing":
            return
        clock = table.stored.clock
        assert clock is not None
        table.timers.clock_for = None
        name = seat_name(seat, table.seats[seat])
        if clock["on_timeout"] == "bot":
            await self.set_zombie(table, seat, f"{name} ran out of time: a bot plays for them", clock_ms=0)
            return
        bonus = int(clock["bonus_ms"])
        async with table.lock:
            with contextlib.suppress(ServiceError):
                await self.repository.write(
                    update_seat(table.id, seat, clock_ms=bonus), table_unrated(table.id), table_id=table.id
                )
            table.seats[seat].clock_ms = bonus
            table.timers.skip_once = decision
        self.service.notice(table, f"{name} ran out of time: a bot makes this move for them")
        self.service.after_change(table)

    # -- turn-based clocks ----------------------------------------------------------------------
    def _awaits(self, table: Table, decision: tuple[int, int]) -> bool:
        """Whether the clock of ``decision`` still runs here."""
        return (
            table.timers.clock_for == decision
            and table.steps == decision[1]
            and table.status == "playing"
            and table.sockets.owned
        )

    async def _turn_clock(self, table: Table, decision: tuple[int, int], *, fresh: bool) -> None:
        """A turn-based decision's clock: its deadline is stored if ``fresh`` (one stored already is
        kept, as after a restart), then read against the wall clock until it passes (at once if it has)."""
        rules, (seat, _) = table.stored.turn, decision
        assert rules is not None
        if fresh:
            async with table.lock:
                if not self._awaits(table, decision):
                    return
                with contextlib.suppress(ServiceError):  # not stored: set again after a restart
                    deadline = table.seats[seat].deadline
                    await self.repository.write(update_seat(table.id, seat, deadline=deadline), table_id=table.id)
        while (left := (table.seats[seat].deadline or 0.0) - self.config.now()) > 0:
            await asyncio.sleep(min(left, self.config.turn_check_s))
            if not self._awaits(table, decision):
                return
        if self._awaits(table, decision) and table.seats[seat].deadline is not None:
            await self._turn_timeout(table, decision, rules)

    async def _turn_timeout(self, table: Table, decision: tuple[int, int], rules: TurnRules) -> None:
        """A turn-based seat is out of time (its reserve spent): a bot plays for its player until
        they are back (``bot``), or makes this one move for them (``skip``); everyone is told."""
        seat, _ = decision
        table.timers.clock_for = None
        name = seat_name(seat, table.seats[seat])
        spent = turn_clock.TurnSeatChanges(deadline=None, reserve_ms=0)
        if rules["on_timeout"] == "bot":
            await self.set_zombie(table, seat, f"{name} ran out of time; a bot plays for {name}", changes=spent)
            return
        async with table.lock:
            if table.steps != decision[1] or table.status != "playing":
                return
            with contextlib.suppress(ServiceError):
                await self.repository.write(update_seat(table.id, seat, **spent), table_id=table.id)
            table.seats[seat].deadline, table.seats[seat].reserve_ms = None, 0
            table.timers.skip_once = decision
        self.service.notice(table, f"{name} ran out of time; a bot makes this move for {name}")
        self.service.after_change(table)

    # -- away seats -----------------------------------------------------------------------------
    def watch_away(self, table: Table, seat: int) -> None:
        """The owner starts the grace period of a human seat connected nowhere."""
        if not table.sockets.owned or table.status != "playing" or connected(table, seat):
            return
        if table.stored.turn is not None:
            return  # a turn-based table waits for its players: their clocks decide
        away = table.timers.away
        if table.seats[seat].kind == "human" and not table.seats[seat].zombie and seat not in away:
            away[seat] = self.service.spawn(self._away(table, seat))

    def back(self, table: Table, seat: int) -> None:
        """``seat`` is connected again: its grace period stops."""
        away = table.timers.away.pop(seat, None)
        if away is not None:
            away.cancel()

    async def _away(self, table: Table, seat: int) -> None:
        await asyncio.sleep(self.config.grace_s)
        table.timers.away.pop(seat, None)
        if connected(table, seat) or table.status != "playing" or not table.sockets.owned:
            return
        await self.set_zombie(table, seat, f"{seat_name(seat, table.seats[seat])} is away: a bot plays for them")

    async def set_zombie(
        self,
        table: Table,
        seat: int,
        notice: str,
        *,
        clock_ms: int | None = None,
        changes: turn_clock.TurnSeatChanges | None = None,
    ) -> None:
        """A bot plays ``seat`` for its player (away, or out of time: then its clock is set to
        ``clock_ms``, and its other stored ``changes`` are made); the game is no longer rated."""
        clock: dict[str, Any] = {} if clock_ms is None else {"clock_ms": clock_ms}
        clock.update(changes or {})
        async with table.lock:
            if table.seats[seat].zombie:
                return
            try:
                await self.repository.write(
                    update_seat(table.id, seat, zombie=True, **clock), table_unrated(table.id), table_id=table.id
                )
            except ServiceError:
                return
            table.seats[seat].zombie = True
            if clock_ms is not None:
                table.seats[seat].clock_ms = clock_ms
            if changes is not None:
                turn_clock.apply(table.seats[seat], changes)
        log.info("bot takes over", extra={"event": "zombie", "table": table.id, "seat": seat})
        self.service.notice(table, notice)
        send_presence(table)
        self.service.after_change(table)

    async def unset_zombie(self, table: Table, seat: int) -> None:
        """``seat``'s player is connected again: the bot stops playing for them."""
        async with table.lock:
            clock = master.returned_clock(table, seat)
            try:
                await self.repository.write(update_seat(table.id, seat, zombie=False, **clock), table_id=table.id)
            except ServiceError:
                return
            table.seats[seat].zombie = False
            if clock:
                table.seats[seat].clock_ms = clock["clock_ms"]
        self.service.notice(table, master.back_notice(table, seat))
        self.service.after_change(table)

    def stop(self, table: Table) -> None:
        """This process no longer runs the table's timers (its lease was lost)."""
        table.timers.cancel()
        table.timers.away.clear()
        table.timers.clock_for = None
