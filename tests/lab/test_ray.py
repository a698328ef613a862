"""`--backend ray` plays the same rows as the local process pool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from tests.lab.helpers import planet_spec  # noqa: E402

import shadowtable  # noqa: E402
from shadowtable.lab.spec import check_spec  # noqa: E402
from shadowtable.lab.store import FIGURES_FILE, run_lab  # noqa: E402


@pytest.fixture
def local_ray(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PYTHONPATH", str(Path(shadowtable.__file__).parents[1]))  # workers import this tree
    yield
    ray.shutdown()


@pytest.mark.slow  # 45 s: Ray's local cluster (tests/sim/test_ray_backend.py stays in every run)
def test_ray_gives_the_figures_of_the_process_pool(local_ray: None, tmp_path: Path) -> None:
    spec = check_spec(planet_spec(games=3, probes=[{"role": "seat 0", "kind": "move"}]))
    run_lab(spec, tmp_path / "ray", backend="ray", workers=2, chunk_size=2)
    run_lab(spec, tmp_path / "pool", workers=1)
    assert (tmp_path / "ray" / FIGURES_FILE).read_bytes() == (tmp_path / "pool" / FIGURES_FILE).read_bytes()
