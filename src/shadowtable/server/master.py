"""The table master: what a decision, a start, a join, a leave or a rematch does to a table.

Transport-free and storage-free (as boardgame.io's master): each function reads a
:class:`~shadowtable.server.table.Table` and returns what to store, what to make the table's own
and what each audience is told; :class:`~shadowtable.server.service.TableService` stores it, then
acknowledges, then applies it (:func:`commit`, :func:`sit`, :func:`vacate`) and shows it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from shadowtable.core.undo import undo_refusal as undo_words
from shadowtable.core.wording import SeatNames
from shadowtable.server import turn_clock
from shadowtable.server.bot_levels import LEVELS
from shadowtable.server.errors import Conflict, ServiceError
from shadowtable.server.live import Step
from shadowtable.server.new_table import NewTable
from shadowtable.server.protocol import Act, Answer
from shadowtable.server.reservations import Reservation, former_holder
from shadowtable.server.table import Seat, Table, forget_undone, public_clock, seat_name
from shadowtable.server.tokens import SeatClaim

RETURN_GRACE_MS = 30_000
"""The least time a seat whose clock ran out has once its player takes it back."""
INVALID_INVITE = "this invite link is not valid: it was used, replaced by a newer one or expired"


# -- act ----------------------------------------------------------------------------------------
class SeatChanges(TypedDict, total=False):
    """A seat's stored fields a decision or a return changes: its clock (milliseconds left), its
    return from a bot (``zombie`` false)."""

    clock_ms: int
    zombie: bool
    deadline: float | None
    reserve_ms: int


@dataclass(frozen=True)
class Move:
    """A seat's decision worked out: the steps to store, the seat's stored changes (its clock, its
    return from a bot) and what is acknowledged."""

    seat: int
    action: int
    steps: list[Step]
    seat_changes: SeatChanges = field(default_factory=SeatChanges)

    @property
    def returning(self) -> bool:
        """Whether the seat's player takes it back from a bot with this decision."""
        return self.seat_changes.get("zombie") is False


def repeated(table: Table, seat: int, act: Act) -> Answer | None:
    """The answer to an act id acknowledged already (``None``: a new one): an ``ack`` again if it
    repeats the same decision, else a ``reject``."""
    done = table.play.acked.get((seat, act.id))
    if done is None:
        return None
    turn, action = done
    # a resent notation is taken at its turn: its words were read against that turn's state
    if act.turn == turn and (act.action is None or act.action == action):
        return Answer(t="ack", id=act.id)
    reused = f"act id {act.id!r} was used already for another decision: use a new id for each decision"
    return Answer(t="reject", id=act.id, why=reused)


def refusal(table: Table, seat: int, act: Act) -> str | None:
    """Why ``seat`` may not make ``act`` now (``None``: it may)."""
    if table.status != "playing":
        return "the game is not in play" if table.status == "open" else "the game is over"
    if act.turn < table.live.decisions(seat):
        return "that choice was made already (stale turn): here is the current view"
    if table.game.current_player(table.live.state) != seat or act.turn != table.live.decisions(seat):
        return "it is not your turn"
    return None


def decide(table: Table, seat: int, act: Act, now: float | None = None) -> Move:
    """The move ``act`` makes for ``seat`` at wall-clock time ``now`` (default: the time now;
    checked by :func:`refusal` first);
    :class:`~shadowtable.core.errors.ShadowTableError` for an action the rules refuse."""
    state = table.live.state
    if act.action is not None:
        action = act.action
    else:  # typed: its notation, or the words the page shows (seats by name)
        names = SeatNames.of([seat_name(i, s) for i, s in enumerate(table.seats)])
        action = table.game.words.parse_action(state, act.notation or "", names)
    steps = table.live.plan(seat, action)
    changes = SeatChanges()
    left = spent_clock(table, seat)
    if left is not None:
        changes["clock_ms"] = left
    rules = table.stored.turn
    if rules is not None and table.seats[seat].kind == "human":
        changes["deadline"] = None  # no deadline runs until the seat decides again
        at = time.time() if now is None else now
        changes["reserve_ms"] = turn_clock.reserve_after(rules, table.seats[seat], at)
    if table.seats[seat].zombie:
        changes["zombie"] = False
    return Move(seat, action, steps, changes)


