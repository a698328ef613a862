"""Content as data: validation naming file and field, the content option, check_content_file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from shadowtable.core import ContentError
from shadowtable.games.shadowlord import check_content_file

from .helpers import game


def builtin() -> dict[str, Any]:
    text = resources.files("shadowtable.games.shadowlord").joinpath("data/content.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_builtin_content_checks_and_flags_reconstructions(tmp_path: Path) -> None:
    lines = check_content_file(write(tmp_path, builtin()))
    assert lines[0].endswith(": OK") and "power cards: 50" in lines[1]
    assert "board" in builtin()["reconstructed"] and "shadows" in builtin()["reconstructed"]


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["power_cards"].update(counts=[8, 15, 15, 10]), "power_cards"),
        (lambda d: d["strengths"].pop("warrior"), "'warrior'"),
        (lambda d: d["board"].update(cells=["B.H.B", ".R.R.", "H.X.H", ".R.R.", "B.H.B"]), "board.cells[2][2]"),
        (lambda d: d["special_events"].update({"9": "party"}), "special_events.9"),
        (lambda d: d["supplies"].update(black_rings=3), "supplies.black_rings"),
        (lambda d: d["board"]["first_round_left"].update(red=[4, 4]), "first_round_left.red"),
        (lambda d: d["discs"].update(warrior=5), "discs"),
    ],
)
def test_bad_content_names_file_and_field(tmp_path: Path, mutate: Any, field: str) -> None:
    data = builtin()
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(ContentError) as info:
        check_content_file(path)
    assert path in str(info.value) and field in str(info.value)


def test_unreadable_or_invalid_json_content(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        check_content_file(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ContentError, match="not valid JSON"):
        check_content_file(str(bad))


def test_content_option_replaces_the_data_without_touching_the_engine(tmp_path: Path) -> None:
    data = builtin()
    data["shadows"] = [9, 9, 9, 9, 9, 9, 9, 9]
    data["timer"]["notches"] = 3
    g = game(4, content=write(tmp_path, data))
    s = g.initial_state()
    assert s.timer == 3 and g.ctx.content.fig_strength[25] == 9
