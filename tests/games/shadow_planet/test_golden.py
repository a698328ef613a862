"""Golden game records: replayed on every change, they must reach the stored final state."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from shadowtable.core import GameRecord, make, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_the_stored_final_state(path: Path) -> None:
    data = json.loads(path.read_text())
    record = GameRecord.from_json(data["record"])
    final = replay(record)
    game = make("shadow-planet", players=record.players, **record.options)
    text = json.dumps(game.state_to_json(final), sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == data["final_state_sha256"]
    assert game.returns(final) == data["returns"] == record.returns
    assert game.is_terminal(final) and len(record.actions) == data["steps"]


def test_there_are_golden_records_for_each_player_count() -> None:
    assert {json.loads(p.read_text())["record"]["players"] for p in GOLDEN} == {3, 4, 5}
