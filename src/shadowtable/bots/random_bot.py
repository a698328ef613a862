"""The uniform random bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from shadowtable.core.game import Game, Observation


class RandomBot:
    """Chooses uniformly among the legal actions with the runner's seat RNG."""

    name = "random"

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        return legal_actions[rng.randrange(len(legal_actions))]
