"""The JSON Schemas of Shadowlord! observations, written from the observation's allow-lists and
the rulebook's task types (run by hand after changing either; ``test_schemas.py`` checks that
the shipped files are up to date):

python -m tests.games.shadowlord.make_schemas   (from the repository root, src on the path)
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from shadowtable.core.kernel import Decision, task_kind
from shadowtable.core.rules_help import load_rules_help
from shadowtable.games.shadowlord import observe
from shadowtable.games.shadowlord.rules import RULEBOOK
from shadowtable.games.shadowlord.rules.voting import MOTIONS

SCHEMAS = Path(__file__).resolve().parents[3] / "src" / "shadowtable" / "games" / "shadowlord" / "data" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
JSON_TYPES = {"int": "integer", "bool": "boolean", "str": "string"}


def json_type(annotation: Any) -> str:
    """The JSON type of a task field: its annotation is a string (``from __future__ import
    annotations``), or the type itself in the compiled build."""
    return JSON_TYPES[annotation if isinstance(annotation, str) else annotation.__name__]


INT: dict[str, Any] = {"type": "integer"}
INTS: dict[str, Any] = {"type": "array", "items": INT}
CARDS: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0},
    "minItems": 5,
    "maxItems": 5,
    "description": "a count per Power Card value (0, 2, 4, 7, 10)",
}


def obj(properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    """An object with exactly ``properties`` (all required, nothing else allowed)."""
    out: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }
    if description:
        out["description"] = description
    return out


def nullable(ref: str) -> dict[str, Any]:
    return {"anyOf": [{"type": "null"}, {"$ref": ref}]}


def task_schema() -> dict[str, Any]:
    """A task as ``Task.to_json()``: its kind and its fields (the names any task kind has; which
    fields a kind has is checked when a state is rebuilt, by ``Rulebook.task_from_json``)."""
    props: dict[str, Any] = {}
    for task_type in RULEBOOK.handlers:
        for f in fields(task_type):
            props[f.name] = {"type": json_type(f.type)}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["task"],
        "properties": {"task": {"enum": [task_kind(t) for t in RULEBOOK.handlers]}, **dict(sorted(props.items()))},
        "description": "a pending task: {task: kind, ...its fields}",
    }


def shown_fields() -> dict[str, Any]:
    """Every field a pending task may show, with its JSON type."""
    out: dict[str, Any] = {}
    for task_type, handler in RULEBOOK.handlers.items():
        types = {f.name: json_type(f.type) for f in fields(task_type)}
        for name in getattr(handler, "shown", ()):
            out[name] = {"type": types[name]}
    return dict(sorted(out.items()))


def definitions() -> dict[str, Any]:
    kinds = [task_kind(t) for t in RULEBOOK.handlers]
    rules = sorted({h.rule for h in RULEBOOK.handlers.values() if isinstance(h, Decision)})
    lists: dict[str, Any] = {name: INTS for name in observe.PUBLIC_LISTS}
    scalars: dict[str, Any] = {name: INT for name in observe.PUBLIC_SCALARS}
    scalars["end"] = {"type": "string", "description": "why the game ended ('' while it runs)"}
    duel = obj(
        {
            "idx": INT,
            "figs": INTS,
            "drawn": {"type": "array", "items": INTS, "minItems": 2, "maxItems": 2},
            "count": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2},
        },
        "a Duel: its figures, the cards drawn face up per side and how many cards each side committed",
    )
    battle = obj(
        {
            "plan": {
                "type": "array",
                "items": {
                    "type": "array",
                    "prefixItems": [INT, INT, INT, {"enum": ["normal", "loose", "fort"]}, INT],
                    "items": False,
                    "minItems": 5,
                },
                "description": "per Battle: galaxy, attacker colour, defender colour, kind, "
                "status (0 due, 1 off, 2 fought)",
            },
            "allies": {"type": "array", "items": {"type": "array", "items": INTS, "minItems": 2, "maxItems": 2}},
            "queue": INTS,
            "last": nullable("#/$defs/last_duel"),
            "duel": nullable("#/$defs/duel"),
            "ready": {"type": "array", "items": {"$ref": "#/$defs/duel"}},
        }
    )
    last_duel = obj(
        {
            "figs": INTS,
            "totals": INTS,
            "winner": INT,
            "cards": {"type": "array", "items": INTS},
        },
        "the last Duel resolved, revealed",
    )
    offer = obj(
        {
            "from": INT,
            "to": INT,
            "give": CARDS,
            "want": CARDS,
            "chars": INTS,
            "release": INTS,
            "ships": INTS,
            "perm_give": INT,
            "perm_want": INT,
            "truce": INTS,
            "items": INT,
        },
        "the open offer (public to the table)",
    )
    vote = obj(
        {
            "kind": {"enum": sorted(MOTIONS)},
            "a": INT,
            "b": INT,
            "voters": INTS,
            "votes": {
                "type": "array",
                "items": {"enum": [observe.HIDDEN_VOTE, -1, 0, 1]},
                "description": "-1 not yet cast; another seat's cast vote shows as -2",
            },
        }
    )
    last_vote = obj(
        {
            "kind": {"enum": sorted(MOTIONS)},
            "a": INT,
            "b": INT,
            "cur": INT,
            "at": {**INT, "description": "where the subject figure stood when the vote closed; -1 for a seat"},
            "voters": INTS,
            "votes": {
                "type": "array",
                "items": {"enum": [observe.HIDDEN_VOTE, -1, 0, 1]},
                "description": "-1 not cast; another seat's vote shows as -2, the reader's own as cast",
            },
            "passed": {"type": "boolean"},
        },
        "the last closed vote",
    )
    public = obj(
        {
            **lists,
            **scalars,
            "deck_count": INT,
            "discard_count": INT,
            "hand_counts": INTS,
            "portrait_counts": INTS,
            "offer": nullable("#/$defs/offer"),
            "vote": nullable("#/$defs/vote"),
            "last_vote": nullable("#/$defs/last_vote"),
            "battle": nullable("#/$defs/battle"),
            "last_duel": nullable("#/$defs/last_duel"),
            "tasks": {
                "type": "array",
                "items": {"$ref": "#/$defs/task"},
                "description": "the pending work, top last (every field of every task is public)",
            },
        }
    )
    pending = obj(
        {
            "seat": {"type": ["integer", "null"], "minimum": -1, "description": "-1 at a chance node, null once over"},
            "kind": {"enum": [*kinds, "over"]},
            "prompt": {"type": "string"},
            "rule": {"enum": ["", *rules]},
            "data": {"type": "object", "additionalProperties": False, "properties": shown_fields()},
        },
        "who must decide what now (Kernel.pending)",
    )
    return {
        "public": public,
        "pending": pending,
        "offer": offer,
        "vote": vote,
        "last_vote": last_vote,
        "battle": battle,
        "duel": duel,
        "last_duel": last_duel,
        "task": task_schema(),
    }


def observation_schema(kind: str) -> dict[str, Any]:
    """The schema of a ``kind`` (``"seat"`` or ``"spectator"``) observation."""
    seat = kind == "seat"
    commit: dict[str, Any] = (
        {"type": "array", "items": {"anyOf": [{"type": "null"}, CARDS]}, "minItems": 2, "maxItems": 2}
        if seat
        else {"type": "array", "items": {"type": "null"}, "minItems": 2, "maxItems": 2}
    )
    private = obj(
        {
            "hand": CARDS if seat else {"type": "null"},
            "portraits": {
                "type": "object",
                "patternProperties": {"^[0-9]+$": CARDS},
                "additionalProperties": False,
                **({} if seat else {"maxProperties": 0}),
            },
            "commit": commit,
            "ready_commit": {"type": "array", "items": commit},
        },
        "the seat's Attack Hand, the cards under its portraits, the cards it committed to Duels"
        if seat
        else "a spectator sees no private card",
    )
    schema: dict[str, Any] = {
        "$schema": DRAFT,
        "title": f"Shadowlord! observation ({kind})",
        **obj(
            {
                "seat": {"type": "integer", "minimum": 0, "maximum": 3} if seat else {"type": "null"},
                "public": {"$ref": "#/$defs/public"},
                "private": private,
                "pending": {"$ref": "#/$defs/pending"},
                "outcome": {"type": ["string", "null"]},
            }
        ),
        "$defs": definitions(),
    }
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(observation_schema(kind), indent=2) + "\n"


def main() -> None:
    assert load_rules_help("shadowtable.games.shadowlord")
    SCHEMAS.mkdir(parents=True, exist_ok=True)
    for kind in ("seat", "spectator"):
        (SCHEMAS / f"observation-{kind}.json").write_text(schema_text(kind))


if __name__ == "__main__":
    main()