def spent_clock(table: Table, seat: int) -> int | None:
    """The time ``seat`` has left after deciding now (bonus added), or ``None`` without a clock."""
    clock, timers = table.stored.clock, table.timers
    if clock is None or table.seats[seat].clock_ms is None:
        return None
    running = timers.clock_for == (seat, table.steps)
    elapsed = int((time.monotonic() - timers.turn_started) * 1000) if running else 0
    return max(0, (table.seats[seat].clock_ms or 0) - elapsed) + int(clock["bonus_ms"])


def acknowledge(table: Table, move: Move, act: Act) -> list[str]:
    """Make ``move``'s stored seat changes and act id the table's own; the notices it gives."""
    seat = table.seats[move.seat]
    if "clock_ms" in move.seat_changes:
        seat.clock_ms = move.seat_changes["clock_ms"]
        table.timers.clock_for = None
        if table.timers.clock_task is not None:
            table.timers.clock_task.cancel()
    if "reserve_ms" in move.seat_changes:
        seat.deadline, seat.reserve_ms = None, move.seat_changes["reserve_ms"]
        table.timers.clock_for = None
        if table.timers.clock_task is not None:
            table.timers.clock_task.cancel()
    table.play.acked[(move.seat, act.id)] = (act.turn, move.action)
    if move.returning:
        seat.zombie = False
        return [back_notice(table, move.seat)]
    return []


def ending(table: Table, steps: list[Step]) -> list[float] | None:
    """The returns if ``steps`` end the game (``None``: they do not)."""
    if steps and table.game.is_terminal(steps[-1].after):
        return list(table.game.returns(steps[-1].after))
    return None


def commit(table: Table, steps: list[Step]) -> bool:
    """Make stored ``steps`` the table's own; whether they ended a game in play."""
    table.live.commit(steps)
    if table.status == "playing" and table.game.is_terminal(table.live.state):
        table.stored.status = "over"
        table.stored.returns = list(table.game.returns(table.live.state))
        return True
    return False


# -- undo -----------------------------------------------------------------------------------------
def undo_refusal(table: Table, seat: int | None, count: int) -> str | None:
    """Why ``seat`` may not take back its last ``count`` decisions now (``None``: it may)."""
    if seat is None:
        return "spectators cannot undo"
    if not table.stored.undo:
        return "this table does not allow undo (rated tables never do: docs/play.md)"
    if table.status != "playing":
        return "the game is not in play" if table.status == "open" else "the game is over"
    allowed = table.live.undoable(seat)
    if count > allowed:
        return undo_words(allowed, count)
    return None


def take_back(table: Table, seat: int, count: int) -> str:
    """Make a stored undo the table's own (checked by :func:`undo_refusal`); the notice it gives."""
    table.live.undo(seat, count)
    table.play.acked = forget_undone(table.play.acked, seat, table.live.decisions(seat))
    moves = "a move" if count == 1 else f"{count} moves"
    return f"{seat_name(seat, table.seats[seat])} took back {moves}"


def may_undo(table: Table, seat: int | None) -> int:
    """How many decisions ``seat`` may take back now (0 at a table without undo, or for a spectator)."""
    if seat is None or not table.stored.undo or table.status != "playing":
        return 0
    return table.live.undoable(seat)


# -- start --------------------------------------------------------------------------------------
def opening(table: Table) -> list[Step]:
    """The steps a game starts with (chance's first draws)."""
    return table.live.plan(None, None)


def free_seats(table: Table) -> list[int]:
    """Seats nobody holds (bots take them when the game is started as it is)."""
    return [i for i, seat in enumerate(table.seats) if not seat.taken]


