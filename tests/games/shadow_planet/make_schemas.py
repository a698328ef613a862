"""Regenerate the observation JSON Schemas (after a change to the observation or to a task):

PYTHONPATH=src python -m tests.games.shadow_planet.make_schemas   (from the repository root)

``observation-seat.json`` and ``observation-spectator.json`` in the package's ``data/schemas``
(draft 2020-12, ``additionalProperties: false`` on every object).  The ``pending`` and ``tasks``
parts are built from the task dataclasses and ``RULEBOOK`` (each task kind, its fields, which are
secret, which a decision shows); ``test_schemas.py`` checks the shipped files are up to date.
"""

from __future__ import annotations

import json
import typing
from dataclasses import fields
from pathlib import Path
from typing import Any

from shadowtable.core.kernel import Automatic, Chance, Decision, task_kind
from shadowtable.games.shadow_planet import tasks
from shadowtable.games.shadow_planet.observe import PUBLIC
from shadowtable.games.shadow_planet.rules import RULEBOOK

SCHEMAS = Path(__file__).resolve().parents[3] / "src" / "shadowtable" / "games" / "shadow_planet" / "data" / "schemas"
INT: dict[str, Any] = {"type": "integer"}
INTS: dict[str, Any] = {"type": "array", "items": INT}
MAYBE_INT: dict[str, Any] = {"type": ["integer", "null"]}


def obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """A closed object: these properties, all required unless said otherwise."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def ints(size: int | None = None, item: dict[str, Any] = INT) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": item}
    if size is not None:
        out.update(minItems=size, maxItems=size)
    return out


def field_schema(annotation: Any) -> dict[str, Any]:
    if annotation is int:
        return INT
    if typing.get_origin(annotation) is tuple or annotation is tuple:  # the compiled build keeps no parameters
        return INTS
    raise TypeError(f"no schema for task field type {annotation!r}")


def task_fields(task_type: type[Any]) -> dict[str, dict[str, Any]]:
    hints = typing.get_type_hints(task_type, vars(tasks))
    secret = tasks.SECRET.get(task_type, {})
    out = {}
    for f in fields(task_type):
        schema = field_schema(hints[f.name])
        out[f.name] = {"type": ["integer", "null"]} if f.name in secret else schema
    return out


def task_defs() -> dict[str, Any]:
    return {f"task_{task_kind(t)}": obj({"task": {"const": task_kind(t)}, **task_fields(t)}) for t in RULEBOOK.handlers}


def pending_schema() -> dict[str, Any]:
    branches = []
    for t, handler in RULEBOOK.handlers.items():
        if isinstance(handler, Automatic):
            continue
        known = task_fields(t)
        data = obj({name: known[name] for name in handler.shown})
        if isinstance(handler, Decision):
            head = {"seat": INT, "kind": {"const": task_kind(t)}, "prompt": {"const": handler.prompt}}
            branches.append(obj({**head, "rule": {"const": handler.rule}, "data": data}))
        elif isinstance(handler, Chance):
            head = {"seat": {"const": -1}, "kind": {"const": task_kind(t)}, "prompt": {"const": "chance decides"}}
            branches.append(obj({**head, "rule": {"const": ""}, "data": data}))
    over = {"seat": {"type": "null"}, "kind": {"const": "over"}, "prompt": {"const": "the game is over"}}
    branches.append(obj({**over, "rule": {"const": ""}, "data": obj({})}))
    assert all(secret not in b["properties"]["data"]["properties"] for b in branches for secret in ("given", "taken"))
    return {"oneOf": branches}


def outcome_schema() -> dict[str, Any]:
    seat_row = obj(
        {
            "seat": INT,
            "objective": {"type": "string"},
            "role": {"enum": ["alien", "astronaut", "guardian"]},
            "identity": {"type": "string"},
            "markers": ints(5),
            "won": {"type": "boolean"},
            "why": {"type": "string"},
        }
    )
    counts = ("astronaut_repair", "alien_get", "alien_attack", "final_threat", "astronaut_attack")
    properties: dict[str, Any] = {
        "reason": {"enum": ["threat", "repair", "countdown", "none"]},
        "indicators": obj({"countdown": INT, "repair": INT, "threat": INT}),
        "roles": {
            "type": "object",
            "patternProperties": {"^.+$": {"enum": ["alien", "astronaut", "guardian"]}},
            "additionalProperties": False,
        },
        "phantom_guardian": {"type": ["string", "null"]},
        **{name: INT for name in counts},
        "why": {"type": "string"},
        "winning_role": {"enum": ["alien", "astronaut", "guardian"]},
        "winners": INTS,
        "seats": {"type": "array", "items": seat_row},
    }
    return obj(properties, [name for name in properties if name not in counts])


def table_schema() -> dict[str, Any]:
    known: dict[str, Any] = {
        "n": {"type": "integer", "minimum": 3, "maximum": 5},
        "trajectory": {"type": "array", "items": ints(3)},
        "pool": ints(5),
        "char_loc": ints(6),
        "char_section": ints(6),
        "controller": ints(6),
        "revealed": ints(5),
        "last_reveal": ints(5),
        "auras": {"type": "array", "items": ints(3)},
    }
    lists = ("sheets", "section_markers", "seat_char", "vehicle_loc", "identity", "reveal_cards")
    return {name: known.get(name, INTS if name in lists else INT) for name in PUBLIC}


def zones_schema() -> dict[str, Any]:
    deck = obj({"size": INT, "top": ints(item=MAYBE_INT), "rest_known": INTS})
    gear = obj({"size": INT, "known": INTS})
    return obj(
        {
            "decks": ints(5, deck),
            "temple": ints(item=MAYBE_INT),
            "discard": INTS,
            "removed": INT,
            "gear": ints(6, gear),
            "played": ints(6, INTS),
        }
    )


def observation_schema(spectator: bool) -> dict[str, Any]:
    who = "a spectator" if spectator else "one seat"
    file = "observation-spectator.json" if spectator else "observation-seat.json"
    draft = obj(
        {
            "random": {"type": "null"} if spectator else MAYBE_INT,
            "picks": ints(item={"type": "null"} if spectator else MAYBE_INT),
            "received": {"type": "null"} if spectator else {"type": ["array", "null"], "items": INT},
        }
    )
    properties: dict[str, Any] = {
        "seat": {"type": "null"} if spectator else {"type": "integer", "minimum": 0, "maximum": 4},
        "pending": pending_schema(),
        **table_schema(),
        "objectives": ints(item=MAYBE_INT),
        "removed_objectives": INT,
        "zones": zones_schema(),
        "private": {"type": "array", "maxItems": 0} if spectator else INTS,
        "draft": draft,
        "tasks": {"type": "array", "items": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in task_defs()]}},
        "outcome": outcome_schema(),
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://shadowtable.example/schemas/shadow-planet/{file}",
        "title": f"The Shadow Planet: the observation of {who}",
        "description": "game.observe(state, seat), see docs/games/shadow-planet.md; 'outcome' once the game is over.",
        **obj(properties, [name for name in properties if name != "outcome"]),
        "$defs": task_defs(),
    }
    return schema


def main() -> None:
    SCHEMAS.mkdir(parents=True, exist_ok=True)
    for name, spectator in (("observation-seat.json", False), ("observation-spectator.json", True)):
        (SCHEMAS / name).write_text(json.dumps(observation_schema(spectator), indent=1) + "\n")
        print("wrote", SCHEMAS / name)


if __name__ == "__main__":
    main()
