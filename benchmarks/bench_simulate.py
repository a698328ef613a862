"""Batch throughput: games per second with 1 and 2 local workers, and Ray against the process pool.

python benchmarks/bench_simulate.py shadow-planet --players 4 --games 400 --runs 5 [--ray]
"""

from __future__ import annotations

import argparse
import statistics
import time

from shadowtable.sim.parallel import BatchJob, run_batch


def games_per_second(job: BatchJob, workers: int, backend: str) -> float:
    start = time.perf_counter()
    run_batch(job, workers=workers, backend=backend)
    return job.games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--ray", action="store_true", help="also measure the Ray backend (local mode)")
    args = parser.parse_args()
    job = BatchJob(args.game, args.players, tuple(args.bots.split(",")), args.games, 1)
    setups = [("local", 1), ("local", 2)] + ([("ray", 2)] if args.ray else [])
    medians = {}
    if args.ray:
        games_per_second(BatchJob(args.game, args.players, job.bot_specs, 8, 0), 2, "ray")  # start Ray once
    for backend, workers in setups:
        medians[(backend, workers)] = statistics.median(
            games_per_second(job, workers, backend) for _ in range(args.runs)
        )
        print(f"{backend:<6} workers={workers}: {medians[(backend, workers)]:8.1f} games/s (median of {args.runs})")
    print(f"scaling 2 vs 1 workers: {medians[('local', 2)] / medians[('local', 1)]:.2f}x")
    if args.ray:
        overhead = medians[("local", 2)] / medians[("ray", 2)] - 1
        print(f"Ray overhead against the process pool at 2 workers: {overhead:+.1%}")


if __name__ == "__main__":
    main()
