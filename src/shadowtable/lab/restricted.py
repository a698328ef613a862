"""Restricted play: a bot wrapper that never takes one kind of action while its seat holds a role.

The wrapper sees only what the wrapped bot is given (the game, its seat, its own observation,
the legal actions and its random stream): its role comes from its own observation (or from its
seat number, for a ``seat N`` role), and an action's kind from the action id alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.core.action_kinds import ActionKinds
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation
from shadowtable.lab.spec import SEAT_ROLE_PREFIX


class RestrictedBot:
    """Plays as ``inner`` but, while its seat holds ``role``, removes the actions of ``kind``
    from the legal actions whenever another choice remains."""

    def __init__(self, inner: Bot, kinds: ActionKinds, role: str, kind: str) -> None:
        self.inner = inner
        self.kinds = kinds
        self.role = role
        self.kind = kind
        self.name = inner.name

    def check_game(self, game: Game[Any]) -> None:
        """The wrapped bot's own check, if it has one."""
        check = getattr(self.inner, "check_game", None)
        if check is not None:
            check(game)

    def holds_role(self, game: Game[Any], seat: int, observation: Observation) -> bool:
        """Whether ``seat`` holds the restricted role, as far as its own observation shows."""
        if self.role.startswith(SEAT_ROLE_PREFIX):
            return self.role == f"{SEAT_ROLE_PREFIX}{seat}"
        return self.kinds.role_of(game, observation, seat) == self.role

    def allowed(self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int]) -> list[int]:
        """The actions this seat may choose from: ``legal`` less the restricted kind, unless nothing else is left."""
        if not self.holds_role(game, seat, observation):
            return list(legal)
        kept = [action for action in legal if self.kinds.of(action) != self.kind]
        return kept or list(legal)

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        allowed = self.allowed(game, seat, observation, legal_actions)
        if len(allowed) == len(legal_actions):
            return self.inner.choose(game, seat, observation, legal_actions, rng)
        action = self.inner.choose(game, seat, observation, allowed, rng)
        if action not in allowed:
            raise BotError(f"bot {self.name!r} chose {action}, outside the {len(allowed)} actions it was given")
        return action
