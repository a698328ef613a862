"""The rated ladder's script: its seating rotates fairly and its ratings order planted results."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmark_script import load_benchmark

LEVELS = ["random", "heuristic", "policy", "ismcts"]

ratings = load_benchmark("ladder_ratings")


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_sits_every_seat_equally_often(count: int, players: int) -> None:
    levels = LEVELS[:count]
    period = count * len(ratings.strides(count))
    seats = Counter(
        (seat, level) for i in range(period) for seat, level in enumerate(ratings.seating(levels, players, i))
    )
    assert len({seats[(seat, level)] for seat in range(players) for level in levels}) == 1
    if players >= count:  # every level plays at every table
        assert all(set(ratings.seating(levels, players, i)) == set(levels) for i in range(period))


def _planted(strength: list[str], players: int, games: int) -> list[tuple[list[str], list[float]]]:
    """Games in which the stronger level (later in ``strength``) always finishes ahead."""
    out = []
    for index in range(games):
        lineup = ratings.seating(LEVELS, players, index)
        out.append((lineup, [strength.index(level) / (len(strength) - 1) for level in lineup]))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_ratings_order_the_levels_of_planted_results(players: int) -> None:
    games = _planted(LEVELS, players, 48)
    assert ratings.ranking(ratings.rate(games, LEVELS)) == LEVELS[::-1]
    backwards = _planted(LEVELS[::-1], players, 48)
    assert ratings.ranking(ratings.rate(backwards, LEVELS)) == LEVELS


def test_a_level_with_few_games_ranks_by_its_conservative_estimate() -> None:
    strong_few = [(["ismcts", "random"], [1.0, 0.0])]
    many = [(["heuristic", "random"][::step], [1.0, 0.0][::step]) for step in (1, -1) for _ in range(20)]
    rated = ratings.rate(many + strong_few, ["random", "heuristic", "ismcts"])
    assert rated["ismcts"].mu > rated["random"].mu and rated["ismcts"].sigma > rated["heuristic"].sigma
    assert ratings.ranking(rated)[0] == "heuristic"


def test_an_unknown_configuration_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert ratings.main(["--config", "chess-2p", "--plan"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown configuration 'chess-2p'")


def test_a_block_in_worker_processes_plays_the_same_games_in_the_same_order() -> None:
    levels, seed = ["random", "heuristic"], 99
    alone = list(ratings.play_block("shadow-planet", 3, {}, levels, seed, 3))
    pooled = list(ratings.play_block("shadow-planet", 3, {}, levels, seed, 3, workers=2))
    assert [(i, lineup, record.to_json()) for i, lineup, record, _, _ in alone] == [
        (i, lineup, record.to_json()) for i, lineup, record, _, _ in pooled
    ]
    assert [i for i, *_ in pooled] == [0, 1, 2]
    assert all(sum(len(t) for t in times.values()) > 0 for *_, times, _ in pooled)


def test_workers_below_one_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert ratings.main(["--workers", "0", "--config", "shadowlord-2p"]) == 2
    assert capsys.readouterr().err.startswith("error: --workers")
