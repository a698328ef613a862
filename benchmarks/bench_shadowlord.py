"""Shadowlord! random-playout benchmark: games and decisions (non-chance actions) per second.

    python benchmarks/bench_shadowlord.py [--games N] [--runs R] [--unchecked] [--profile]

For each configuration (2 players, 2 players modified, 3, 4) it plays ``N`` random games per run
and reports the median of ``R`` runs (at least 5).  ``--unchecked`` uses ``apply_unchecked`` (the
legal action is drawn from ``legal_actions`` anyway); ``--profile`` prints a cProfile summary of one
run per configuration.
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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from shadowtable.core import CHANCE, make  # noqa: E402
from shadowtable.core.rng import sample_outcome  # noqa: E402

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("2p", 2, {}),
    ("2p-modified", 2, {"modified": True}),
    ("3p", 3, {}),
    ("4p", 4, {}),
]


def playouts(players: int, options: Mapping[str, Any], games: int, seed: int, unchecked: bool) -> tuple[int, float]:
    """Play ``games`` random games; returns (decisions, seconds)."""
    game = make("shadowlord", players=players, **options)
    apply = game.apply_unchecked if unchecked else game.apply  # type: ignore[attr-defined]
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.initial_state()
        while True:
            player = game.current_player(state)
            if player < 0:
                if player == CHANCE:
                    state = apply(state, sample_outcome(game.chance_outcomes(state), rng))
                    continue
                break
            legal = game.legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--unchecked", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    runs = max(5, args.runs)
    print(
        f"shadowlord random playouts: {args.games} games x {runs} runs, "
        f"{'apply_unchecked' if args.unchecked else 'apply'}"
    )
    for name, players, options in CONFIGS:
        games_per_s, decisions_per_s = [], []
        for run in range(runs):
            decisions, seconds = playouts(players, options, args.games, run, args.unchecked)
            games_per_s.append(args.games / seconds)
            decisions_per_s.append(decisions / seconds)
        print(
            f"{name:12s} games/s {statistics.median(games_per_s):8.2f}   "
            f"decisions/s {statistics.median(decisions_per_s):10.0f}"
        )
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            playouts(players, options, args.games, 99, args.unchecked)
            profiler.disable()
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
            print(out.getvalue())


if __name__ == "__main__":
    main()
