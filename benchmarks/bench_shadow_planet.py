"""Benchmark: random Shadow Planet playouts (games/s and decisions/s), median of several runs.

Usage: python benchmarks/bench_shadow_planet.py [--games N] [--runs R] [--profile]

A playout asks ``legal_actions`` at every node, picks uniformly (chance outcomes uniformly too,
as every chance node of this game is uniform) and applies it with ``apply_unchecked`` (the
action is legal by construction).  Decisions are the non-chance actions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from shadowtable.core import CHANCE, make  # noqa: E402


def playout(game: object, rng: random.Random) -> tuple[int, int]:
    """One random game; returns (decisions, chance nodes)."""
    g = game  # type: ignore[assignment]
    state = g.initial_state()  # type: ignore[attr-defined]
    decisions = chances = 0
    current, legal_of, apply = g.current_player, g.legal_actions, g.apply_unchecked  # type: ignore[attr-defined]
    while True:
        player = current(state)
        if player == -2:
            return decisions, chances
        legal = legal_of(state)
        if player == CHANCE:
            chances += 1
        else:
            decisions += 1
        state = apply(state, legal[rng.randrange(len(legal))])


def run(players: int, games: int, seed: int) -> tuple[float, float]:
    """Games per second and decisions per second for ``games`` playouts."""
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    start = time.perf_counter()
    decisions = 0
    for _ in range(games):
        decisions += playout(game, rng)[0]
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(4, args.games, 0)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
        return
    for players in (3, 4, 5):
        results = [run(players, args.games, seed) for seed in range(args.runs)]
        gps = statistics.median(r[0] for r in results)
        dps = statistics.median(r[1] for r in results)
        print(f"{players} players: {gps:8.1f} games/s  {dps:10.0f} decisions/s  (median of {args.runs} x {args.games})")


if __name__ == "__main__":
    main()
