"""The typed observation: one envelope for every game around its own public and private parts.

``Observation`` holds who looks (``seat``, ``None`` for a spectator), who must decide what
(``pending``), what every seat sees (``public``), what only this seat sees (``private``), the
pending work (``tasks``, each as its JSON with secret fields ``None``) and why the game ended
(``outcome``, ``None`` while it runs).  A game subclasses it once, naming its part types
(``PUBLIC``, ``PRIVATE``, ``OUTCOME``: frozen dataclasses or plain JSON types read by
:mod:`shadowtable.core.jsondata`).  ``game.observe`` stays plain JSON (the wire) in the
envelope's own layout (:data:`ENVELOPE`); ``<Game>Observation.from_json(game.observe(...))`` is
the typed view of the same facts and ``to_json`` gives the same JSON back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from shadowtable.core import jsondata
from shadowtable.core.errors import StateFormatError
from shadowtable.core.kernel import Pending

PublicT = TypeVar("PublicT")
PrivateT = TypeVar("PrivateT")
OutcomeT = TypeVar("OutcomeT")
Self = TypeVar("Self", bound="Observation[Any, Any, Any]")

ENVELOPE = ("seat", "pending", "public", "private", "tasks", "outcome")
"""The envelope's fields, in its own JSON layout."""


@dataclass(frozen=True)
class Observation(Generic[PublicT, PrivateT, OutcomeT]):
    """What one seat (``None``: a spectator) may know of a state, typed."""

    PUBLIC: ClassVar[Any] = Any
    PRIVATE: ClassVar[Any] = Any
    OUTCOME: ClassVar[Any] = Any

    seat: int | None
    pending: Pending
    public: PublicT
    private: PrivateT
    tasks: tuple[Mapping[str, Any], ...]
    outcome: OutcomeT | None

    @property
    def deciding(self) -> bool:
        """Whether the observing seat is the one to decide now."""
        return self.seat is not None and self.pending.seat == self.seat

    def to_json(self) -> dict[str, Any]:
        """The game's JSON observation (what ``game.observe`` returns): ``seat``, ``pending``,
        ``public``, ``private``, ``tasks``, ``outcome``."""
        cls = type(self)
        return {
            "seat": self.seat,
            "pending": self.pending.to_json(),
            "public": jsondata.writer(cls.PUBLIC)(self.public),
            "private": jsondata.writer(cls.PRIVATE)(self.private),
            "tasks": [dict(task) for task in self.tasks],
            "outcome": None if self.outcome is None else jsondata.writer(cls.OUTCOME)(self.outcome),
        }

    @classmethod
    def from_json(cls: type[Self], data: Any) -> Self:
        """The typed view of a game's JSON observation; :class:`StateFormatError` if it does not fit."""
        if not isinstance(data, dict):
            raise StateFormatError(f"an observation is a JSON object, not {type(data).__name__}")
        if set(data) != set(ENVELOPE):
            raise StateFormatError(f"an observation envelope has the fields {ENVELOPE}, got {sorted(data)}")
        seat = data["seat"]
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise StateFormatError(f"seat must be an integer or null, got {seat!r}")
        tasks = data["tasks"]
        if not isinstance(tasks, list) or not all(isinstance(t, dict) and "task" in t for t in tasks):
            raise StateFormatError("tasks must be a list of task objects")
        return cls(
            seat=seat,
            pending=pending_from_json(data["pending"]),
            public=jsondata.reader(cls.PUBLIC)(data["public"]),
            private=jsondata.reader(cls.PRIVATE)(data["private"]),
            tasks=tuple(dict(t) for t in tasks),
            outcome=None if data["outcome"] is None else jsondata.reader(cls.OUTCOME)(data["outcome"]),
        )


def pending_from_json(data: Any) -> Pending:
    """A :class:`Pending` from its JSON; :class:`StateFormatError` if it does not fit."""
    names = {"seat", "kind", "prompt", "rule", "data"}
    if not isinstance(data, dict) or set(data) != names:
        raise StateFormatError(f"pending is an object with the fields {sorted(names)}")
    seat, kind, prompt, rule, values = (data[name] for name in ("seat", "kind", "prompt", "rule", "data"))
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise StateFormatError(f"pending seat must be an integer or null, got {seat!r}")
    if not (isinstance(kind, str) and isinstance(prompt, str) and isinstance(rule, str) and isinstance(values, dict)):
        raise StateFormatError("pending kind, prompt and rule are strings and data an object")
    return Pending(seat=seat, kind=kind, prompt=prompt, rule=rule, data=dict(values))
