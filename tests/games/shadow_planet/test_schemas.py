"""The shipped observation JSON Schemas: closed objects, and every observation of random games
(each seat and a spectator) valid against them (``tests/games/test_schemas.py`` checks they
are the generated ones)."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

from shadowtable.core import TERMINAL, make

jsonschema = pytest.importorskip("jsonschema")


def shipped(name: str) -> dict[str, Any]:
    text = resources.files("shadowtable.games.shadow_planet").joinpath("data", "schemas", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node or "patternProperties" in node:
            found.append(node)
        for value in node.values():
            found += objects(value)
    elif isinstance(node, list):
        for value in node:
            found += objects(value)
    return found


@pytest.mark.parametrize(
    ("name", "spectator"), [("observation-seat.json", False), ("observation-spectator.json", True)]
)
def test_shipped_schema_is_a_closed_draft_2020_12_schema(name: str, spectator: bool) -> None:
    schema = shipped(name)
    assert (schema["properties"]["seat"] == {"type": "null"}) == spectator
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    found = objects(schema)
    assert len(found) > 50 and all(o.get("additionalProperties") is False for o in found)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_observations_of_random_games_are_valid(players: int, seed: int) -> None:
    seat_check = jsonschema.Draft202012Validator(shipped("observation-seat.json"))
    spectator_check = jsonschema.Draft202012Validator(shipped("observation-spectator.json"))
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    state, step, kinds = game.initial_state(), 0, set()
    while True:
        over = game.current_player(state) == TERMINAL
        if step % 13 == 0 or over:
            spectator_check.validate(game.observe(state, None))
            for seat in range(players):
                observation = game.observe(state, seat)
                seat_check.validate(observation)
                kinds.add(observation["pending"]["kind"])
        if over:
            break
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
        step += 1
    assert "over" in kinds and len(kinds) > 5


def test_a_field_outside_the_schema_is_refused() -> None:
    game = make("shadow-planet", players=3)
    observation = game.observe(game.initial_state(), 0)
    check = jsonschema.Draft202012Validator(shipped("observation-seat.json"))
    check.validate(observation)
    for broken in ({**observation, "mode": 3}, {**observation, "pending": {**observation["pending"], "extra": 1}}):
        assert not check.is_valid(broken)