def full(table: Table) -> bool:
    """Whether an open table has every seat taken (it starts)."""
    return table.status == "open" and all(seat.taken for seat in table.seats)


# -- join ---------------------------------------------------------------------------------------
def invited(seat: int | None, current: int | None) -> int:
    """The seat an invite takes (``seat``: the one its live code names, if any)."""
    if seat is None:
        raise Conflict(INVALID_INVITE)
    if current is not None:
        raise Conflict(f"you already sit at seat {current} of this table: an invite is for someone else")
    return seat


@dataclass(frozen=True)
class Kept:
    """The free seats a rematch keeps for their former holders now: the asker's own (``mine``)
    and everyone else's (``others``: not the asker's to take)."""

    mine: frozenset[int] = frozenset()
    others: frozenset[int] = frozenset()
    until: float = 0.0
    """When the last of ``others`` opens."""


def kept_seats(table: Table, now: float, account_id: str | None, claims: Iterable[SeatClaim]) -> Kept:
    """Which free seats of ``table`` a rematch keeps, and which of them for the asker (signed in as
    ``account_id``, holding the seat ``claims`` of other tables)."""
    proofs = list(claims)
    mine: set[int] = set()
    others: dict[int, float] = {}
    for i, seat in enumerate(table.seats):
        until = seat.kept_until(now)
        if until is None or seat.reserved is None:
            continue
        if seat.reserved.held_by(account_id, proofs):
            mine.add(i)
        else:
            others[i] = until
    return Kept(frozenset(mine), frozenset(others), max(others.values(), default=0.0))


def kept_refusal(seat: int, until: float, now: float) -> str:
    """Why a seat kept for its former holder cannot be taken now."""
    minutes = max(1, math.ceil((until - now) / 60))
    return (
        f"seat {seat} is kept for the player who held it in the last game until they take it or decline"
        f" (at most {minutes} more minute{'s' if minutes != 1 else ''})"
    )


def free_seat(
    table: Table, wanted: int | None, current: int | None, *, move: bool, kept: Kept | None = None, now: float = 0.0
) -> int:
    """The seat a plain join takes: ``wanted`` if free, else a seat a rematch keeps for the asker,
    else the first free one (vacated seats, and seats kept for others, are never free); someone
    sitting at ``current`` already may only ``move``, before the start."""
    kept = kept or Kept()
    free = [i for i in free_seats(table) if i not in kept.others]
    if wanted is None:
        if not free:
            raise Conflict(
                "every seat is taken" if not kept.others else kept_refusal(min(kept.others), kept.until, now)
            )
        seat = next((i for i in free if i in kept.mine), free[0])
    else:
        if not 0 <= wanted < len(table.seats):
            raise ServiceError(f"seat must be between 0 and {len(table.seats) - 1}")
        if table.seats[wanted].vacated:
            raise Conflict(
                f"seat {wanted} is played by a bot since its player left: only that player, or someone the"
                " table's host invites, can take it"
            )
        if wanted in kept.others:
            raise Conflict(kept_refusal(wanted, table.seats[wanted].kept_until(now) or now, now))
        if wanted not in free:
            raise Conflict(f"seat {wanted} is not free")
        seat = wanted
    if current is not None and not move:
        raise Conflict(
            f"you already sit at seat {current} of this table: ask to move (move: true) to give it up for seat {seat}"
        )
    if current is not None and table.status != "open":
        raise Conflict("seats can be changed only before the game starts")
    return seat


def host_after_join(table: Table, seat: int, current: int | None, *, as_host: bool) -> int | None:
    """The host seat once someone sits at ``seat`` (moving from ``current``: host rights move too)."""
    host = table.host_seat
    if current is not None:
        return seat if host == current else host
    return seat if as_host and host is None else host


def sit(table: Table, seat: int, hashed_key: str, name: str, current: int | None, host: int | None) -> None:
    """Make a stored join the table's own."""
    taken = table.seats[seat]
    taken.key_hash, taken.name, taken.left_hash, taken.reserved = hashed_key, name, None, None
    if current is not None:
        table.seats[current].key_hash = None
        table.seats[current].name = None
    table.stored.host_seat = host


