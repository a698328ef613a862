"""Random-playout speed of two source trees of ShadowTable, measured in the same run.

    python benchmarks/compare_trees.py --before ../old-checkout --after . \
        --game shadowlord --players 2 3 4 --games 30 --rounds 5

Each round measures every configuration once in each tree, in alternating order, each in a
fresh process that imports that tree's ``src``; the table gives the median decisions per second
of each tree over the rounds and the ratio after/before.  Use it to show that a change of the
engines' structure keeps their speed (a ratio near or above 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

MEASURE = """
import random, sys, time
import shadowtable
from shadowtable.core import CHANCE
from shadowtable.core.rng import sample_outcome

game_id, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
options = {"modified": True} if sys.argv[5] == "modified" else {}
game = shadowtable.make(game_id, players=players, **options)
rng = random.Random(seed)
decisions = 0
start = time.perf_counter()
for _ in range(games):
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            decisions += 1
        state = game.apply(state, action)
print(decisions / (time.perf_counter() - start))
"""


def decisions_per_second(tree: Path, game: str, players: int, games: int, seed: int, variant: str) -> float:
    """One measurement in a fresh interpreter importing ``tree``'s sources."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    args = [sys.executable, "-c", MEASURE, game, str(players), str(games), str(seed), variant]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the older source tree (a checkout)")
    parser.add_argument("--after", type=Path, default=Path("."), help="the newer source tree")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--modified", action="store_true", help="Shadowlord!'s modified 2-player game")
    parser.add_argument("--games", type=int, default=30, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    variant = "modified" if args.modified else "plain"
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    print(f"{'game':<16} {'players':>7} {'before (dec/s)':>15} {'after (dec/s)':>14} {'after/before':>13}")
    for players in args.players:
        runs: dict[str, list[float]] = {"before": [], "after": []}
        for round_no in range(args.rounds):
            order = ("before", "after") if round_no % 2 == 0 else ("after", "before")
            for name in order:
                runs[name].append(decisions_per_second(trees[name], args.game, players, args.games, round_no, variant))
        before, after = statistics.median(runs["before"]), statistics.median(runs["after"])
        label = args.game + (" (mod.)" if args.modified else "")
        print(f"{label:<16} {players:>7} {before:>15.0f} {after:>14.0f} {after / before:>13.2f}")


if __name__ == "__main__":
    main()
