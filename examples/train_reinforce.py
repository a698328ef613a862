"""Train a linear softmax policy with REINFORCE (numpy only) against random opponents.

    python examples/train_reinforce.py --game shadow-planet --players 4 --episodes 300

Prints the win rate and mean return of the untrained (uniform random) and the trained policy in
the same seat over the same seeded evaluation episodes, with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from shadowtable.rl.gymnasium_env import ShadowTableEnv
from shadowtable.rl.reinforce import Evaluation, LinearSoftmaxPolicy, evaluate, train


def _line(label: str, result: Evaluation) -> str:
    low, high = result.win_interval
    return (
        f"{label:<10} win rate {result.win_rate:.3f} [{low:.3f}, {high:.3f}]  "
        f"mean return {result.mean_return:.3f}  ({result.episodes} episodes, {result.illegal_actions} illegal)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="shadow-planet")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=300, help="training episodes")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-episodes", type=int, default=200)
    args = parser.parse_args(argv)

    env = ShadowTableEnv(args.game, players=args.players, opponents="random")
    obs_dim = int(np.prod(env.observation_space.shape))
    num_actions = int(env.action_space.n)
    print(f"{args.game}, {args.players} players: observation {obs_dim} floats, {num_actions} actions")
    eval_seed = 1_000_000 + args.seed
    untrained = evaluate(env, None, args.eval_episodes, eval_seed)
    print(_line("untrained", untrained))

    policy = LinearSoftmaxPolicy(obs_dim, num_actions)
    start = time.perf_counter()
    returns = train(env, policy, args.episodes, args.lr, np.random.default_rng(args.seed))
    elapsed = time.perf_counter() - start
    tail = returns[-max(1, len(returns) // 5) :]
    print(
        f"trained {args.episodes} episodes in {elapsed:.1f} s; mean return over the last {len(tail)}: "
        f"{np.mean(tail):.3f}"
    )
    trained = evaluate(env, policy, args.eval_episodes, eval_seed)
    print(_line("trained", trained))


if __name__ == "__main__":
    main()
