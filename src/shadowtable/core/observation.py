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

import dataclasses
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from shadowtable.core import jsondata
from shadowtable.core.errors import StateFormatError
from shadowtable.core.game import Observation as JsonObservation
from shadowtable.core.jsondata import NULL, Schema
from shadowtable.core.kernel import Automatic, Decision, Pending, Rulebook, Task, task_kind

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
    def prepare(cls) -> None:
        """Build the readers :meth:`from_json` uses now (each is built once per type, on first use)."""
        for part in (cls.PUBLIC, cls.PRIVATE, cls.OUTCOME):
            jsondata.reader(part)

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

    @classmethod
    def from_game_json(cls: type[Self], data: JsonObservation) -> Self:
        """The typed view of an observation the game itself wrote (``game.observe``): the value
        :meth:`from_json` builds, without its checks (for hot paths such as the RL encoders)."""
        envelope = data
        pending, outcome = envelope["pending"], envelope["outcome"]
        return cls(
            seat=envelope["seat"],
            pending=Pending(
                pending["seat"], pending["kind"], pending["prompt"], pending["rule"], dict(pending["data"])
            ),
            public=jsondata.trusted_reader(cls.PUBLIC)(envelope["public"]),
            private=jsondata.trusted_reader(cls.PRIVATE)(envelope["private"]),
            tasks=tuple(dict(t) for t in envelope["tasks"]),
            outcome=None if outcome is None else jsondata.trusted_reader(cls.OUTCOME)(outcome),
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


# -- the JSON Schemas of an observation ---------------------------------------------------------------
DRAFT = "https://json-schema.org/draft/2020-12/schema"


ObservationType = type[Observation[Any, Any, Any]]
"""A game's typed observation class."""


def observation_schema(
    view: ObservationType,
    rulebook: Rulebook,
    *,
    spectator: bool,
    title: str,
    secret_task_fields: Mapping[type[Task], Iterable[str]] | None = None,
) -> Schema:
    """The JSON Schema of ``view``'s JSON for one seat or a spectator, generated from its types:
    ``public``, ``private`` and ``outcome`` from ``view.PUBLIC``, ``PRIVATE`` and ``OUTCOME``
    (:func:`~shadowtable.core.jsondata.json_schema`; a spectator's ``private`` holds nothing),
    ``pending`` and ``tasks`` from ``rulebook``'s task types and handlers.  A field named in
    ``secret_task_fields`` may be ``null`` (a secret the reader does not know)."""
    defs: dict[str, Schema] = {}
    tasks = task_schemas(rulebook, secret_task_fields or {})
    private = jsondata.hidden_schema(view.PRIVATE) if spectator else jsondata.json_schema(view.PRIVATE, defs)
    properties: dict[str, object] = {
        "seat": NULL if spectator else {"type": "integer", "minimum": 0},
        "pending": {"oneOf": pending_schemas(rulebook)},
        "public": jsondata.json_schema(view.PUBLIC, defs, spectator=spectator),
        "private": private,
        "tasks": {"type": "array", "items": {"oneOf": [{"$ref": f"#/$defs/task_{kind}"} for kind in tasks]}},
        "outcome": {"anyOf": [jsondata.json_schema(view.OUTCOME, defs), NULL]},
    }
    defs.update((f"task_{kind}", schema) for kind, schema in tasks.items())
    return {
        "$schema": DRAFT,
        "title": title,
        "type": "object",
        "properties": properties,
        "required": list(ENVELOPE),
        "additionalProperties": False,
        "$defs": dict(sorted(defs.items())),
    }


def _closed(properties: dict[str, Schema]) -> Schema:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _task_fields(task_type: type[Task], secret: Iterable[str]) -> dict[str, Schema]:
    """The JSON Schema of each field of a task type (``null`` allowed for a secret one)."""
    hints = typing.get_type_hints(task_type)
    hidden = set(secret)
    found: dict[str, Schema] = {}
    for f in dataclasses.fields(task_type):
        schema = jsondata.json_schema(hints[f.name], {})
        found[f.name] = {"anyOf": [schema, NULL]} if f.name in hidden else schema
    return found


def task_schemas(rulebook: Rulebook, secret: Mapping[type[Task], Iterable[str]]) -> dict[str, Schema]:
    """Task kind -> the schema of its JSON (``{"task": kind, ...its fields}``)."""
    return {
        task_kind(t): _closed({"task": {"const": task_kind(t)}, **_task_fields(t, secret.get(t, ()))})
        for t in rulebook.handlers
    }


def pending_schemas(rulebook: Rulebook) -> list[Schema]:
    """One schema per kind of :class:`Pending` (each decision and chance node, and ``over``):
    its kind, its rule and the fields its handler shows."""
    branches = []
    for t, handler in rulebook.handlers.items():
        if isinstance(handler, Automatic):
            continue
        fields = _task_fields(t, ())
        data = _closed({name: fields[name] for name in handler.shown})
        head: dict[str, Schema]
        if isinstance(handler, Decision):
            head = {"seat": {"type": "integer", "minimum": 0}, "prompt": {"const": handler.prompt}}
            rule = handler.rule
        else:
            head, rule = {"seat": {"const": -1}, "prompt": {"const": "chance decides"}}, ""
        branches.append(_closed({**head, "kind": {"const": task_kind(t)}, "rule": {"const": rule}, "data": data}))
    over: dict[str, Schema] = {
        "seat": NULL,
        "kind": {"const": "over"},
        "prompt": {"const": "the game is over"},
        "rule": {"const": ""},
    }
    branches.append(_closed({**over, "data": _closed({})}))
    return branches
