"""``tournament`` and ``play`` accept ladder level names and run the level's spec for the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shadowtable.bots import ladder, make_bot
from shadowtable.cli import main
from shadowtable.core.errors import BotError


def test_level_names_resolve_to_the_ladder_spec_of_the_game() -> None:
    assert ladder.resolve_spec("level0", "shadowlord") == "random"
    assert ladder.resolve_spec("level1", "shadow-planet") == "heuristic"
    search = ladder.resolve_spec("level2", "shadowlord")
    assert search == ladder.resolve_spec("ismcts", "shadowlord") == ladder.LADDER["ismcts"].spec_for("shadowlord")
    assert "evaluate=heuristic" in search and "evaluate" not in ladder.resolve_spec("level2", "shadow-planet")
    assert ladder.resolve_entry("level1*3", "shadowlord") == "heuristic*3"
    assert ladder.resolve_spec("ismcts:iterations=5", "shadowlord") == "ismcts:iterations=5"  # a spec is kept
    assert ladder.resolve_entry("level9*2", "shadowlord") == "level9*2"  # no level: left for the bot registry
    with pytest.raises(BotError, match="unknown bot 'level9'"):
        make_bot(ladder.resolve_spec("level9", "shadowlord"))


def test_a_tournament_between_levels_plays_their_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "shadowlord", "--players", "3", "--bots", "level1,level0*2", "--games", "3"]
    code = main([*args, "--out", str(out), "--no-progress"])
    assert code == 0
    result = json.loads(out.read_text())
    assert set(result["bots"]) == {"heuristic", "random"}
    assert result["bots"]["heuristic"]["games"] == 3 and result["bots"]["random"]["games"] == 6
    assert "heuristic" in capsys.readouterr().out
