"""Content as data (SP-CONTENT-*): loading, validation errors, user files, reconstructed flags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shadowtable.core import ContentError, InvalidOptionError, make
from shadowtable.games.shadow_planet import check_content_file, load_content
from shadowtable.games.shadow_planet.content import parse_content


def builtin() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("shadowtable.games.shadow_planet").joinpath("data/content.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_builtin_content_has_121_cards_and_flags_reconstructed_fields() -> None:
    content = load_content()
    assert content.num_cards == 121
    by_name = {content.card_name[i]: i for i in range(121)}
    assert content.card_reconstructed[by_name["Space Suit"]] == ()  # type, value and effect are printed
    assert "value" in content.card_reconstructed[by_name["Fury"]]
    assert content.link_cost[0][1] == 2 and content.link_cost[2][3] == 8


def test_wrong_deck_size_names_the_file_and_field(tmp_path: Path) -> None:
    data = builtin()
    data["cards"][0]["home"] = "erico"
    with pytest.raises(ContentError, match=r"user\.json: location melita: field 'deck_size'"):
        parse_content(data, "user.json")


def test_unknown_effect_names_the_card_and_field() -> None:
    data = builtin()
    data["cards"][20]["effects"] = [{"kind": "teleport"}]
    with pytest.raises(ContentError, match=r"x\.json: card 20 \(Space Suit\): field 'kind': unknown effect 'teleport'"):
        parse_content(data, "x.json")


def test_bad_type_names_the_card_and_field() -> None:
    data = builtin()
    data["cards"][5]["value"] = "two"
    with pytest.raises(ContentError, match=r"card 5 \(Move\): field 'value' has bad type str"):
        parse_content(data, "x.json")
    data = builtin()
    data["cards"][5]["type"] = "fly"
    with pytest.raises(ContentError, match=r"card 5 \(Move\): field 'type': unknown type 'fly'"):
        parse_content(data, "x.json")


def test_inconsistent_type_counts_are_reported() -> None:
    data = builtin()
    data["cards"][5]["type"] = "search"
    with pytest.raises(ContentError, match="type_counts.move"):
        parse_content(data, "x.json")


def test_check_content_file_and_playing_with_a_user_file(tmp_path: Path) -> None:
    data = builtin()
    data["cards"][21]["name"] = "Ration Q"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    lines = check_content_file(str(path))
    assert lines[0].endswith("valid Shadow Planet content") and "121 Operation cards" in lines[1]
    game = make("shadow-planet", players=3, content=str(path))
    assert game.ctx.content.card_name[21] == "Ration Q"  # type: ignore[attr-defined]
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ContentError, match="bad.json: not valid JSON"):
        check_content_file(str(bad))
    with pytest.raises(InvalidOptionError):
        make("shadow-planet", players=3, content=str(bad))


def test_wrong_number_of_cards_is_reported() -> None:
    data = builtin()
    data["cards"].pop()
    with pytest.raises(ContentError, match=r"x\.json: file: field 'cards': the game has 121 Operation cards, got 120"):
        parse_content(data, "x.json")