# -- leave --------------------------------------------------------------------------------------
class SeatRelease(TypedDict):
    """A seat's stored fields its player leaving changes."""

    key_hash: None
    zombie: bool
    left_hash: str | None


@dataclass(frozen=True)
class Leaving:
    """What giving up ``seat`` changes: in play a bot takes it over and it is kept for the leaver
    (``left_hash``); before the start a host seat stops being one."""

    seat: int
    playing: bool
    left_hash: str | None
    zombie: bool
    host: int | None

    def seat_changes(self) -> SeatRelease:
        return SeatRelease(key_hash=None, zombie=self.zombie, left_hash=self.left_hash)


def leaving(table: Table, seat: int) -> Leaving:
    """What ``seat``'s player leaving does."""
    playing = table.status == "playing"
    before = table.seats[seat]
    host = None if not playing and table.host_seat == seat else table.host_seat
    return Leaving(seat, playing, before.key_hash if playing else None, playing or before.zombie, host)


def vacate(table: Table, leave: Leaving) -> list[str]:
    """Make a stored leave the table's own; the notices it gives."""
    seat = table.seats[leave.seat]
    seat.key_hash, seat.zombie, seat.left_hash = None, leave.zombie, leave.left_hash
    table.stored.host_seat = leave.host
    if leave.playing:
        return [f"{seat_name(leave.seat, seat)} left: a bot plays for them"]
    return []


def bots_take(table: Table, seats: list[int], bot: str) -> None:
    """Bots (``bot``) sit at ``seats`` (stored already)."""
    for i in seats:
        table.seats[i] = Seat("bot", bot, None, None)


# -- rematch ------------------------------------------------------------------------------------
def rematch_table(table: Table, default_bot: str) -> NewTable:
    """The rematch of a finished table: the same game, humans where humans sat, the same bots."""
    if table.status != "over":
        raise Conflict("a rematch can start once the game is over")
    kinds = ["human" if s.kind == "human" else f"bot:{s.bot if s.bot in LEVELS else default_bot}" for s in table.seats]
    stored, game = table.stored, table.game
    clock = None if stored.clock is None else public_clock(stored.clock)
    return NewTable(
        game.spec.id,
        game.players,
        dict(game.options),
        kinds,
        clock,
        stored.listed,
        stored.pace,
        stored.undo,
        mode=stored.mode,
        turn=None if stored.turn is None else dict(stored.turn),
    )


def rematch_reservations(table: Table, accounts: dict[int, str | None], until: float) -> dict[int, Reservation]:
    """The seats a rematch of ``table`` keeps until ``until``: each human seat for the player who
    held it at the end (its key, its account); a seat its player left, and a bot's, are not kept."""
    kept = {}
    for i, seat in enumerate(table.seats):
        held = former_holder(seat.key_hash, accounts.get(i), until) if seat.key_hash is not None else None
        if seat.kind == "human" and held is not None:
            kept[i] = held
    return kept


def start_refusal(table: Table, now: float) -> str | None:
    """Why the game cannot start now with bots in the free seats (``None``: it can): a seat kept for
    its former holder is theirs to take or decline first."""
    for i, seat in enumerate(table.seats):
        until = seat.kept_until(now)
        if until is not None:
            return kept_refusal(i, until, now) + ": the game can start once they do"
    return None


# -- bots taking over ---------------------------------------------------------------------------
def returned_clock(table: Table, seat: int) -> SeatChanges:
    """The stored clock of a seat its player takes back from a bot (at least a grace period)."""
    clock = table.stored.clock
    if clock is None:
        return SeatChanges()
    return SeatChanges(clock_ms=max(table.seats[seat].clock_ms or 0, clock["bonus_ms"], RETURN_GRACE_MS))


def back_notice(table: Table, seat: int) -> str:
    return f"{seat_name(seat, table.seats[seat])} is back"
