"""REINFORCE with a baseline, numpy only: a linear softmax policy masked to the legal actions.

A deliberately small, dependency-light example of training on :class:`ShadowTableEnv`. The policy
scores action ``a`` as ``obs @ W[:, a] + b[a]`` and samples from the softmax over the *legal*
actions only (illegal logits are ``-inf``), so it never plays an illegal action. ``W`` is
``float32`` of shape ``(obs_dim, actions)``; every update touches only the columns of the legal
actions at a step (the softmax gradient is zero elsewhere) and only the rows where the
observation is non-zero. ``examples/train_reinforce.py`` is the command-line front end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shadowtable.rl.gymnasium_env import ShadowTableEnv
from shadowtable.sim.stats import wilson_interval

FloatArray = np.ndarray[Any, np.dtype[np.float32]]
IntArray = np.ndarray[Any, np.dtype[np.intp]]


class LinearSoftmaxPolicy:
    """A linear softmax policy over encoded observations; all-zero weights play uniformly."""

    def __init__(self, obs_dim: int, num_actions: int) -> None:
        self.weights: FloatArray = np.zeros((obs_dim, num_actions), dtype=np.float32)
        self.bias: FloatArray = np.zeros(num_actions, dtype=np.float32)

    def probabilities(self, observation: FloatArray, legal: IntArray) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The action probabilities over ``legal`` (same order); only those columns are computed.

        Equivalent to a softmax over all actions with the illegal logits set to ``-inf``.
        """
        if legal.size == 0:
            raise ValueError("no legal action")
        nonzero = np.flatnonzero(observation)
        logits = observation[nonzero] @ self.weights[np.ix_(nonzero, legal)] + self.bias[legal]
        logits = logits.astype(np.float64)
        logits -= logits.max()
        exp = np.exp(logits)
        probs: np.ndarray[Any, np.dtype[np.float64]] = exp / exp.sum()
        return probs

    def act(self, observation: FloatArray, mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
        """Sample an action among those where ``mask`` is non-zero."""
        legal = np.flatnonzero(mask)
        probs = self.probabilities(observation, legal)
        return int(legal[rng.choice(legal.size, p=probs)])


@dataclass
class Episode:
    """One episode of the learning seat: what it saw, could do and did, and its final return."""

    observations: list[FloatArray] = field(default_factory=list)
    legal: list[IntArray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    episode_return: float = 0.0
    illegal_actions: int = 0


def run_episode(
    env: ShadowTableEnv, policy: LinearSoftmaxPolicy | None, rng: np.random.Generator, seed: int | None = None
) -> Episode:
    """Play one episode with ``policy`` (``None``: uniformly random legal actions) and record it."""
    observation, info = env.reset(seed=seed)
    episode = Episode()
    done = False
    while not done:
        mask = info["action_mask"]
        legal = np.flatnonzero(mask)
        action = int(rng.choice(legal)) if policy is None else policy.act(observation, mask, rng)
        episode.observations.append(observation)
        episode.legal.append(legal)
        episode.actions.append(action)
        observation, reward, done, truncated, info = env.step(action)
        if info.get("illegal_action"):
            episode.illegal_actions += 1
        episode.episode_return += float(reward)
        done = done or truncated
    return episode


def reinforce_update(policy: LinearSoftmaxPolicy, episode: Episode, baseline: float, lr: float) -> None:
    """One REINFORCE step: ``θ += lr * (G - baseline) * ∇ log π(a|s)`` at every step of ``episode``.

    The reward comes only at the end (undiscounted), so every step's return is the episode's
    return ``G``. For a masked softmax, ``∇_logits log π(a|s) = onehot(a) - π(·|s)`` on the legal
    actions and zero elsewhere, so only those columns (and the non-zero observation rows) change.
    """
    advantage = episode.episode_return - baseline
    if advantage == 0.0:
        return
    for observation, legal, action in zip(episode.observations, episode.legal, episode.actions, strict=True):
        probs = policy.probabilities(observation, legal)
        grad_logits = -probs
        grad_logits[int(np.searchsorted(legal, action))] += 1.0
        step = (lr * advantage * grad_logits).astype(np.float32)
        nonzero = np.flatnonzero(observation)
        rows = np.ix_(nonzero, legal)
        policy.weights[rows] += np.outer(observation[nonzero], step)
        policy.bias[legal] += step


def train(
    env: ShadowTableEnv,
    policy: LinearSoftmaxPolicy,
    episodes: int,
    lr: float,
    rng: np.random.Generator,
    baseline_decay: float = 0.95,
) -> list[float]:
    """Train ``policy`` for ``episodes`` episodes; the baseline is a moving average of returns.

    Returns the training returns, in order.
    """
    returns: list[float] = []
    baseline = 0.0
    for index in range(episodes):
        episode = run_episode(env, policy, rng, seed=int(rng.integers(0, 2**31)))
        if index > 0:
            reinforce_update(policy, episode, baseline, lr)
        baseline = (
            episode.episode_return
            if index == 0
            else baseline_decay * baseline + (1 - baseline_decay) * (episode.episode_return)
        )
        returns.append(episode.episode_return)
    return returns


@dataclass(frozen=True)
class Evaluation:
    """Results of evaluation episodes: a win is a positive return."""

    episodes: int
    wins: int
    mean_return: float
    win_interval: tuple[float, float]
    illegal_actions: int

    @property
    def win_rate(self) -> float:
        """The share of episodes won."""
        return self.wins / self.episodes if self.episodes else 0.0


def evaluate(
    env: ShadowTableEnv, policy: LinearSoftmaxPolicy | None, episodes: int, seed: int, confidence: float = 0.95
) -> Evaluation:
    """Play ``episodes`` episodes seeded ``seed, seed + 1, ...`` (``None``: random legal play).

    The same ``seed`` gives every policy the same deals and opponent seeds.
    """
    rng = np.random.default_rng(seed)
    returns: list[float] = []
    illegal = 0
    for index in range(episodes):
        episode = run_episode(env, policy, rng, seed=seed + index)
        returns.append(episode.episode_return)
        illegal += episode.illegal_actions
    wins = sum(1 for r in returns if r > 0)
    mean = float(np.mean(returns)) if returns else 0.0
    return Evaluation(episodes, wins, mean, wilson_interval(wins, episodes, confidence), illegal)
