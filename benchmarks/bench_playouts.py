"""Random-playout speed of any registered game: games and decisions per second (medians).

python benchmarks/bench_playouts.py shadow-planet --players 3 4 5 --games 200 --runs 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import shadowtable
from shadowtable.core import CHANCE, Game
from shadowtable.core.rng import sample_outcome


def random_playout(game: Game[Any], rng: random.Random) -> tuple[int, int]:
    """Play one uniformly random game; returns (decisions, chance outcomes)."""
    state = game.initial_state()
    decisions = chances = 0
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
            chances += 1
        else:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            decisions += 1
        state = game.apply(state, action)
    return decisions, chances


def measure(game: Game[Any], games: int, seed: int) -> tuple[float, float]:
    """(games per second, decisions per second) for one run of ``games`` playouts."""
    rng = random.Random(seed)
    start = time.perf_counter()
    decisions = sum(random_playout(game, rng)[0] for _ in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<16} {'players':>7} {'games/s (median)':>17} {'decisions/s (median)':>21}")
    for players in args.players:
        game = shadowtable.make(args.game, players=players)
        runs = [measure(game, args.games, seed) for seed in range(args.runs)]
        gps = statistics.median(r[0] for r in runs)
        dps = statistics.median(r[1] for r in runs)
        print(f"{args.game:<16} {players:>7} {gps:>17.1f} {dps:>21.0f}")


if __name__ == "__main__":
    main()
