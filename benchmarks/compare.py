"""Random-playout speed of ShadowTable's engines against Catanatron, interleaved in one run.

    python benchmarks/compare.py --reps 5 --seconds 2
    python benchmarks/compare.py --src today=/path/to/old/src --src after=src

Every contender (Catanatron's 4-player random game, and each game and player count of every
ShadowTable source tree given with ``--src``) runs in a worker process of its own; the workers
take turns, one batch each per repetition, so a busy machine slows them alike.  Each batch plays
whole uniformly random games for about ``--seconds`` seconds.  The table gives the median
decisions per second and the median, over repetitions, of its ratio to Catanatron's batch of
the same repetition.  Catanatron is installed by the ``bench`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("shadow-planet", 3, {}),
    ("shadow-planet", 4, {}),
    ("shadow-planet", 5, {}),
    ("shadowlord", 2, {}),
    ("shadowlord", 3, {}),
    ("shadowlord", 4, {}),
    ("shadowlord", 2, {"modified": True}),
]


def catanatron_game(rng: random.Random) -> int:
    """One 4-player Catanatron game of random players; its number of decisions."""
    from catanatron import Color, Game, RandomPlayer

    players = [RandomPlayer(color) for color in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)]
    game = Game(players, seed=rng.randrange(2**31))
    game.play()
    return len(game.state.actions)


def shadowtable_game(name: str, players: int, options: dict[str, Any]) -> Callable[[random.Random], int]:
    """A function playing one uniformly random game of ``name`` through the public API
    (``legal_actions`` then the checked ``apply``); it returns the number of decisions."""
    import shadowtable
    from shadowtable.core import CHANCE
    from shadowtable.core.rng import sample_outcome

    game = shadowtable.make(name, players=players, **options)

    def play(rng: random.Random) -> int:
        state = game.initial_state()
        decisions = 0
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
                decisions += 1
            state = game.apply(state, action)
        return decisions

    return play


def batch(play: Callable[[random.Random], int], seconds: float, seed: int) -> tuple[int, float]:
    """Whole games for about ``seconds``: (decisions, elapsed seconds)."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += play(rng)
    return decisions, elapsed


def worker() -> None:
    """Serve batches: one JSON request per line on stdin, one JSON answer per line on stdout."""
    players_cache: dict[str, Callable[[random.Random], int]] = {}
    for line in sys.stdin:
        request = json.loads(line)
        key = json.dumps(request["contender"])
        if key not in players_cache:
            kind, *args = request["contender"]
            players_cache[key] = catanatron_game if kind == "catanatron" else shadowtable_game(*args)
        decisions, elapsed = batch(players_cache[key], request["seconds"], request["seed"])
        print(json.dumps({"decisions": decisions, "seconds": elapsed}), flush=True)


class Worker:
    """A worker process importing ShadowTable from ``src`` (``None``: as installed)."""

    def __init__(self, src: str | None) -> None:
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(Path(src).resolve()), env.get("PYTHONPATH", "")])
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.compiled = self.ask_compiled(env)

    @staticmethod
    def ask_compiled(env: dict[str, str]) -> str:
        probe = "import shadowtable; print(getattr(shadowtable, 'compiled', lambda: False)())"
        done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
        return "compiled" if done.stdout.strip() == "True" else "pure"

    def run(self, contender: list[Any], seconds: float, seed: int) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"contender": contender, "seconds": seconds, "seed": seed}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return float(answer["decisions"]) / float(answer["seconds"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def label(name: str, players: int, options: dict[str, Any]) -> str:
    return f"{name} {players}p" + ("".join(f" {k}" for k in options) if options else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", default=[], metavar="NAME=PATH", help="a source tree to measure")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (batches per contender)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one batch")
    parser.add_argument("--only", nargs="*", default=None, help="game ids to measure (default: both)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    trees = [tuple(s.split("=", 1)) for s in args.src] or [("installed", None)]
    configs = [c for c in CONFIGS if args.only is None or c[0] in args.only]
    reference = Worker(None)
    workers = {name: Worker(path) for name, path in trees}
    rates: dict[tuple[str, str], list[float]] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    for rep in range(args.reps):
        catan = reference.run(["catanatron"], args.seconds, rep)
        rates.setdefault(("catanatron", "Catanatron 4p random"), []).append(catan)
        for name, players, options in configs:
            for tree, w in workers.items():
                rate = w.run(["shadowtable", name, players, options], args.seconds, rep)
                key = (tree, label(name, players, options))
                rates.setdefault(key, []).append(rate)
                ratios.setdefault(key, []).append(rate / catan)
        print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    for w in (reference, *workers.values()):
        w.close()
    print(f"{'tree':<12} {'build':<9} {'contender':<30} {'decisions/s':>12} {'x Catanatron':>13}")
    for (tree, what), values in rates.items():
        build = workers[tree].compiled if tree in workers else "-"
        ratio = f"{statistics.median(ratios[(tree, what)]):.2f}" if (tree, what) in ratios else "1.00"
        print(f"{tree:<12} {build:<9} {what:<30} {statistics.median(values):>12.0f} {ratio:>13}")


if __name__ == "__main__":
    main()
