"""A turn-based table's seat clocks, worked out from wall-clock times (nothing here stores or waits).

Each decision of a seat has the table's ``move_s``; past it the seat's reserve runs; when both are
spent the seat is out of time.  What is stored is absolute: the decision's ``deadline`` (start,
plus ``move_s``, plus the reserve left), so it holds across restarts.  A seat on vacation has its
deadline moved on by the days it takes, and a decision that starts while it is away starts when
the vacation ends.
"""

from __future__ import annotations

from typing import TypedDict

from shadowtable.server.errors import Conflict, ServiceError
from shadowtable.server.table import Seat, TurnRules

DAY_S = 86400


class TurnSeatChanges(TypedDict, total=False):
    """A seat's stored turn-based fields a decision or a vacation changes."""

    deadline: float | None
    reserve_ms: int
    away_until: float | None
    away_used_s: float


def reserve_s(seat: Seat) -> float:
    """The seat's reserve left, in seconds."""
    return (seat.reserve_ms or 0) / 1000


def new_deadline(rules: TurnRules, seat: Seat, now: float) -> float:
    """When a decision starting ``now`` runs out (it starts when the seat's vacation ends, if later)."""
    start = max(now, seat.away_until or 0.0)
    return start + rules["move_s"] + reserve_s(seat)


def reserve_after(rules: TurnRules, seat: Seat, now: float) -> int:
    """The seat's reserve (ms) once it decides ``now``: what the decision took past its own time."""
    if seat.deadline is None:
        return seat.reserve_ms or 0
    started = seat.deadline - rules["move_s"] - reserve_s(seat)
    over = max(0.0, (now - started) - rules["move_s"])
    return max(0, (seat.reserve_ms or 0) - int(over * 1000))


def ms_left(rules: TurnRules, seat: Seat, now: float) -> int | None:
    """The time the seat has for its decision in progress, or would have for its next one (``None``: a bot)."""
    if seat.kind != "human":
        return None
    if seat.deadline is not None:
        return max(0, int((seat.deadline - max(now, seat.away_until or 0.0)) * 1000))
    return rules["move_s"] * 1000 + (seat.reserve_ms or 0)


def away(seat: Seat, now: float) -> bool:
    """Whether the seat is on vacation ``now``."""
    return seat.away_until is not None and seat.away_until > now


def vacation_left_days(rules: TurnRules, seat: Seat) -> int:
    """Whole days of vacation the seat may still take at this table."""
    return max(0, int((rules["vacation_days"] * DAY_S - seat.away_used_s) // DAY_S))


def vacation(rules: TurnRules, seat: Seat, days: object, now: float) -> TurnSeatChanges:
    """What taking ``days`` of vacation ``now`` stores (0: the vacation ends now, its days stay
    taken); :class:`ServiceError` beyond what the table allows.  A deadline that runs moves on by
    the days taken."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ServiceError("days: expected a whole number of days, 0 to end a vacation")
    if days == 0:
        if not away(seat, now):
            raise Conflict("you are not on vacation")
        return TurnSeatChanges(away_until=now)
    if rules["vacation_days"] == 0:
        raise Conflict("this table allows no vacation")
    left = vacation_left_days(rules, seat)
    if days > left:
        raise Conflict(f"days: this table allows {rules['vacation_days']} days of vacation; you have {left} left")
    changes = TurnSeatChanges(away_until=max(now, seat.away_until or now) + days * DAY_S)
    changes["away_used_s"] = seat.away_used_s + days * DAY_S
    if seat.deadline is not None:
        changes["deadline"] = seat.deadline + days * DAY_S
    return changes


def apply(seat: Seat, changes: TurnSeatChanges) -> None:
    """Make stored ``changes`` the seat's own."""
    if "deadline" in changes:
        seat.deadline = changes["deadline"]
    if "reserve_ms" in changes:
        seat.reserve_ms = changes["reserve_ms"]
    if "away_until" in changes:
        seat.away_until = changes["away_until"]
    if "away_used_s" in changes:
        seat.away_used_s = changes["away_used_s"]
