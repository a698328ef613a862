"""Proximal policy optimisation with action masks, on whole-game trajectories.

The loss is PPO's clipped surrogate, a value loss and an entropy bonus over the legal actions
(Schulman et al., 2017; as in CleanRL's single-file PPO); for a guided network, optionally a
penalty on its divergence from the guide. Advantages come from generalised
advantage estimation on each trajectory (its last decision bootstraps from 0: the game is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from shadowtable.learn.network import PolicyValueNet, masked_entropy
from shadowtable.learn.selfplay import Trajectory


@dataclass(frozen=True)
class PPOSettings:
    """The update's hyperparameters."""

    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 512
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    guide_kl: float = 0.0
    """Weight of the divergence from the guide's choice (a guided network only; 0: off)."""


@dataclass
class Batch:
    """Every decision of a set of trajectories, with advantages and returns."""

    observations: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    guides: torch.Tensor
    """Each decision's guide action (used by a guided network only)."""
    log_probs: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor

    def __len__(self) -> int:
        return int(self.actions.shape[0])


def advantages(rewards: Sequence[float], values: Sequence[float], gamma: float, lam: float) -> list[float]:
    """GAE(gamma, lambda) of one trajectory whose last step ends the game."""
    out = [0.0] * len(rewards)
    running = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        following = values[t + 1] if t + 1 < len(values) else 0.0
        delta = rewards[t] + gamma * following - values[t]
        running = delta + gamma * lam * running
        out[t] = running
    return out


def make_batch(trajectories: Sequence[Trajectory], settings: PPOSettings) -> Batch:
    """The decisions of ``trajectories`` as tensors, with GAE advantages and value targets."""
    adv: list[float] = []
    for trajectory in trajectories:
        adv += advantages(trajectory.rewards, trajectory.values, settings.gamma, settings.lam)
    values = [v for t in trajectories for v in t.values]
    advantage = torch.tensor(adv, dtype=torch.float32)
    return Batch(
        observations=torch.from_numpy(np.stack([o for t in trajectories for o in t.observations])),
        masks=torch.from_numpy(np.stack([m for t in trajectories for m in t.masks])),
        actions=torch.tensor([a for t in trajectories for a in t.actions], dtype=torch.int64),
        guides=torch.tensor([g for t in trajectories for g in t.guides], dtype=torch.int64),
        log_probs=torch.tensor([p for t in trajectories for p in t.log_probs], dtype=torch.float32),
        advantages=advantage,
        returns=advantage + torch.tensor(values, dtype=torch.float32),
    )


def guide_divergence(logits: torch.Tensor, guides: torch.Tensor) -> torch.Tensor:
    """The mean KL divergence from each row's guide (all its probability on the guide's choice)
    to the policy: the negative log-probability of the guide's choice."""
    return -torch.log_softmax(logits, dim=-1).gather(1, guides[:, None]).mean()


@dataclass
class UpdateStats:
    """Means over the update's minibatches."""

    policy_loss: float
    value_loss: float
    entropy: float
    approx_kl: float
    clip_fraction: float


def update(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    settings: PPOSettings,
    generator: torch.Generator,
    device: torch.device | None = None,
) -> UpdateStats:
    """``settings.epochs`` passes of minibatch PPO over ``batch``."""
    net.train()
    sums = np.zeros(5)
    count = 0
    size = len(batch)
    for _ in range(settings.epochs):
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, settings.minibatch):
            rows = order[start : start + settings.minibatch]
            obs, mask = batch.observations[rows].to(device), batch.masks[rows].to(device)
            actions, old = batch.actions[rows].to(device), batch.log_probs[rows].to(device)
            adv, target = batch.advantages[rows].to(device), batch.returns[rows].to(device)
            if len(rows) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            guides = batch.guides[rows].to(device) if net.guide_spec else None
            logits, values = net(obs, mask, guides)
            log_probs = torch.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(1)
            ratio = (log_probs - old).exp()
            policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - settings.clip, 1 + settings.clip) * adv).mean()
            value_loss = 0.5 * (values - target).pow(2).mean()
            entropy = masked_entropy(logits, mask).mean()
            loss = policy_loss + settings.value_coef * value_loss - settings.entropy_coef * entropy
            if settings.guide_kl and guides is not None:
                loss = loss + settings.guide_kl * guide_divergence(logits, guides)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                kl = ((ratio - 1) - (log_probs - old)).mean()
                clipped = ((ratio - 1).abs() > settings.clip).float().mean()
                sums += [t.item() for t in (policy_loss, value_loss, entropy, kl, clipped)]
            count += 1
    net.eval()
    means = sums / max(1, count)
    return UpdateStats(*(float(x) for x in means))
