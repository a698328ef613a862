"""Self-play collection rate: recorded decisions per second, one game at a time against batched.

    taskset -c 1 nice -n 19 env PYTHONPATH=src python benchmarks/bench_selfplay.py shadow-planet --players 4

The same network (``PolicyValueNet`` with the trainer's default layers, weights from
``torch.manual_seed(0)``) plays self-play games (the learner in every seat, every real choice
recorded) with the seed ``--seed``, collected three ways in turns: *one at a time, dense* (each
game played alone, every decision its own batch-1 forward pass multiplying the whole observation,
as the bot-ladder issue described collection; the trainer of that day already played its games in
lockstep, and ``selfplay_then_and_now.py`` measures against that code), *one at a time* (the
same, the first layer reading the observation's
nonzero entries only, as collection now does) and *batched* (``--games`` games in lockstep, the
trainer's default of 64, one forward pass per round, first layer read sparsely).  A game plays the
same alone or batched (``tests/learn/test_selfplay.py``); one at a time plays the first
``--alone-games`` of the same games, since only the rate is compared.  PyTorch runs on one thread.
Each way is measured ``--runs`` times (interleaved); the report gives the medians of decisions per
wall-clock second and per CPU second of this process, and the ratios: batched against the dense
collection one at a time (``ratio_per_cpu_s``) and
against one at a time with the sparse first layer (``batching_ratio_per_cpu_s``: what batching
alone gains).

It also times the network alone (``forward``): CPU microseconds per decision of one forward pass
and log-softmax on ``--games`` recorded observations, in batches of one and of ``--games``, dense.
The ratio of the two is the most batching can gain with no game work at all, and
``game_us_for_5x`` the game's work per decision (everything but the forward pass) at which the
dense collection would run 5x faster batched: ``(one - 5 * batched) / 4``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import make
from shadowtable.learn.network import PolicyValueNet
from shadowtable.learn.selfplay import Finished, NetPlayer, play_batch
from shadowtable.learn.trainer import TrainSettings, use_threads
from shadowtable.rl.encoding import encoder_for


def network(game: Any) -> PolicyValueNet:
    """The measured network: the trainer's default layers, fixed weights."""
    torch.manual_seed(0)
    hidden = TrainSettings(game=game.spec.id, players=game.players).hidden
    return PolicyValueNet(encoder_for(game).shape[0], game.spec.num_distinct_actions, hidden)


def recorded(finished: Sequence[Finished]) -> int:
    """Decisions recorded for training."""
    return sum(len(t.actions) for f in finished for t in f.trajectories)


def play(
    game: Any, net: PolicyValueNet, games: int, seed: int, batch: int, sparse: bool = True
) -> tuple[list[Finished], float, float]:
    """Play ``games`` self-play games in groups of ``batch``: the games, wall and CPU seconds."""
    learner = NetPlayer(net, learning=True)
    lineups = [[learner] * game.players for _ in range(games)]
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    finished = [
        f
        for start in range(0, games, batch)
        for f in play_batch(game, lineups[start : start + batch], rng, sparse=sparse)
    ]
    return finished, time.perf_counter() - wall, time.process_time() - cpu


def collect(
    game: Any, net: PolicyValueNet, games: int, seed: int, batch: int, sparse: bool = True
) -> tuple[int, float, float]:
    """Play ``games`` self-play games in groups of ``batch``: decisions, wall and CPU seconds."""
    finished, wall, cpu = play(game, net, games, seed, batch, sparse)
    return recorded(finished), wall, cpu


def forward_us(net: PolicyValueNet, obs: torch.Tensor, masks: torch.Tensor, batch: int, runs: int) -> float:
    """Median CPU microseconds per decision of the forward pass and log-softmax over ``obs`` in
    batches of ``batch`` (each run passes every row once)."""
    per_decision = []
    for _ in range(runs):
        start = time.process_time()
        with torch.inference_mode():
            for first in range(0, len(obs), batch):
                logits, _ = net(obs[first : first + batch], masks[first : first + batch])
                torch.log_softmax(logits, dim=-1).numpy()
        per_decision.append((time.process_time() - start) / len(obs) * 1e6)
    return statistics.median(per_decision)


def forward_costs(net: PolicyValueNet, finished: Sequence[Finished], rows: int, runs: int) -> dict[str, float]:
    """The network alone on ``rows`` recorded decisions: microseconds per decision one at a time
    and batched, the ceiling of their ratio, and the game's work per decision that 5x allows."""
    trajectories = [t for f in finished for t in f.trajectories]
    obs = torch.from_numpy(np.stack([o for t in trajectories for o in t.observations][:rows]))
    masks = torch.from_numpy(np.stack([m for t in trajectories for m in t.masks][:rows]))
    one, batched = forward_us(net, obs, masks, 1, runs), forward_us(net, obs, masks, len(obs), runs)
    return {
        "rows": len(obs),
        "one_at_a_time_us": one,
        "batched_us": batched,
        "ceiling": one / batched,
        "game_us_for_5x": (one - 5 * batched) / 4,
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """The three ways, ``args.runs`` times each, interleaved; the medians and the ratios."""
    use_threads(1)
    game = make(args.game, players=args.players)
    net = network(game)
    ways = {
        "one at a time, dense": (args.alone_games, 1, False),
        "one at a time": (args.alone_games, 1, True),
        "batched": (args.games, args.games, True),
    }
    runs: dict[str, list[tuple[int, float, float]]] = {way: [] for way in ways}
    for _ in range(args.runs):
        for way, (games, batch, sparse) in ways.items():
            runs[way].append(collect(game, net, games, args.seed, batch, sparse))
    out: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "seed": args.seed,
        "runs": args.runs,
        "hidden": list(net.hidden),
        "torch_threads": torch.get_num_threads(),
    }
    for way, (games, batch, sparse) in ways.items():
        out[way] = {
            "games": games,
            "batch": batch,
            "sparse": sparse,
            "decisions": runs[way][0][0],
            "per_wall_s": statistics.median(d / w for d, w, _ in runs[way]),
            "per_cpu_s": statistics.median(d / c for d, _, c in runs[way]),
        }
    for clock in ("per_wall_s", "per_cpu_s"):
        out[f"ratio_{clock}"] = out["batched"][clock] / out["one at a time, dense"][clock]
        out[f"batching_ratio_{clock}"] = out["batched"][clock] / out["one at a time"][clock]
    finished, _, _ = play(game, net, args.alone_games, args.seed, args.alone_games)
    out["forward"] = forward_costs(net, finished, args.games, max(args.runs, 5))
    out["batched"]["game_us"] = 1e6 / out["batched"]["per_cpu_s"] - out["forward"]["batched_us"]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=TrainSettings(game="", players=2).games)
    parser.add_argument("--alone-games", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261203)
    args = parser.parse_args(argv)
    if min(args.games, args.alone_games, args.runs) < 1 or args.alone_games > args.games:
        print("error: --games, --alone-games and --runs must be >= 1, --alone-games <= --games", file=sys.stderr)
        return 2
    try:
        make(args.game, players=args.players)
    except ShadowTableError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = measure(args)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
