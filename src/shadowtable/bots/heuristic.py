"""The ``heuristic`` bot: delegates to the rule-of-thumb bot each game names in its manifest."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class
from shadowtable.core.views import TypedObservation


class HeuristicBot:
    """Plays each game with that game's heuristic bot; raises :class:`BotError` for others."""

    name = "heuristic"
    reads_typed_views = True
    """Every game's heuristic reads its typed view as well as the JSON (a search's rollouts pass
    the typed one: the same choices, no JSON built and read back)."""

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def bot_for(self, game_id: str) -> Bot:
        """The per-game bot for ``game_id`` (made once)."""
        if game_id not in self._bots:
            reference = manifest_of(game_class(game_id)).heuristic_bot if game_id in available_games() else None
            if reference is None:
                raise BotError(
                    f"no heuristic bot for game {game_id!r}; available: {', '.join(games_with_heuristics())}"
                )
            bot: Bot = load(reference)()
            self._bots[game_id] = bot
        return self._bots[game_id]

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation | TypedObservation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        bot: Any = self.bot_for(game.spec.id)  # each game's heuristic reads either form
        return int(bot.choose(game, seat, observation, legal_actions, rng))


def games_with_heuristics() -> list[str]:
    """The registered games whose manifest names a heuristic bot."""
    return [gid for gid in available_games() if manifest_of(game_class(gid)).heuristic_bot]
