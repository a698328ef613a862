"""A stopped and resumed run writes the same figures as an uninterrupted one."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.lab.helpers import planet_spec

from shadowtable.lab.spec import check_spec
from shadowtable.lab.store import FIGURES_FILE, ROWS_FILE, LabRunError, run_lab

SPEC = planet_spec(
    games=5,
    variants=[{"name": "baseline", "options": {}}, {"name": "no clamp", "options": {"alien_threat_clamp": False}}],
    probes=[{"role": "seat 0", "kind": "play a card from your hand"}],
)


class Stop(Exception):
    """Stands for an interruption (Ctrl-C, a killed worker)."""


def test_a_stopped_run_resumed_gives_the_same_figures(tmp_path: Path) -> None:
    spec = check_spec(SPEC)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    run_lab(spec, whole, chunk_size=3)

    finished: list[int] = []

    def stop_after_three_chunks(done: int) -> None:
        finished.append(done)
        if len(finished) == 3:
            raise Stop

    with pytest.raises(Stop):
        run_lab(spec, parts, chunk_size=2, progress=stop_after_three_chunks)
    assert not (parts / FIGURES_FILE).exists()
    played = (parts / ROWS_FILE).read_text().splitlines()
    assert len(played) == 5  # chunks of arm 0: games 0-1, 2-3 and 4
    with open(parts / ROWS_FILE, "a", encoding="utf-8") as stream:
        stream.write('{"arm": 2, "index": 4, "se')  # a line cut short by the interruption

    started: list[int] = []
    run_lab(spec, parts, resume=True, chunk_size=4, on_start=started.append)
    assert started == [5]
    assert (parts / FIGURES_FILE).read_bytes() == (whole / FIGURES_FILE).read_bytes()
    assert sorted((parts / ROWS_FILE).read_text().splitlines()) == sorted((whole / ROWS_FILE).read_text().splitlines())


def test_resuming_with_another_spec_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    run_lab(check_spec(planet_spec(games=1)), tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    with pytest.raises(LabRunError, match="another spec"):
        run_lab(check_spec(planet_spec(games=1, seed=12)), tmp_path, resume=True)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_a_row_of_another_run_is_refused(tmp_path: Path) -> None:
    spec = check_spec(planet_spec(games=2))
    run_lab(spec, tmp_path)
    rows = tmp_path / ROWS_FILE
    rows.write_text(rows.read_text().replace('"index":0', '"index":1', 1))
    with pytest.raises(LabRunError):
        run_lab(spec, tmp_path, resume=True)
