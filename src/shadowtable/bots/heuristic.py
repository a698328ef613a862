"""The ``heuristic`` bot: delegates to the rule-of-thumb bot written for each game."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation


def _shadow_planet() -> Bot:
    from shadowtable.bots.heuristic_shadow_planet import ShadowPlanetHeuristicBot

    return ShadowPlanetHeuristicBot()


def _shadowlord() -> Bot:
    from shadowtable.bots.heuristic_shadowlord import ShadowlordHeuristicBot

    return ShadowlordHeuristicBot()


PER_GAME: dict[str, Callable[[], Bot]] = {"shadow-planet": _shadow_planet, "shadowlord": _shadowlord}
"""Game id to a factory of its heuristic bot (imported lazily)."""


class HeuristicBot:
    """Plays each game with that game's heuristic bot; raises :class:`BotError` for others."""

    name = "heuristic"

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def bot_for(self, game_id: str) -> Bot:
        """The per-game bot for ``game_id`` (made once)."""
        if game_id not in self._bots:
            factory = PER_GAME.get(game_id)
            if factory is None:
                raise BotError(f"no heuristic bot for game {game_id!r}; available: {', '.join(sorted(PER_GAME))}")
            self._bots[game_id] = factory()
        return self._bots[game_id]

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        return self.bot_for(game.spec.id).choose(game, seat, observation, legal_actions, rng)
