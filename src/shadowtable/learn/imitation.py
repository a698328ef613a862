"""A warm start for self-play: the network first learns to choose as a bot does.

A run with ``imitate`` set plays ``imitate_games`` games with that bot in every seat, records
every real choice (more than one legal action) from the choosing seat's own observation, and
trains the network on them before its first PPO iteration: cross-entropy towards the bot's
action over the legal actions, and the value head towards the seat's return. Self-play then
starts from the bot's level rather than from random play (behaviour cloning, as AlphaStar and
many board-game agents begin).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.rng import sample_outcome
from shadowtable.learn.network import PolicyValueNet
from shadowtable.rl.encoding import encode_into, encoder_for


@dataclass
class Demonstrations:
    """A bot's choices: each row one decision, from the choosing seat's observation."""

    observations: np.ndarray[Any, Any]
    masks: np.ndarray[Any, Any]
    actions: np.ndarray[Any, Any]
    returns: np.ndarray[Any, Any]
    """The choosing seat's return in the game the decision was taken in."""

    def __len__(self) -> int:
        return int(self.actions.shape[0])


@dataclass(frozen=True)
class ImitationStats:
    """How the imitation went: decisions learnt from, and the last epoch's means."""

    decisions: int
    loss: float
    accuracy: float
    """The share of the bot's choices the network ranks first."""


def demonstrations(game: Game[Any], bot_spec: str, games: int, rng: random.Random) -> Demonstrations:
    """``games`` games of ``bot_spec`` in every seat; every real choice it made."""
    encoder = encoder_for(game)
    size = int(np.prod(encoder.shape))
    observations: list[np.ndarray[Any, Any]] = []
    masks: list[np.ndarray[Any, Any]] = []
    actions: list[int] = []
    returns: list[float] = []
    for _ in range(games):
        game_rng = random.Random(rng.getrandbits(64))
        bots = [make_bot(bot_spec) for _ in range(game.players)]
        state = game.initial_state()
        seats: list[int] = []
        for _step in range(game.spec.max_game_length):
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                state = game.apply(state, sample_outcome(game.chance_outcomes(state), game_rng))
                continue
            legal = game.legal_actions(state)
            observation = game.observe(state, player)
            action = int(bots[player].choose(game, player, observation, legal, game_rng))
            if len(legal) > 1:
                row = np.zeros(size, dtype=np.float32)
                encode_into(encoder, observation, row.reshape(encoder.shape))
                mask = np.zeros(game.spec.num_distinct_actions, dtype=bool)
                mask[legal] = True
                observations.append(row)
                masks.append(mask)
                actions.append(action)
                seats.append(player)
            state = game.apply(state, action)
        final = game.returns(state) if game.current_player(state) == TERMINAL else [0.0] * game.players
        returns += [float(final[seat]) for seat in seats]
    return Demonstrations(
        observations=np.stack(observations) if observations else np.zeros((0, size), dtype=np.float32),
        masks=np.stack(masks) if masks else np.zeros((0, game.spec.num_distinct_actions), dtype=bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(returns, dtype=np.float32),
    )


def imitate(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    demos: Demonstrations,
    *,
    epochs: int,
    generator: torch.Generator,
    minibatch: int = 512,
    value_coef: float = 0.5,
    device: torch.device | None = None,
) -> ImitationStats:
    """Train ``net`` on ``demos`` for ``epochs`` passes (cross-entropy and value loss)."""
    size = len(demos)
    if size == 0:
        return ImitationStats(0, 0.0, 0.0)
    observations, masks = torch.from_numpy(demos.observations), torch.from_numpy(demos.masks)
    actions, returns = torch.from_numpy(demos.actions), torch.from_numpy(demos.returns)
    net.train()
    loss_sum = hits = 0.0
    for _ in range(epochs):
        loss_sum = hits = 0.0
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, minibatch):
            rows = order[start : start + minibatch]
            target = actions[rows].to(device)
            logits, values = net(observations[rows].to(device), masks[rows].to(device))
            policy_loss = nn.functional.cross_entropy(logits, target)
            value_loss = 0.5 * (values - returns[rows].to(device)).pow(2).mean()
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_sum += float(loss.detach()) * len(rows)
            hits += float((logits.detach().argmax(dim=-1) == target).sum())
    net.eval()
    return ImitationStats(size, loss_sum / size, hits / size)
