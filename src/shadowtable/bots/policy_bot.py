"""A trained policy as a bot: ``policy`` (the policy shipped for the game) or
``policy:path=runs/sp4/policy.pt``.

The bot sees what every bot sees, the seat's observation and the legal actions: it encodes the
observation with the game's encoder, masks the network's logits to the legal actions and draws
an action with the runner's ``rng`` (``greedy=1``: the most probable one). Without ``path`` it
plays the policy shipped with the package for the game, player count and options (a variant such
as Shadowlord!'s modified two-player game has its own), if there is one: a NumPy ``.npz`` file
(:mod:`shadowtable.learn.portable`), so it needs no PyTorch.  A ``.pt``
file written by ``shadowtable train`` needs PyTorch (the ``[train]`` extra).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from shadowtable.bots.ladder import config_name
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation

SHIPPED = "shadowtable.learn.policies"
"""The package holding the shipped policies, each named by its configuration
(:func:`~shadowtable.bots.ladder.config_name`): ``shadow-planet-4p.npz``, ``shadowlord-2p-modified.npz``."""


class Policy(Protocol):
    """A loaded policy: what it was trained for and its probabilities over legal actions."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def obs_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def guide(self) -> str: ...
    @property
    def options(self) -> Mapping[str, Any]: ...

    def probabilities(self, obs: Any, legal_actions: Sequence[int], guide_action: int | None = None) -> list[float]: ...


def configuration_words(game: str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """``shadowlord with 2 players``, with a variant's options after it: ``(modified)``."""
    variant = config_name(game, players, options).removeprefix(f"{game}-{players}p").lstrip("-")
    return f"{game} with {players} players" + (f" ({variant})" if variant else "")


def shipped_policy(game: str, players: int, options: Mapping[str, Any] | None = None) -> Path | None:
    """The shipped policy for ``game`` with ``players`` players and ``options`` (default options
    when ``None``), if there is one."""
    candidate = resources.files(SHIPPED).joinpath(f"{config_name(game, players, options)}.npz")
    return Path(str(candidate)) if candidate.is_file() else None


def load_policy(path: Path) -> Policy:
    """The policy saved in ``path`` (``.npz``: NumPy; otherwise a PyTorch ``policy.pt``);
    :class:`BotError` naming the problem."""
    try:
        if path.suffix == ".npz":
            from shadowtable.learn.portable import read_portable

            return read_portable(path)
        try:
            import torch  # noqa: F401
        except ImportError:
            raise BotError(
                f"the policy {path} is a PyTorch file: pip install -e '.[train]' (shipped policies need only NumPy)"
            ) from None
        from shadowtable.learn.network import TorchPolicy, load_policy_record

        return TorchPolicy(load_policy_record(path))
    except ValueError as exc:
        raise BotError(f"policy bot: {exc}") from None


GUIDE_SEED = 0
"""The guide bot draws from a generator seeded with this at every decision, so its choice depends on
the seat's observation alone (the same in training and in play)."""


def guide_choice(bot: Any, game: Game[Any], seat: int, observation: Any, legal_actions: Sequence[int]) -> int:
    """The guide ``bot``'s choice from ``seat``'s observation (a one-action list needs no bot)."""
    if len(legal_actions) == 1:
        return int(legal_actions[0])
    return int(bot.choose(game, seat, observation, legal_actions, random.Random(GUIDE_SEED)))


class PolicyBot:
    """Plays a saved policy."""

    name = "policy"

    def __init__(self, path: str | None = None, greedy: int = 0) -> None:
        try:
            import numpy  # noqa: F401
        except ImportError:
            raise BotError("the policy bot needs NumPy: pip install -e '.[web]' or '.[rl]'") from None
        self.path = None if path is None else Path(str(path))
        self.greedy = bool(greedy)
        self._loaded: tuple[Policy, Any] | None = None  # the policy and the game's encoder
        self._loaded_for: tuple[Any, ...] = ()  # the game, player count and options they were checked for
        self._policy = None if self.path is None else load_policy(self.path)  # a bad file fails now
        self._guide: Any = None  # a guided policy's guide bot, made on first use

    def _net(self, game: Game[Any]) -> tuple[Policy, Any]:
        checked_for = (game.spec.id, game.players, sorted(game.options.items()))
        if self._loaded is not None and self._loaded_for == checked_for:
            return self._loaded
        from shadowtable.rl.encoding import encoder_for

        wanted = configuration_words(game.spec.id, game.players, game.options)
        if self._policy is None:
            self.path = shipped_policy(game.spec.id, game.players, game.options)
            if self.path is None:
                raise BotError(f"no policy ships for {wanted}; give path=FILE")
            self._policy = load_policy(self.path)
        policy = self._policy
        trained = configuration_words(policy.game, policy.players, policy.options)
        if trained != wanted:
            raise BotError(f"policy {self.path} was trained for {trained}, not {wanted}")
        encoder = encoder_for(game)
        if policy.obs_size != math.prod(encoder.shape) or policy.num_actions != game.spec.num_distinct_actions:
            raise BotError(f"policy {self.path} does not fit this version of {game.spec.id}'s encoding")
        self._loaded, self._loaded_for = (policy, encoder), checked_for
        return self._loaded

    def check_game(self, game: Game[Any]) -> None:
        """Raise :class:`BotError` if this policy cannot play ``game`` (see :func:`check_bot_fits`)."""
        self._net(game)

    def probabilities(
        self, game: Game[Any], observation: Observation, legal_actions: Sequence[int], seat: int | None = None
    ) -> list[float]:
        """The policy's probability of each legal action (in the order given); a guided policy
        asks its guide bot for its choice from the same observation (``seat`` deciding)."""
        policy, encoder = self._net(game)
        guide_action = None
        if policy.guide:
            if seat is None:
                seat = int(observation["seat"])
            guide_action = guide_choice(self._guide_bot(policy.guide), game, seat, observation, legal_actions)
        return policy.probabilities(encoder.encode(observation), legal_actions, guide_action)

    def _guide_bot(self, spec: str) -> Any:
        if self._guide is None:
            from shadowtable.bots.registry import make_bot

            self._guide = make_bot(spec)
        return self._guide

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal_actions: Sequence[int], rng: random.Random
    ) -> int:
        """An action drawn from the policy with ``rng`` (the most probable one when ``greedy``)."""
        probs = self.probabilities(game, observation, legal_actions, seat)
        if self.greedy:
            return legal_actions[max(range(len(probs)), key=lambda i: (probs[i], -i))]
        point = rng.random() * sum(probs)
        total = 0.0
        for action, p in zip(legal_actions, probs, strict=True):
            total += p
            if point < total:
                return action
        return legal_actions[-1]
