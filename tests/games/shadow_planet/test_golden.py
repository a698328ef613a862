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


def write_golden(players: int, seed: int) -> Path:
    """Regenerate a golden record (run by hand after an intended rules change, then review the diff):
    ``python -c "from games.shadow_planet.test_golden import write_golden; write_golden(3, 11)"``."""
    from shadowtable.bots.random_bot import RandomBot
    from shadowtable.core import play_game

    game = make("shadow-planet", players=players)
    record = play_game(game, [RandomBot() for _ in range(players)], seed)
    final = replay(record)
    text = json.dumps(game.state_to_json(final), sort_keys=True, separators=(",", ":"))
    data = {
        "record": record.to_json(),
        "final_state_sha256": hashlib.sha256(text.encode()).hexdigest(),
        "returns": record.returns,
        "steps": len(record.actions),
    }
    path = Path(__file__).parent / "golden" / f"random_{players}p_seed{seed}.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    return path
