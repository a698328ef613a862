"""Each game's map from rules-ledger ids to the parts of its content document names only keys the
built-in content has and ids (or id groups) its ledger holds."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import game_class
from shadowtable.core.rules_ledger import id_covers, load_ledger

BUILTIN = ("shadow-planet", "shadowlord")


@pytest.mark.parametrize("game_id", BUILTIN)
def test_every_named_content_part_and_ledger_id_exists(game_id: str) -> None:
    reference = manifest_of(game_class(game_id)).content_parts
    assert reference is not None
    parts: dict[str, tuple[str, ...]] = load(reference)
    package = game_class(game_id).__module__.rpartition(".")[0]
    content = json.loads(resources.files(package).joinpath("data/content.json").read_text("utf-8"))
    ids = [entry.id for entry in load_ledger(package)]
    for key, names in parts.items():
        assert names and set(names) <= set(content) - {"format", "name", "reconstructed"}, (key, names)
        assert any(id_covers(key, entry_id) for entry_id in ids), f"{key} names no entry of the ledger"
