"""The whole check of a lab spec: every bad field is named before any game is played."""

from __future__ import annotations

from typing import Any

import pytest
from tests.lab.helpers import builtin_content, planet_spec

from shadowtable.lab.spec import MAX_CONTENT_BYTES, MAX_GAMES, LabSpec, LabSpecError, Probe, Variant, check_spec


def test_a_good_spec_is_read_whole_and_round_trips() -> None:
    data = planet_spec(
        variants=[{"name": "baseline", "options": {}}, {"name": "no clamp", "options": {"alien_threat_clamp": False}}],
        probes=[{"role": "alien", "kind": "play a card from your hand"}],
    )
    spec = check_spec(data)
    assert spec.variants[1] == Variant("no clamp", {"alien_threat_clamp": False}, None)
    assert spec.probes == (Probe("alien", "play a card from your hand"),)
    assert LabSpec.from_json(spec.to_json()) == spec


def test_shadowlord_modified_two_players_and_seat_probes_are_accepted() -> None:
    spec = check_spec(
        {
            "game": "shadowlord",
            "players": 2,
            "variants": [{"name": "modified", "options": {"modified": True}}],
            "bots": ["level1", "level0"],
            "games": 1,
            "seed": 0,
            "probes": [{"role": "seat 1", "kind": "propose a Truce"}],
        }
    )
    assert spec.players == 2 and spec.probes[0].role == "seat 1"


def _content_with(game: str, path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    content = builtin_content(game)
    node: Any = content
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return content


def _variants(*variants: dict[str, Any]) -> dict[str, Any]:
    return planet_spec(variants=list(variants))


BAD_THREAT = _content_with("shadow-planet", ("indicators", "threat", "start"), "two")

BAD: list[tuple[str, dict[str, Any], str]] = [
    ("unknown game", planet_spec(game="chess"), "game"),
    ("too many players", planet_spec(players=6), "players"),
    ("players as text", planet_spec(players="3"), "players"),
    ("unknown field", {**planet_spec(), "colour": "red"}, "colour"),
    ("missing games", {k: v for k, v in planet_spec().items() if k != "games"}, "games"),
    ("no variants", planet_spec(variants=[]), "variants"),
    ("five variants", planet_spec(variants=[{"name": f"v{i}", "options": {}} for i in range(5)]), "variants"),
    ("twin names", planet_spec(variants=[{"name": "a"}, {"name": "a"}]), "variants[1].name"),
    ("unknown option", _variants({"name": "a", "options": {"repair_start": 5}}), "variants[0].options.repair_start"),
    ("bad option value", _variants({"name": "a"}, {"name": "b", "options": {"identity_ties": "coin"}}),
     "variants[1].options.identity_ties"),
    ("content as a path", _variants({"name": "a", "options": {"content": "/x.json"}}), "variants[0].options.content"),
    ("content not an object", planet_spec(variants=[{"name": "a", "content": [1]}]), "variants[0].content"),
    ("bad content value", _variants({"name": "a", "content": BAD_THREAT}), "variants[0].content"),
    ("unknown bot", planet_spec(bots=["grandmaster"]), "bots[0]"),
    ("two bots for three seats", planet_spec(bots=["level0", "level1"]), "bots"),
    ("no games", planet_spec(games=0), "games"),
    ("too many games", planet_spec(games=MAX_GAMES + 1), "games"),
    ("negative seed", planet_spec(seed=-1), "seed"),
    ("unknown role", planet_spec(probes=[{"role": "king", "kind": "move"}]), "probes[0].role"),
    ("seat out of range", planet_spec(probes=[{"role": "seat 3", "kind": "move"}]), "probes[0].role"),
    ("unknown kind", planet_spec(probes=[{"role": "alien", "kind": "fly"}]), "probes[0].kind"),
    ("seven probes", planet_spec(probes=[{"role": f"seat {i % 3}", "kind": "move"} for i in range(7)]), "probes"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "field"), [(data, field) for _, data, field in BAD], ids=[n for n, _, _ in BAD])
def test_each_bad_field_is_named(data: dict[str, Any], field: str) -> None:
    with pytest.raises(LabSpecError) as caught:
        check_spec(data)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_modified_needs_two_players_and_the_error_names_the_variants_options() -> None:
    data = {
        **planet_spec(),
        "game": "shadowlord",
        "players": 3,
        "variants": [{"name": "m", "options": {"modified": True}}],
    }
    with pytest.raises(LabSpecError) as caught:
        check_spec(data)
    assert caught.value.field == "variants[0].options"


def test_a_content_document_over_the_cap_is_refused() -> None:
    content = builtin_content("shadow-planet")
    content["padding"] = "x" * MAX_CONTENT_BYTES
    with pytest.raises(LabSpecError, match="bytes; at most") as caught:
        check_spec(planet_spec(variants=[{"name": "big", "content": content}]))
    assert caught.value.field == "variants[0].content"


def test_the_content_checkers_message_does_not_show_the_temporary_path() -> None:
    content = builtin_content("shadow-planet")
    del content["locations"]
    with pytest.raises(LabSpecError) as caught:
        check_spec(planet_spec(variants=[{"name": "a", "content": content}]))
    assert "locations" in str(caught.value) and "/tmp" not in str(caught.value)
