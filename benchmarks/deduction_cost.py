"""What the deduction panel of a finished game costs, per belief, on a long game of each title.

    python benchmarks/deduction_cost.py [--seed 20261203] [--players 3] [--every 25]

Plays one game per title with the heuristic bot at every seat (seed ``derive_seed(seed,
"deduction-cost", title)``, fixed before the run), then works out seat 0's beliefs at every step
the server gives them at (each of its decisions and the end) as the analysis worker does, one
replay for them all (:func:`shadowtable.core.deduction.beliefs_along`), timing each belief.  As
the peer, every ``--every``-th of those steps is also worked out alone (``record_belief``, which
replays the game up to the step), in the same run.  Prints per title: actions, beliefs, the
median, 90th percentile and largest time of one belief, their total, and the median of the
``record_belief`` sample.  docs/analysis.md quotes a run.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("shadowtable") is None:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

from shadowtable.bots.registry import make_bot  # noqa: E402
from shadowtable.core.deduction import beliefs_along, record_belief  # noqa: E402
from shadowtable.core.registry import make  # noqa: E402
from shadowtable.core.rng import derive_seed  # noqa: E402
from shadowtable.core.runner import play_game  # noqa: E402
from shadowtable.server.analysis_work import belief_steps, decision_steps  # noqa: E402

TITLES = ("shadow-planet", "shadowlord")


def timed_beliefs(record, seat: int, steps: list[int]) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds each belief of ``steps`` took, worked out along one replay."""
    times = []
    started = perf_counter()
    for _step, _belief in beliefs_along(record, seat, steps):
        now = perf_counter()
        times.append(now - started)
        started = now
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=20261203)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--every", type=int, default=25, help="every N-th step is also timed alone")
    args = parser.parse_args()
    print("| title | actions | beliefs | median | p90 | max | total | record_belief alone, median |")
    print("|---|---|---|---|---|---|---|---|")
    for title in TITLES:
        game = make(title, players=args.players)
        bots = [make_bot("heuristic") for _ in range(args.players)]
        record = play_game(game, bots, derive_seed(args.seed, "deduction-cost", title))
        steps = belief_steps(decision_steps(record.to_json())[0], len(record.actions))
        times = sorted(timed_beliefs(record, 0, steps))
        alone = []
        for step in steps[:: args.every]:
            started = perf_counter()
            record_belief(record, 0, upto=step)
            alone.append(perf_counter() - started)
        p90 = times[int(0.9 * (len(times) - 1))]
        print(
            f"| {title} | {len(record.actions)} | {len(steps)} | {statistics.median(times) * 1000:.1f} ms"
            f" | {p90 * 1000:.1f} ms | {times[-1] * 1000:.1f} ms | {sum(times):.1f} s"
            f" | {statistics.median(alone) * 1000:.1f} ms ({len(alone)} steps) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
