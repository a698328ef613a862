"""Steps per second of the RL environments under random masked play (medians).

python benchmarks/bench_rl.py shadow-planet --players 4 --steps 5000 --runs 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np


def pettingzoo_rate(game: str, players: int, steps: int, seed: int) -> float:
    from shadowtable.rl.pettingzoo_env import env

    e = env(game, players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = time.perf_counter()
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
    return done / (time.perf_counter() - start)


def gymnasium_rate(game: str, players: int, steps: int, seed: int, opponents: str) -> float:
    from shadowtable.rl.gymnasium_env import ShadowTableEnv

    env = ShadowTableEnv(game, players=players, opponents=opponents)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for step in range(steps):
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            env.reset(seed=seed + step)
    return steps / (time.perf_counter() - start)


def openspiel_rate(game: str, players: int, steps: int, seed: int) -> float:
    from shadowtable.rl.openspiel_game import load

    spiel_game = load(game, players)
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = spiel_game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--opponents", default="random")
    args = parser.parse_args()
    measures = {
        "PettingZoo AEC (agent steps/s)": lambda s: pettingzoo_rate(args.game, args.players, args.steps, s),
        f"Gymnasium vs {args.opponents} (agent steps/s)": lambda s: gymnasium_rate(
            args.game, args.players, args.steps, s, args.opponents
        ),
        "OpenSpiel (decisions/s)": lambda s: openspiel_rate(args.game, args.players, args.steps, s),
    }
    for name, measure in measures.items():
        rate = statistics.median(measure(seed) for seed in range(args.runs))
        print(f"{args.game} {args.players}p  {name:<40} {rate:10.0f}  (median of {args.runs})")


if __name__ == "__main__":
    main()
