"""The Ray backend: the same chunks as the local process pool, as Ray tasks (the ``[ray]`` extra)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from shadowtable.core.errors import MissingExtraError
from shadowtable.sim.parallel import BatchJob, chunks, play_chunk


def require_ray() -> Any:
    """The ``ray`` module; :class:`MissingExtraError` when Ray is not installed."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError.of("the ray backend", "Ray", "ray") from exc
    return ray


def run_ray(
    job: BatchJob, todo: Sequence[int], *, workers: int, chunk_size: int, address: str | None
) -> Iterator[tuple[list[int], list[str]]]:
    """Yield ``(indices, lines)`` in index order; each Ray task plays one chunk of games.

    Without ``address`` a local Ray instance with ``workers`` CPUs is started (and reused).
    """
    ray = require_ray()
    if not ray.is_initialized():
        init_args: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            init_args["address"] = address
        else:
            init_args["num_cpus"] = workers
        ray.init(**init_args)
    remote_chunk = ray.remote(play_chunk)
    parts = chunks(todo, chunk_size)
    refs = [remote_chunk.remote(job, part) for part in parts]
    for part, ref in zip(parts, refs, strict=True):
        yield part, ray.get(ref)
