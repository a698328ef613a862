"""Seed derivation: every random stream comes from one master seed, never the global ``random``."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from shadowtable.core.ints import int_text


def derive_seed(master: int, *labels: object) -> int:
    """A seed derived from ``master`` and ``labels``, stable across runs and platforms.

    It has 53 bits, so it survives JSON readers that hold numbers as doubles (JavaScript) and
    signed 64-bit columns (Parquet, databases).
    """
    text = "/".join([int_text(master), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


def derived_rng(master: int, *labels: object) -> random.Random:
    """A private :class:`random.Random` seeded from ``master`` and ``labels``."""
    return random.Random(derive_seed(master, *labels))


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """Pick an outcome from ``(outcome, probability)`` pairs."""
    point = rng.random() * sum(p for _, p in outcomes)
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if point < total:
            return outcome
    return outcomes[-1][0]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``, the same number drawn the same way (rejection sampling
    on ``n.bit_length()`` random bits), without the checks: for a search's inner loop."""
    if type(rng) is not random.Random:  # a subclass may draw differently
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
