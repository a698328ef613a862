"""The summary of a game: the facts a game writes into ``record.metadata`` for reports.

One type for every game: why it ended, the seats (each with its role in reports, whether it
won, and the game's own facts about it), the indicators per round, and the game's own facts
about the whole game.  :meth:`Summary.to_json` writes one layout::

    {"end_reason": ..., <game facts>, "trajectory": [{indicator: value}, ...],
     "seats": [{"seat": 0, "role": ..., "won": ..., <seat facts>}, ...]}

with ``trajectory``, ``seats``, ``role`` and ``won`` left out when a game has none.
:meth:`Summary.from_json` reads it back; it also reads the layout of records written before
this type (top-level ``roles`` and ``trajectories``, a seat's role named ``objective``), so
that stored records keep their roles and indicators.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.errors import RecordError
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class

SEAT_KEYS = ("seat", "role", "won")

SUMMARY_KEYS = ("end_reason", "trajectory", "seats")


@dataclass(frozen=True)
class SeatSummary:
    """One seat at the end: its role in reports (``None``: the game names none), whether it
    won (``None``: not said) and the game's own facts about it."""

    seat: int
    role: str | None = None
    won: bool | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat}
        if self.role is not None:
            data["role"] = self.role
        if self.won is not None:
            data["won"] = self.won
        data.update(self.facts)
        return data


@dataclass(frozen=True)
class Summary:
    """Facts about a (final) state: ``seats`` and ``trajectory`` are ``None`` when not known."""

    end_reason: str | None
    seats: tuple[SeatSummary, ...] | None = None
    trajectory: tuple[Mapping[str, float], ...] | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"end_reason": self.end_reason, **self.facts}
        if self.trajectory is not None:
            data["trajectory"] = [dict(point) for point in self.trajectory]
        if self.seats is not None:
            data["seats"] = [seat.to_json() for seat in self.seats]
        return data

    def roles(self) -> list[str] | None:
        """One role per seat, or ``None`` unless every seat has one."""
        if not self.seats or any(seat.role is None for seat in self.seats):
            return None
        return [str(seat.role) for seat in self.seats]

    def trajectories(self) -> dict[str, list[float]]:
        """Indicator name -> one value per round (empty when there are none)."""
        rounds = self.trajectory or ()
        names = sorted({name for point in rounds for name in point})
        return {name: [float(point[name]) for point in rounds if name in point] for name in names}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Summary:
        """The summary written by :meth:`to_json` (or in the earlier layout); :class:`RecordError` if malformed."""
        if not isinstance(data, Mapping):
            raise RecordError("a summary is a JSON object")
        data = _current_layout(data)
        end_reason = data.get("end_reason")
        if end_reason is not None and not isinstance(end_reason, str):
            raise RecordError(f"end_reason must be a string or null, got {end_reason!r}")
        seats = data.get("seats")
        trajectory = data.get("trajectory")
        return cls(
            end_reason=end_reason,
            seats=None if seats is None else tuple(_seat(i, s) for i, s in enumerate(_listed(seats, "seats"))),
            trajectory=None if trajectory is None else tuple(_point(p) for p in _listed(trajectory, "trajectory")),
            facts={k: v for k, v in data.items() if k not in SUMMARY_KEYS},
        )


def _listed(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list")
    return value


def _seat(index: int, data: Any) -> SeatSummary:
    if not isinstance(data, Mapping):
        raise RecordError("a seat's summary is a JSON object")
    seat, role, won = data.get("seat", index), data.get("role"), data.get("won")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RecordError(f"a seat's number must be an integer, got {seat!r}")
    if role is not None and not isinstance(role, str):
        raise RecordError(f"a seat's role must be a string, got {role!r}")
    if won is not None and not isinstance(won, bool):
        raise RecordError(f"won must be true or false, got {won!r}")
    return SeatSummary(seat, role, won, {k: v for k, v in data.items() if k not in SEAT_KEYS})


def _point(data: Any) -> dict[str, float]:
    if not isinstance(data, Mapping) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in data.values()
    ):
        raise RecordError("a trajectory point maps indicator names to numbers")
    return dict(data)


def _current_layout(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The earlier layout as the current one: top-level ``roles`` into the seats, the
    ``trajectories`` columns into rounds, a seat's ``objective`` as its role."""
    data = dict(data)
    roles = data.pop("roles", None)
    if isinstance(roles, list) and "seats" not in data:
        data["seats"] = [{"seat": i, "role": None if role is None else str(role)} for i, role in enumerate(roles)]
    columns = data.pop("trajectories", None)
    if isinstance(columns, Mapping) and "trajectory" not in data:
        length = max((len(v) for v in columns.values() if isinstance(v, list)), default=0)
        data["trajectory"] = [{k: v[i] for k, v in columns.items() if i < len(v)} for i in range(length)]
    if isinstance(data.get("seats"), list):
        data["seats"] = [
            {**s, "role": str(s["objective"])} if isinstance(s, Mapping) and "role" not in s and "objective" in s else s
            for s in data["seats"]
        ]
    return data


def end_reason_words(game_id: str, reason: str) -> str:
    """``reason`` (a summary's ``end_reason``) in the game's words with the code after it, as the
    rows and records name it (``the turn limit: nobody wins (truncated)``); the code alone where
    the game has no words for it."""
    if game_id not in available_games():
        return reason
    found = manifest_of(game_class(game_id)).end_reasons
    words: Mapping[str, str] = load(found) if found else {}
    return f"{words[reason]} ({reason})" if reason in words else reason
