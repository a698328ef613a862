"""Steps per second of the RL environments under random masked play (medians), with PettingZoo's
texas_holdem_v4 measured in the same run as a yardstick and, with ``--baseline-src``, another
source tree (a checkout's ``src``) measured beside this one.

PYTHONPATH=src python benchmarks/bench_rl.py shadow-planet --players 4 --steps 3000 --runs 5 \\
    --baseline-src ../baseline/src

Each tree is measured in a subprocess of its own (``PYTHONPATH`` set to it); the runs take turns
(yardstick, this tree, baseline, then again), so a change of load on the machine affects all
alike.  Both trees play the same seeded games.  texas_holdem_v4 needs ``rlcard`` and
``pygame`` (``pip install rlcard pygame``); without them the ratios are left out.
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
from typing import Any

import numpy as np

ENVS = ("pettingzoo", "gymnasium", "openspiel")
LABELS = {
    "pettingzoo": "PettingZoo AEC (agent steps/s)",
    "gymnasium": "Gymnasium vs {opponents} (agent steps/s)",
    "openspiel": "OpenSpiel (decisions/s)",
}


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


def aec_rate(make_env: Callable[[], Any], steps: int, seed: int, clock: Clock = time.perf_counter) -> float:
    """Agent steps per second of an AEC environment, each agent picking uniformly among the
    actions its mask allows."""
    e = make_env()
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = clock()
    while done < steps:
        for _agent in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
            if done >= steps:
                break
        e.reset(seed=seed + done)
    return done / (clock() - start)


def pettingzoo_rate(game: str, players: int, steps: int, seed: int, clock: Clock = time.perf_counter) -> float:
    from shadowtable.rl.pettingzoo_env import env

    return aec_rate(lambda: env(game, players=players), steps, seed, clock)


def texas_holdem_rate(steps: int, seed: int, clock: Clock = time.perf_counter) -> float:
    from pettingzoo.classic import texas_holdem_v4

    return aec_rate(texas_holdem_v4.env, steps, seed, clock)


def gymnasium_rate(
    game: str, players: int, steps: int, seed: int, opponents: str, clock: Clock = time.perf_counter
) -> float:
    from shadowtable.rl.gymnasium_env import ShadowTableEnv

    env = ShadowTableEnv(game, players=players, opponents=opponents)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = clock()
    for step in range(steps):
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            env.reset(seed=seed + step)
    return steps / (clock() - start)


def openspiel_rate(game: str, players: int, steps: int, seed: int, clock: Clock = time.perf_counter) -> float:
    from shadowtable.rl.openspiel_game import load

    spiel_game = load(game, players)
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    done = 0
    start = clock()
    while done < steps:
        if state.is_terminal():
            state = spiel_game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done / (clock() - start)


def measure(request: dict[str, Any]) -> float:
    """The rate a request names: ``{"env", "game", "players", "steps", "seed", "opponents", "clock"}``."""
    env, game, players, steps, seed = (request[k] for k in ("env", "game", "players", "steps", "seed"))
    clock = CLOCKS[request.get("clock", "wall")]
    if env == "pettingzoo":
        return pettingzoo_rate(game, players, steps, seed, clock)
    if env == "gymnasium":
        return gymnasium_rate(game, players, steps, seed, request["opponents"], clock)
    if env == "openspiel":
        return openspiel_rate(game, players, steps, seed, clock)
    raise ValueError(f"unknown environment {env!r}")


def serve() -> None:
    """Answer JSON requests on stdin, one a line, with ``{"rate": ...}`` (or ``{"error": ...}``)."""
    for line in sys.stdin:
        try:
            answer: dict[str, Any] = {"rate": measure(json.loads(line))}
        except Exception as exc:  # reported to the parent, which says so
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)


class Worker:
    """This script in a subprocess that imports ``shadowtable`` from ``src``."""

    def __init__(self, src: str) -> None:
        environment = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )

    def rate(self, request: dict[str, Any]) -> float | None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline() or '{"error": "the worker stopped"}')
        if "error" in answer:
            print(f"  ({request['env']}: {answer['error']})", file=sys.stderr)
            return None
        return float(answer["rate"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def yardstick(steps: int, seed: int, clock_name: str) -> float | None:
    """texas_holdem_v4's rate, or ``None`` where it cannot be loaded."""
    try:
        return texas_holdem_rate(steps, seed, CLOCKS[clock_name])
    except ImportError:  # PettingZoo's classic environments need rlcard and pygame
        return None


def median(values: list[float | None]) -> float | None:
    """The median of the values measured (``None`` if any run failed)."""
    return None if not values or any(v is None for v in values) else statistics.median(v for v in values if v)


def table(args: argparse.Namespace, rates: dict[str, dict[str, list[float | None]]], texas: float | None) -> str:
    """The report: medians per environment and tree, ratios to the yardstick and the baseline."""
    trees = list(rates)
    head = f"{'':42}" + "".join(f"{tree:>14}" for tree in trees) + ("   this/baseline" if len(trees) > 1 else "")
    lines = [
        f"{args.game} {args.players}p: {args.steps} steps a run, median of {args.runs} runs (interleaved), "
        f"{args.clock} clock",
        head,
    ]
    for env in args.envs:
        medians = [median(rates[tree][env]) for tree in trees]
        cells = "".join(f"{m:>14,.0f}" if m is not None else f"{'-':>14}" for m in medians)
        ratio = ""
        if len(trees) > 1 and medians[0] and medians[1]:
            ratio = f"{medians[0] / medians[1]:>15.2f}x"
        lines.append(f"{LABELS[env].format(opponents=args.opponents):<42}{cells}{ratio}")
        if env == "pettingzoo" and texas:
            shares = "".join(f"{m / texas:>13.2f}x" if m else f"{'-':>14}" for m in medians)
            lines.append(f"{'  / texas_holdem_v4 (same run)':<42}{shares}")
    if texas:
        lines.append(f"{'texas_holdem_v4 AEC (agent steps/s)':<42}{texas:>14,.0f}")
    else:
        lines.append("texas_holdem_v4: not measured (pip install rlcard pygame)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--envs", type=lambda text: text.split(","), default=list(ENVS), help="comma-separated")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="cpu: per-process CPU time, steadier on a busy machine"
    )
    parser.add_argument("--baseline-src", help="another tree's src directory, measured beside this one")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    if args.game is None:
        parser.error("name a game")
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    workers = {"this tree": Worker(here)}
    if args.baseline_src:
        workers["baseline"] = Worker(args.baseline_src)
    rates: dict[str, dict[str, list[float | None]]] = {tree: {env: [] for env in args.envs} for tree in workers}
    texas: list[float | None] = []
    try:
        for seed in range(args.runs):
            texas.append(yardstick(args.steps, seed, args.clock))
            for env in args.envs:
                request = {
                    "env": env,
                    "game": args.game,
                    "players": args.players,
                    "steps": args.steps,
                    "clock": args.clock,
                }
                for tree, worker in workers.items():
                    rates[tree][env].append(worker.rate({**request, "seed": seed, "opponents": args.opponents}))
    finally:
        for worker in workers.values():
            worker.close()
    print(table(args, rates, median(texas)))


if __name__ == "__main__":
    main()
