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
