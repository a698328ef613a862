"""Typed observations: each game's JSON reads into its frozen dataclasses and writes back
unchanged, the types agree with the shipped JSON Schemas field by field, and bad input raises
:class:`StateFormatError`."""

from __future__ import annotations

import dataclasses
import json
import random
from importlib import resources
from typing import Any

import pytest

from shadowtable.core import TERMINAL, StateFormatError, make
from shadowtable.core.jsondata import read, schema_mismatches
from shadowtable.core.observation import ENVELOPE, Observation
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetPublic
from shadowtable.games.shadowlord.view import LordObservation, LordPublic, Offer, PlannedBattle

VIEWS: dict[str, type[Observation[Any, Any, Any]]] = {
    "shadow-planet": PlanetObservation,
    "shadowlord": LordObservation,
}
PACKAGES = {"shadow-planet": "shadowtable.games.shadow_planet", "shadowlord": "shadowtable.games.shadowlord"}


def schema(game_id: str, kind: str) -> dict[str, Any]:
    text = resources.files(PACKAGES[game_id]).joinpath("data", "schemas", f"observation-{kind}.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def observations(game_id: str, players: int, seed: int, every: int = 7) -> list[dict[str, Any]]:
    """Observations (every seat and a spectator) along a random game, the final state included."""
    game = make(game_id, players=players)
    rng = random.Random(seed)
    state, step, found = game.initial_state(), 0, []
    while True:
        over = game.current_player(state) == TERMINAL
        if step % every == 0 or over:
            found += [game.observe(state, seat) for seat in (None, *range(players))]
        if over or step > 4000:
            return found
        if game.current_player(state) < 0:
            actions = [a for a, _ in game.chance_outcomes(state)]
        else:
            actions = game.legal_actions(state)
        state = game.apply(state, rng.choice(actions))
        step += 1


@pytest.mark.parametrize(("game_id", "players", "seed"), [("shadow-planet", 3, 5), ("shadow-planet", 5, 6),
                                                          ("shadowlord", 2, 7), ("shadowlord", 4, 8)])  # fmt: skip
def test_every_observation_reads_typed_and_writes_back_unchanged(game_id: str, players: int, seed: int) -> None:
    view = VIEWS[game_id]
    seen_outcome = False
    for data in observations(game_id, players, seed):
        typed = view.from_json(data)
        assert typed.to_json() == data
        assert typed.seat == data["seat"] and typed.pending.kind == data["pending"]["kind"]
        assert typed.pending.seat == data["pending"]["seat"]
        assert typed.deciding == (data["seat"] is not None and data["pending"]["seat"] == data["seat"])
        seen_outcome |= typed.outcome is not None
        assert typed == view.from_json(json.loads(json.dumps(data)))
    assert seen_outcome, "the final state was observed"


def test_the_views_are_frozen_and_the_parts_are_typed() -> None:
    data = observations("shadowlord", 3, 1, every=1)[201]  # seat 0
    typed = LordObservation.from_json(data)
    assert isinstance(typed.public, LordPublic) and isinstance(typed.public.owner, tuple)
    assert typed.private.hand is not None and len(typed.private.hand) == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.seat = 2  # type: ignore[misc]
    planet = PlanetObservation.from_json(observations("shadow-planet", 3, 1, every=50)[3])
    assert isinstance(planet.public, PlanetPublic) and planet.public.zones.decks[0].size >= 0
    assert planet.private == tuple(planet.private) and planet.tasks == tuple(planet.tasks)


def test_renamed_and_array_fields_keep_their_wire_names() -> None:
    offer = {"from": 0, "to": 1, "give": [1, 0, 0, 0, 0], "want": [0] * 5, "characters": [], "release": [],
             "ships": [], "permission_give": 0, "permission_want": 0, "truce": [], "items": 1}  # fmt: skip
    typed = read(Offer, offer)
    assert (typed.sender, typed.receiver) == (0, 1)
    battle = read(PlannedBattle, [3, 0, 1, "normal", 0])
    assert (battle.galaxy, battle.attacker, battle.defender, battle.kind, battle.status) == (3, 0, 1, "normal", 0)
    with pytest.raises(StateFormatError):
        read(PlannedBattle, [3, 0, 1, "sideways", 0])


@pytest.mark.parametrize("game_id", sorted(VIEWS))
def test_every_game_writes_the_envelope_layout(game_id: str) -> None:
    for data in observations(game_id, 3, 4, every=60):
        assert list(data) == list(ENVELOPE)
        assert isinstance(data["public"], dict) and isinstance(data["tasks"], list)


@pytest.mark.parametrize("game_id", sorted(VIEWS))
@pytest.mark.parametrize("kind", ["seat", "spectator"])
def test_the_types_agree_with_the_shipped_schema_field_by_field(game_id: str, kind: str) -> None:
    root = schema(game_id, kind)
    view = VIEWS[game_id]
    properties = root["properties"]
    assert set(properties) == set(root["required"]) == set(ENVELOPE)
    found = schema_mismatches(view.PUBLIC, properties["public"], root, "public")
    found += schema_mismatches(view.PRIVATE, properties["private"], root, "private") if kind == "seat" else []
    found += schema_mismatches(view.OUTCOME | None, properties["outcome"], root, "outcome")
    assert found == []


def test_a_schema_that_differs_from_the_types_is_reported() -> None:
    root = schema("shadowlord", "seat")
    public = root["$defs"]["LordPublic"]
    wrong = {**public, "properties": {**public["properties"], "stone": {"type": "string"}}}
    assert any("public.stone" in m for m in schema_mismatches(LordPublic, wrong, root, "public"))
    fewer = {**public, "properties": {k: v for k, v in public["properties"].items() if k != "timer"}}
    assert any("timer" in m for m in schema_mismatches(LordPublic, fewer, root, "public"))
    offer = root["$defs"]["Offer"]
    assert schema_mismatches(Offer, offer, root) == []
    assert schema_mismatches(Offer, {**offer, "required": offer["required"][1:]}, root) != []


@pytest.mark.parametrize("game_id", sorted(VIEWS))
def test_bad_observations_raise_a_typed_error(game_id: str) -> None:
    view = VIEWS[game_id]
    good = observations(game_id, 3, 2, every=40)[4]
    public = good["public"]
    scalar = "round" if game_id == "shadow-planet" else "turn"
    listed = "char_loc" if game_id == "shadow-planet" else "owner"
    bad = [
        [],
        {**good, "seat": "0"},
        {**good, "seat": True},
        {k: v for k, v in good.items() if k != "pending"},
        {**good, "pending": {**good["pending"], "kind": 3}},
        {**good, "extra": 1},
    ]
    for change in ({scalar: True}, {scalar: 1.5}, {listed: [0, None]}, {listed: "0"}):
        changed = {**public, **change}
        bad.append({**good, "public": changed})
    for data in bad:
        with pytest.raises(StateFormatError):
            view.from_json(data)
    assert view.from_json(good).to_json() == good


def test_the_conformance_check_reads_every_observation_into_the_manifest_view(monkeypatch: Any) -> None:
    from shadowtable import testing
    from shadowtable.testing import ConformanceFailure, check_observation_schemas

    game = make("shadowlord", players=2)
    state = game.initial_state()
    check_observation_schemas(game, state, "start")

    class Forgetful(LordObservation):
        def to_json(self) -> dict[str, Any]:
            data = super().to_json()
            del data["public"]["timer"]
            return data

    monkeypatch.setattr(testing, "_typed_view", lambda cls: Forgetful)
    with pytest.raises(ConformanceFailure, match="does not write back"):
        check_observation_schemas(game, state, "start")
    monkeypatch.setattr(testing, "_typed_view", lambda cls: PlanetObservation)
    with pytest.raises(ConformanceFailure, match="does not read into its typed view"):
        check_observation_schemas(game, state, "start")
