"""The shipped observation JSON Schemas are the ones generated from the typed views
(``scripts/generate_schemas.py``), so they cannot drift from the types; the generator closes
every object and narrows a spectator's secret parts."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Literal, NamedTuple

import pytest

from shadowtable.core.jsondata import Schema, json_schema, schema_mismatches

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "generate_schemas.py"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_schemas", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


GENERATOR = generator()
GAMES = {game.package.name: game for game in GENERATOR.games()}


@pytest.mark.parametrize("package", sorted(GAMES))
@pytest.mark.parametrize("kind", GENERATOR.KINDS)
def test_the_shipped_schema_is_the_generated_one(package: str, kind: str) -> None:
    game = GAMES[package]
    shipped = GENERATOR.schema_path(game, kind).read_text("utf-8")
    assert shipped == GENERATOR.schema_text(game, kind), "run: PYTHONPATH=src python scripts/generate_schemas.py"


@pytest.mark.parametrize("package", sorted(GAMES))
@pytest.mark.parametrize("kind", GENERATOR.KINDS)
def test_the_generated_schema_agrees_with_the_types_field_by_field(package: str, kind: str) -> None:
    game = GAMES[package]
    root = json.loads(GENERATOR.schema_text(game, kind))
    properties = root["properties"]
    assert set(root["required"]) == set(properties) == {"seat", "pending", "public", "private", "tasks", "outcome"}
    assert schema_mismatches(game.view.PUBLIC, properties["public"], root, "public") == []
    assert schema_mismatches(game.view.OUTCOME | None, properties["outcome"], root, "outcome") == []
    if kind == "seat":
        assert schema_mismatches(game.view.PRIVATE, properties["private"], root, "private") == []


class Pair(NamedTuple):
    left: int
    kind: Literal["a", "b"]


@dataclass(frozen=True)
class Inner:
    count: int
    known: tuple[int, ...] = field(metadata={"secret": True})
    chosen: int | None = field(metadata={"secret": True})


@dataclass(frozen=True)
class Outer:
    sender: int = field(metadata={"json": "from"})
    inner: Inner
    pairs: tuple[Pair, ...]
    names: dict[str, str]
    extra: int | None = field(default=None, metadata={"optional": True})


def test_a_dataclass_becomes_a_closed_object_and_a_spectator_sees_no_secret() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    defs: dict[str, Schema] = {}
    root = {**json_schema(Outer, defs), "$defs": defs}
    assert defs["Outer"]["required"] == ["from", "inner", "pairs", "names"]
    assert all(d.get("additionalProperties") is False for d in (defs["Outer"], defs["Inner"]))
    check = jsonschema.Draft202012Validator(root)
    good = {"from": 1, "inner": {"count": 2, "known": [3], "chosen": None}, "pairs": [[1, "a"]], "names": {}}
    assert check.is_valid(good) and check.is_valid({**good, "extra": 4})
    for bad in ({**good, "sender": 1}, {**good, "pairs": [[1, "c"]]}, {**good, "pairs": [[1, "a", 2]]},
                {**good, "extra": None}, {**good, "names": {"x": 1}}):  # fmt: skip
        assert not check.is_valid(bad)
    spectator_defs: dict[str, Schema] = {}
    spectator = jsonschema.Draft202012Validator({**json_schema(Outer, spectator_defs, spectator=True),
                                                 "$defs": spectator_defs})  # fmt: skip
    hidden = {**good, "inner": {"count": 2, "known": [], "chosen": None}}
    assert spectator.is_valid(hidden) and not spectator.is_valid(good)
    assert not spectator.is_valid({**hidden, "inner": {"count": 2, "known": [], "chosen": 3}})
