"""A trained policy as a bot: ``policy:path=runs/sp4/policy.pt`` (the ``[train]`` extra).

The bot sees what every bot sees, the seat's observation and the legal actions: it encodes the
observation with the game's encoder, masks the network's logits to the legal actions and draws
an action with the runner's ``rng`` (``greedy=1``: the most probable one). Without ``path`` it
plays the policy shipped with the package for the game and player count, if there is one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation

SHIPPED = "shadowtable.learn.policies"
"""The package holding the shipped policies, named ``<game>-<players>p.pt``."""


def shipped_policy(game: str, players: int) -> Path | None:
    """The shipped policy for ``game`` with ``players`` players, if there is one."""
    candidate = resources.files(SHIPPED).joinpath(f"{game}-{players}p.pt")
    return Path(str(candidate)) if candidate.is_file() else None


def _one_thread() -> None:
    """One decision is a forward pass of one observation: PyTorch's default of a thread per core
    made it 20 times slower on a two-core machine (22 ms instead of 1 ms), so the bot asks for
    one thread, as ``shadowtable train --threads 1`` does."""
    import torch

    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)


class PolicyBot:
    """Plays a policy saved by ``shadowtable train``."""

    name = "policy"

    def __init__(self, path: str | None = None, greedy: int = 0) -> None:
        try:
            import torch  # noqa: F401
        except ImportError:
            raise BotError("the policy bot needs PyTorch: pip install -e '.[train]'") from None
        self.path = None if path is None else Path(str(path))
        self.greedy = bool(greedy)
        self._loaded: tuple[str, int, Any, Any] | None = None  # game, players, net, encoder
        if self.path is not None:
            self._record()  # a bad file fails now, not at the first decision

    def _record(self) -> dict[str, Any]:
        from shadowtable.learn.network import load_policy_record

        assert self.path is not None
        try:
            return load_policy_record(self.path)
        except ValueError as exc:
            raise BotError(f"policy bot: {exc}") from None

    def _net(self, game: Game[Any]) -> tuple[Any, Any]:
        if self._loaded is not None and self._loaded[:2] == (game.spec.id, game.players):
            return self._loaded[2], self._loaded[3]
        from shadowtable.learn.network import net_from_record
        from shadowtable.rl.encoding import encoder_for

        if self.path is None:
            self.path = shipped_policy(game.spec.id, game.players)
            if self.path is None:
                raise BotError(f"no policy ships for {game.spec.id} with {game.players} players; give path=FILE")
        record = self._record()
        if (record["game"], record["players"]) != (game.spec.id, game.players):
            raise BotError(
                f"policy {self.path} was trained for {record['game']} with {record['players']} players, "
                f"not {game.spec.id} with {game.players}"
            )
        encoder = encoder_for(game)
        net = net_from_record(record)
        _one_thread()
        if net.obs_size != math.prod(encoder.shape) or net.num_actions != game.spec.num_distinct_actions:
            raise BotError(f"policy {self.path} does not fit this version of {game.spec.id}'s encoding")
        self._loaded = (game.spec.id, game.players, net, encoder)
        return net, encoder

    def check_game(self, game: Game[Any]) -> None:
        """Raise :class:`BotError` if this policy cannot play ``game`` (see :func:`check_bot_fits`)."""
        self._net(game)

    def probabilities(self, game: Game[Any], observation: Observation, legal_actions: Sequence[int]) -> list[float]:
        """The policy's probability of each legal action (in the order given)."""
        import numpy as np
        import torch

        net, encoder = self._net(game)
        obs = torch.from_numpy(encoder.encode(observation).reshape(1, -1))
        mask = torch.zeros((1, net.num_actions), dtype=torch.bool)
        mask[0, list(legal_actions)] = True
        with torch.no_grad():
            logits, _ = net(obs, mask)
            probs = torch.softmax(logits[0], dim=-1).double().numpy()
        return [float(p) for p in np.asarray(probs)[list(legal_actions)]]

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal_actions: Sequence[int], rng: random.Random
    ) -> int:
        """An action drawn from the policy with ``rng`` (the most probable one when ``greedy``)."""
        probs = self.probabilities(game, observation, legal_actions)
        if self.greedy:
            return legal_actions[max(range(len(probs)), key=lambda i: (probs[i], -i))]
        point = rng.random() * sum(probs)
        total = 0.0
        for action, p in zip(legal_actions, probs, strict=True):
            total += p
            if point < total:
                return action
        return legal_actions[-1]
