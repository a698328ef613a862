"""The bot protocol: a bot sees one seat's observation and the legal actions, never the state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from shadowtable.core.game import Game, Observation


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and a ``choose`` method is a bot."""

    name: str

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        """Pick one of ``legal_actions``; ``rng`` is this seat's private stream from the runner."""
        ...


def check_bot_fits(bot: Bot, game: Game[Any]) -> None:
    """Raise :class:`~shadowtable.core.errors.BotError` now if ``bot`` cannot play ``game``, rather
    than at its first decision: a bot that can tell defines ``check_game(game)`` (the ``policy``
    bot: a policy trained for another game or player count, or none shipped)."""
    check = getattr(bot, "check_game", None)
    if check is not None:
        check(game)
