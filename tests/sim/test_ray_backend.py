"""The Ray backend in local mode gives the same records as the process pool."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import shadowtable  # noqa: E402
from shadowtable.sim.parallel import BatchJob, run_batch  # noqa: E402

TESTS = Path(__file__).parents[1]


@pytest.fixture
def local_ray(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Ray workers import the tiny game plugin from the tests, and this source tree
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(TESTS), str(Path(shadowtable.__file__).parents[1]))))
    yield
    ray.shutdown()


def test_ray_local_mode_matches_the_process_pool(local_ray: None, tmp_path: Path) -> None:
    job = BatchJob("tiny-showdown", 3, ("random",), 40, 8, plugins=("tiny_plugin",))
    on_ray = run_batch(job, workers=2, backend="ray", chunk_size=6, out=tmp_path / "ray.jsonl")
    on_pool = run_batch(job, workers=2, chunk_size=9, out=tmp_path / "pool.jsonl")
    assert [r.to_json() for r in on_ray] == [r.to_json() for r in on_pool]
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "pool.jsonl").read_text()
