"""``randbelow`` draws exactly what ``Random.randrange`` draws, so compiled rollouts keep the seeds."""

from __future__ import annotations

import random

import pytest

from shadowtable.core.rng import randbelow


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_randbelow_draws_what_randrange_draws(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 100, 1000, 2**40 + 3]:
        for _ in range(50):
            assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


def test_randbelow_asks_a_subclass_for_randrange() -> None:
    class Fixed(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            return 0

    assert randbelow(Fixed(3), 10) == 0
