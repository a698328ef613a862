"""A warm start for self-play: the network first learns to choose as a bot does.

A run with ``imitate`` set plays ``imitate_games`` games with that bot in every seat, records
every real choice (more than one legal action) from the choosing seat's own observation, and
trains the network on them before its first PPO iteration: cross-entropy towards the bot's
action over the legal actions, and the value head towards the seat's return. Self-play then
starts from the bot's level rather than from random play (behaviour cloning, as AlphaStar and
many board-game agents begin).

A run may instead copy a saved set of demonstrations (``imitate_from``, written by
``scripts/collect_demonstrations.py``): a slow teacher, such as the searching level 2, playing
against the bots a policy will meet, collected once in several processes. A *guided* network
learns from them where its guide and the teacher part ways, so each row keeps the guide's choice.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from shadowtable.bots.policy_bot import guide_choice
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
    guides: np.ndarray[Any, Any] | None = None
    """The guide bot's choice at each decision (for a guided network; ``None``: not recorded)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Where they came from: game, players, options, teacher, opponents, guide, seeds."""

    def __len__(self) -> int:
        return int(self.actions.shape[0])


DEMONSTRATIONS_FORMAT = "shadowtable-demonstrations-1"


def save_demonstrations(demos: Demonstrations, path: Path) -> None:
    """Write ``demos`` to ``path`` (NumPy ``.npz``; the settings as JSON beside the arrays)."""
    arrays: dict[str, Any] = {
        "observations": demos.observations,
        "masks": demos.masks,
        "actions": demos.actions,
        "returns": demos.returns,
        "meta": np.array(json.dumps({"format": DEMONSTRATIONS_FORMAT, **demos.meta})),
    }
    if demos.guides is not None:
        arrays["guides"] = demos.guides
    with open(path, "xb") as stream:  # never over a file already there
        np.savez_compressed(stream, **arrays)


def demonstrations_meta(path: Path) -> dict[str, Any]:
    """The settings saved with the demonstrations in ``path`` (their arrays are not read);
    ``ValueError`` for any other file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"{path}: not a demonstrations file ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != DEMONSTRATIONS_FORMAT:
        raise ValueError(f"{path}: not a demonstrations file (no {DEMONSTRATIONS_FORMAT} settings)")
    return meta


def load_demonstrations(path: Path) -> Demonstrations:
    """Demonstrations saved by :func:`save_demonstrations`; ``ValueError`` for any other file."""
    meta = demonstrations_meta(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in ("observations", "masks", "actions", "returns")}
            guides = data["guides"] if "guides" in data.files else None
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"{path}: not a demonstrations file ({error})") from None
    return Demonstrations(**arrays, guides=guides, meta=meta)


def joined(parts: list[Demonstrations], meta: dict[str, Any]) -> Demonstrations:
    """``parts`` as one set of demonstrations, in order."""
    guided = all(part.guides is not None for part in parts) and bool(parts)
    return Demonstrations(
        observations=np.concatenate([p.observations for p in parts]),
        masks=np.concatenate([p.masks for p in parts]),
        actions=np.concatenate([p.actions for p in parts]),
        returns=np.concatenate([p.returns for p in parts]),
        guides=np.concatenate([p.guides for p in parts if p.guides is not None]) if guided else None,
        meta=meta,
    )


@dataclass(frozen=True)
class ImitationStats:
    """How the imitation went: decisions learnt from, and the last epoch's means."""

    decisions: int
    loss: float
    accuracy: float
    """The share of the bot's choices the network ranks first."""


def demonstrations(game: Game[Any], bot_spec: str, games: int, rng: random.Random) -> Demonstrations:
    """``games`` games of ``bot_spec`` in every seat; every real choice it made."""
    parts = [
        game_demonstrations(game, [bot_spec] * game.players, range(game.players), rng.getrandbits(64))
        for _ in range(games)
    ]
    return joined(parts, {"teacher": bot_spec, "games": games}) if parts else _empty(game)


def game_demonstrations(
    game: Game[Any], seat_bots: list[str], learn_from: Any, seed: int, guide: str = ""
) -> Demonstrations:
    """One game with ``seat_bots[i]`` in seat ``i`` (chance drawn from ``seed``); every real
    choice (more than one legal action) of the seats in ``learn_from``, from the choosing seat's
    observation, with ``guide``'s choice beside it where a guide is named."""
    encoder = encoder_for(game)
    size = int(np.prod(encoder.shape))
    game_rng = random.Random(seed)
    bots = [make_bot(spec) for spec in seat_bots]
    guide_bot = make_bot(guide) if guide else None
    learners = set(learn_from)
    observations: list[np.ndarray[Any, Any]] = []
    masks: list[np.ndarray[Any, Any]] = []
    actions: list[int] = []
    guides: list[int] = []
    seats: list[int] = []
    state = game.initial_state()
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
        if len(legal) > 1 and player in learners:
            row = np.zeros(size, dtype=np.float32)
            encode_into(encoder, observation, row.reshape(encoder.shape))
            mask = np.zeros(game.spec.num_distinct_actions, dtype=bool)
            mask[legal] = True
            observations.append(row)
            masks.append(mask)
            actions.append(action)
            seats.append(player)
            if guide_bot is not None:
                guides.append(guide_choice(guide_bot, game, player, observation, legal))
        state = game.apply(state, action)
    final = game.returns(state) if game.current_player(state) == TERMINAL else [0.0] * game.players
    if not actions:
        return _empty(game, guided=guide_bot is not None)
    return Demonstrations(
        observations=np.stack(observations),
        masks=np.stack(masks),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray([float(final[seat]) for seat in seats], dtype=np.float32),
        guides=np.asarray(guides, dtype=np.int64) if guide_bot is not None else None,
    )


def _empty(game: Game[Any], guided: bool = False) -> Demonstrations:
    size = int(np.prod(encoder_for(game).shape))
    return Demonstrations(
        observations=np.zeros((0, size), dtype=np.float32),
        masks=np.zeros((0, game.spec.num_distinct_actions), dtype=bool),
        actions=np.zeros(0, dtype=np.int64),
        returns=np.zeros(0, dtype=np.float32),
        guides=np.zeros(0, dtype=np.int64) if guided else None,
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
    if net.guide_spec and demos.guides is None:
        raise ValueError(f"a network guided by {net.guide_spec!r} needs demonstrations that kept its guide's choices")
    observations, masks = torch.from_numpy(demos.observations), torch.from_numpy(demos.masks)
    actions, returns = torch.from_numpy(demos.actions), torch.from_numpy(demos.returns)
    guides = torch.from_numpy(demos.guides) if net.guide_spec and demos.guides is not None else None
    net.train()
    loss_sum = hits = 0.0
    for _ in range(epochs):
        loss_sum = hits = 0.0
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, minibatch):
            rows = order[start : start + minibatch]
            target = actions[rows].to(device)
            row_guides = None if guides is None else guides[rows].to(device)
            logits, values = net(observations[rows].to(device), masks[rows].to(device), row_guides)
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
