"""Rates and Wilson intervals against published values and closed forms."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shadowtable.sim.stats import mean, rate, wilson_interval, z_score


def test_z_score_matches_the_normal_quantiles() -> None:
    assert z_score(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_score(0.99) == pytest.approx(2.575829, abs=1e-6)


@pytest.mark.parametrize(
    ("successes", "trials", "expected"),
    [
        # R: prop.test(x, n, correct = FALSE)$conf.int
        (5, 10, (0.2365931, 0.7634069)),
        (1, 10, (0.01787621, 0.40415002)),
        (0, 10, (0.0, 0.2775328)),
        (10, 10, (0.7224672, 1.0)),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, trials: int, expected: tuple[float, float]) -> None:
    low, high = wilson_interval(successes, trials)
    assert low == pytest.approx(expected[0], abs=1e-6)
    assert high == pytest.approx(expected[1], abs=1e-6)


@pytest.mark.parametrize("trials", [1, 7, 100, 2500])
def test_wilson_upper_bound_at_zero_successes_is_z2_over_n_plus_z2(trials: int) -> None:
    z2 = z_score(0.95) ** 2
    assert wilson_interval(0, trials)[1] == pytest.approx(z2 / (trials + z2))


@pytest.mark.parametrize(("successes", "trials"), [(0, 5), (3, 8), (40, 100), (999, 1000)])
def test_wilson_interval_is_symmetric_in_successes_and_failures(successes: int, trials: int) -> None:
    low, high = wilson_interval(successes, trials)
    mirror_low, mirror_high = wilson_interval(trials - successes, trials)
    assert low == pytest.approx(1.0 - mirror_high)
    assert high == pytest.approx(1.0 - mirror_low)
    assert low <= successes / trials <= high


def test_wilson_interval_solves_the_score_test_equation() -> None:
    z, n, k = z_score(0.95), 263, 81
    for bound in wilson_interval(k, n):
        assert abs(k / n - bound) == pytest.approx(z * math.sqrt(bound * (1 - bound) / n))


def test_higher_confidence_and_fewer_trials_widen_the_interval() -> None:
    def width(k: int, n: int, confidence: float = 0.95) -> float:
        low, high = wilson_interval(k, n, confidence)
        return high - low

    assert width(30, 100, 0.99) > width(30, 100) > width(30, 100, 0.8)
    assert width(3, 10) > width(30, 100) > width(300, 1000)


def test_no_trials_gives_the_whole_range_and_zero_rate() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert rate(0, 0) == 0.0
    assert mean([]) == 0.0


def test_rate_and_mean() -> None:
    assert rate(3, 4) == 0.75
    assert mean([1.0, 0.0, 0.5]) == 0.5


@pytest.mark.parametrize(("successes", "trials"), [(-1, 3), (4, 3), (0, -1)])
def test_impossible_counts_raise(successes: int, trials: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5])
def test_confidence_outside_zero_one_raises(confidence: float) -> None:
    with pytest.raises(ValueError):
        z_score(confidence)


@given(st.integers(min_value=1, max_value=10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_always_holds_the_observed_rate(counts: tuple[int, int]) -> None:
    successes, trials = counts
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= rate(successes, trials) <= high <= 1.0
