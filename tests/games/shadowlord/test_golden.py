"""Golden game records: each replays to the same final state, returns and summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from shadowtable.bots.random_bot import RandomBot
from shadowtable.core import GameRecord, play_game, replay
from shadowtable.core.record import game_for_record

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_there_are_golden_records_for_every_configuration() -> None:
    names = {p.stem for p in FILES}
    assert {"2p-seed7", "2p-modified-seed8", "3p-seed9", "4p-seed10"} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_identically(path: Path) -> None:
    record = GameRecord.loads(path.read_text())
    game = game_for_record(record)
    final = replay(record)
    assert game.returns(final) == record.returns
    assert game.summary(final) == record.metadata  # type: ignore[attr-defined]
    again = play_game(game, [RandomBot() for _ in range(record.players)], record.seed or 0)
    assert again.actions == record.actions
