"""How a Shadowlord! game ends for each seat, and why a seat is out of a game that goes on.

Results come from the state's end (``end``, ``winner``, ``seat_out``); when and why a seat left
the game early comes from the public ``leave`` events (every seat and spectator is told them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shadowtable.core.wording import SeatResult
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import State

WINNER_WHY = {
    "master_of_universe": "Master of the Universe: the Shadowlord and every other Star Master were defeated",
    "surrender": "Master of the Universe: the last other player surrendered to this seat, owner of the Power Stone",
}
ALL_LOSE_WHY = {
    "shadowlord_timer": "the Power Stone Timer reached the Starburst: the Shadowlord wins, every player loses",
    "shadowlord_wins": "every Alliance was defeated: the Shadowlord wins, every player loses",
}
TRUNCATED_WHY = "the game reached its length limit with no winner: nobody wins"


def event_data(event: Mapping[str, object]) -> Mapping[str, object]:
    """The ``data`` of a told event (empty if it has none)."""
    data = event.get("data")
    return data if isinstance(data, Mapping) else {}


@dataclass(frozen=True)
class Departure:
    """When and why a seat's last Alliance left a game that went on."""

    turn: int
    """The turn it left in (0: not known)."""
    words: str
    """Why, in words (:func:`leave_words`)."""
    surrendered: bool
    """Whether its player surrendered (else it was captured, or left otherwise)."""

    @property
    def text(self) -> str:
        """When and why, in words: ``in turn 12, red left the game: ...``."""
        return f"in turn {self.turn}, {self.words}" if self.turn else self.words


def departures(ctx: Context, events: Sequence[Mapping[str, object]], turn: int = 0) -> dict[int, Departure]:
    """When and why each seat left the game early, from the public ``turn`` and ``leave`` events
    (``turn``: the turn under way before the first of ``events``)."""
    found = {}
    for event in events:
        data = event_data(event)
        number, seat = data.get("turn"), data.get("seat")
        if event.get("kind") == "turn" and isinstance(number, int):
            turn = number
        elif event.get("kind") == "leave" and data.get("seat_out") and isinstance(seat, int):
            found[seat] = Departure(turn, leave_words(ctx, data), data.get("reason") == "surrender")
    return found


def leave_words(ctx: Context, data: Mapping[str, object]) -> str:
    """Why the last Alliance of a seat left: captured (by whom) or surrendered."""
    colour = data.get("colour")
    name = ctx.content.colours[colour] if isinstance(colour, int) and 0 <= colour < 4 else "its Alliance"
    captor = data.get("captor")
    if data.get("reason") == "captured" and isinstance(captor, int) and 0 <= captor < len(ctx.content.fig_name):
        return f"{name} left the game: its Star Master was captured by {ctx.content.fig_name[captor]}"
    if data.get("reason") == "surrender":
        return f"{name} left the game: its player surrendered"
    return f"{name} left the game"


def seat_result(ctx: Context, s: State, seat: int, left: Mapping[int, Departure]) -> SeatResult:
    """The result of ``seat`` in the finished game ``s``: a seat that surrendered says so (in turn
    12), one knocked out says when and how (its elimination may have been what ended the game)."""
    if s.end in WINNER_WHY and seat == s.winner:
        return SeatResult(seat, "won", WINNER_WHY[s.end])
    if s.end == "truncated":
        return SeatResult(seat, "drew", TRUNCATED_WHY)
    end = ALL_LOSE_WHY.get(s.end) or f"seat {s.winner} is Master of the Universe"
    if not s.seat_out[seat]:
        return SeatResult(seat, "lost", end)
    departure = left.get(seat)
    if departure is None:
        return SeatResult(seat, "lost", f"eliminated; {end}")
    if departure.surrendered:
        when = f" in turn {departure.turn}" if departure.turn else ""
        return SeatResult(seat, "lost", f"surrendered{when}; {end}")
    return SeatResult(seat, "lost", f"eliminated ({departure.text}); {end}")


def results(ctx: Context, s: State, events: Sequence[Mapping[str, object]]) -> tuple[SeatResult, ...]:
    """One result per seat of the finished game ``s``."""
    left = departures(ctx, events)
    return tuple(seat_result(ctx, s, seat, left) for seat in range(len(ctx.seat_alliances)))


def out_of_game(ctx: Context, s: State, seat: int, told: Sequence[Mapping[str, object]]) -> str | None:
    """Why ``seat`` is out of a game that goes on (``None``: it is not): its Alliances all left
    (public), with the ``leave`` event among ``told`` that says why, if there is one."""
    if s.end or not s.seat_out[seat]:
        return None
    turns_told = sum(1 for event in told if event.get("kind") == "turn")
    departure = departures(ctx, told, s.turn + 1 - turns_told).get(seat)
    why = departure.text if departure else None
    names = ", ".join(ctx.content.colours[c] for c in ctx.seat_alliances[seat])
    head = f"You are out of the game: every Alliance you played ({names}) has left it"
    return (
        f"{head} ({why}). You have no more decisions; you watch the rest."
        if why
        else f"{head}. You have no more decisions; you watch the rest."
    )
