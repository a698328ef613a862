"""Golden game records: each replays to the same actions, returns and summary, and the same
bots with the same seed play the same actions again (regenerate with ``make_golden``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core import GameRecord, play_game, replay
from shadowtable.core.record import game_for_record

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))
STEPS = {
    "3p-seed11": 334,
    "4p-seed22": 407,
    "5p-seed33": 494,
    "3p-seed108": 486,
    "4p-seed229": 614,
    "4p-seed187": 562,
    "5p-seed68": 644,
    "4p-variant-seed44": 441,
    "4p-heuristic-seed0": 563,
    "5p-heuristic-seed2": 696,
}
"""Actions of each record, as recorded."""


def test_there_are_golden_records_for_each_player_count_and_bot() -> None:
    assert {p.stem for p in FILES} == set(STEPS)
    records = [GameRecord.loads(p.read_text()) for p in FILES]
    assert {r.players for r in records} == {3, 4, 5}
    assert {name for r in records for name in r.seats} == {"random", "heuristic"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_identically(path: Path) -> None:
    record = GameRecord.loads(path.read_text())
    game = game_for_record(record)
    final = replay(record)
    assert game.is_terminal(final) and not record.truncated
    assert len(record.actions) == STEPS[path.stem]
    assert game.returns(final) == record.returns
    assert game.summary(final) == record.metadata  # type: ignore[attr-defined]
    again = play_game(game, [make_bot(name) for name in record.seats], record.seed or 0)
    assert again.actions == record.actions
