"""Log-loss of what a seat of The Shadow Planet could deduce about the others' Objectives.

    python benchmarks/deduction_logloss.py [--games 100] [--seed 20261202] [--players 4]
                                           [--epsilon 0.5] [--samples 4]

Plays ``--games`` games with the heuristic bot at every seat (game ``i`` uses the seed
``derive_seed(seed, "deduction-benchmark", i)``, fixed before the run).  At the last step
before the Objectives are revealed, every seat's belief about every other seat's Objective
is scored by its log-loss (natural log) against the true Objective, for three beliefs:

* ``uniform``: the uniform prior, 1/5 per Objective;
* ``logical``: exact logical deduction alone (uniform over the deals consistent with the
  seat's observation; no action evidence);
* ``bayes``: the heuristic-policy model of :mod:`shadowtable.games.shadow_planet.deduction`.

The table gives each mean over (game, seat, other seat) with a 95% interval from the spread of
the per-game means (games are independent; the pairs within a game are not), and the paired
differences.  See docs/deduction.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("shadowtable") is None:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

import random  # noqa: E402

from shadowtable.core.deduction import SeenStep, belief, record_trajectory, seen_steps  # noqa: E402
from shadowtable.core.manifest import load, manifest_of  # noqa: E402
from shadowtable.core.record import GameRecord  # noqa: E402
from shadowtable.core.registry import make  # noqa: E402
from shadowtable.core.rng import derive_seed  # noqa: E402
from shadowtable.core.runner import play_game  # noqa: E402

GAME_ID = "shadow-planet"
OBJECTIVES = 5
FLOOR = 1e-15
"""Probabilities are floored here before the log (the models never give the truth zero)."""


def last_hidden_step(record: GameRecord) -> int:
    """How many actions lead to the last state in which some Objective is still hidden."""
    game, pairs = record_trajectory(record)
    last = 0
    for index, (state, _) in enumerate(pairs):
        if None in game.observe(state, 0)["public"]["objectives"]:
            last = index
    return last


def game_losses(record: GameRecord, epsilon: float, samples: int, seed: int) -> dict[str, list[float]]:
    """Per model, the log-losses of every (seat, other seat) pair whose Objective is hidden."""
    game, all_pairs = record_trajectory(record)
    truth = game.observe(all_pairs[-1][0], None)["public"]["objectives"]
    cut = last_hidden_step(record)
    pairs = [*all_pairs[:cut], (all_pairs[cut][0], None)]
    losses: dict[str, list[float]] = {"uniform": [], "logical": [], "bayes": []}
    for seat in range(game.players):
        now = game.observe(pairs[-1][0], seat)
        steps = [*seen_steps(game, pairs, seat), SeenStep(now, game.current_player(pairs[-1][0]), None)]
        logical = belief(game, seat, steps, random.Random(seed), use_actions=False)["objectives"]
        bayes = belief(game, seat, steps, random.Random(seed), epsilon=epsilon, samples=samples)["objectives"]
        for other, shown in enumerate(now["public"]["objectives"]):
            if shown is not None:
                continue
            true = truth[other]
            losses["uniform"].append(-math.log(1 / OBJECTIVES))
            losses["logical"].append(-math.log(max(logical[other][true], FLOOR)))
            losses["bayes"].append(-math.log(max(bayes[other][true], FLOOR)))
    return losses


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--epsilon", type=float, default=0.5)
    parser.add_argument("--samples", type=int, default=4)
    args = parser.parse_args(argv)
    game = make(GAME_ID, players=args.players)
    bot_class = load(manifest_of(type(game)).heuristic_bot or "")
    seeds = [derive_seed(args.seed, "deduction-benchmark", i) for i in range(args.games)]
    started = perf_counter()
    per_game: dict[str, list[float]] = {"uniform": [], "logical": [], "bayes": []}
    pairs = 0
    for seed in seeds:
        record = play_game(game, [bot_class() for _ in range(args.players)], seed)
        losses = game_losses(record, args.epsilon, args.samples, seed)
        pairs += len(losses["bayes"])
        for name, values in losses.items():
            if values:
                per_game[name].append(statistics.fmean(values))
    elapsed = perf_counter() - started
    print(
        f"{GAME_ID}, {args.players} players, {args.games} heuristic games, seed {args.seed}, "
        f"epsilon {args.epsilon}, samples {args.samples}: {pairs} (seat, other seat) pairs, {elapsed:.0f} s"
    )
    print(f"{'belief':<22}{'log-loss (nats)':>16}{'95% interval':>18}")
    for name in ("uniform", "logical", "bayes"):
        mean, half = interval(per_game[name])
        print(f"{name:<22}{mean:>16.3f}{f'+/- {half:.3f}':>18}")
    for a, b in (("bayes", "uniform"), ("bayes", "logical"), ("logical", "uniform")):
        mean, half = interval([x - y for x, y in zip(per_game[a], per_game[b], strict=True)])
        print(f"{a + ' - ' + b:<22}{mean:>16.3f}{f'+/- {half:.3f}':>18}")


if __name__ == "__main__":
    main()
