"""The Ray backend: the same chunks as the local process pool, as Ray tasks (the ``[ray]`` extra)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from shadowtable.core.errors import MissingExtraError
from shadowtable.sim.parallel import BatchJob, chunks, play_chunk

T = TypeVar("T")
P = TypeVar("P")


def require_ray() -> Any:
    """The ``ray`` module; :class:`MissingExtraError` when Ray is not installed."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError.of("the ray backend", "Ray", "ray") from exc
    return ray


def call(task: Callable[[P], T], part: P) -> T:
    """``task(part)``: the one function Ray runs remotely."""
    return task(part)


def in_order_ray(
    task: Callable[[P], T], parts: Sequence[P], *, workers: int, address: str | None
) -> Iterator[tuple[P, T]]:
    """Yield ``(part, task(part))`` in the order of ``parts``, each a Ray task.

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
    remote_call = ray.remote(call)
    refs = [remote_call.remote(task, part) for part in parts]
    for part, ref in zip(parts, refs, strict=True):
        yield part, ray.get(ref)


def run_ray(
    job: BatchJob, todo: Sequence[int], *, workers: int, chunk_size: int, address: str | None
) -> Iterator[tuple[list[int], list[str]]]:
    """Yield ``(indices, lines)`` in index order; each Ray task plays one chunk of games."""
    yield from in_order_ray(partial(play_chunk, job), chunks(todo, chunk_size), workers=workers, address=address)
