"""Encoding helpers and the block encoder, as they were (test-only reference)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from shadowtable.core.game import Observation


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros for ``None``)."""
    vector = [0.0] * size
    if index is not None:
        vector[index] = 1.0
    return vector


def one_hot_shifted(value: int | None, size: int) -> list[float]:
    """One-hot of ``value + 1`` (``-1``/``None`` map to slot 0; large values clip)."""
    index = 0 if value is None else min(size - 1, max(0, value + 1))
    return one_hot(index, size)


def bits(mask: int, size: int) -> list[float]:
    """The low ``size`` bits of ``mask``."""
    return [float((mask >> i) & 1) for i in range(size)]


Block = tuple[str, int, Callable[[Observation], list[float]]]
"""A named, fixed-size part of an encoding and the function that fills it."""


class BlockEncoder:
    """An encoder made of named fixed-size blocks concatenated in order, values in ``[0, 1]``."""

    low = 0.0
    high = 1.0
    blocks: list[Block]
    shape: tuple[int, ...]

    def set_blocks(self, blocks: list[Block]) -> None:
        """Fix the layout; the shape is the total of the block sizes."""
        self.blocks = blocks
        self.shape = (sum(size for _, size, _ in blocks),)

    def encode(self, observation: Observation) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Every block of ``observation``, concatenated; a block of the wrong size is an error."""
        from rl.reference.legacy import legacy

        if "public" in observation and "outcome" in observation:
            observation = legacy(observation)
        values: list[float] = []
        for name, size, block in self.blocks:
            part = block(observation)
            if len(part) != size:
                raise ValueError(f"block {name!r} has {len(part)} values, expected {size}")
            values.extend(part)
        return np.asarray(values, dtype=np.float32)

    def layout(self) -> list[tuple[str, int]]:
        """Block names and sizes, in order."""
        return [(name, size) for name, size, _ in self.blocks]
