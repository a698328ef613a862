"""A bot that plays another bot's move, except now and then a uniformly random one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from shadowtable.bots.base import Bot, check_bot_fits
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation


class EpsilonBot:
    """``epsilon:base=heuristic:p=0.1``: each decision, with probability ``p`` a legal action drawn
    uniformly, else the ``base`` bot's choice; both from the seat's rng, so a seed repeats a game.

    It varies a bot's play (for example the rollouts of an analysis, where every seat playing the
    heuristic alone ends games more predictably than people do). It sees what its base sees.
    """

    name = "epsilon"

    def __init__(self, base: str = "heuristic", p: float = 0.1) -> None:
        from shadowtable.bots.registry import make_bot  # lazy: the registry imports this module

        if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0:
            raise BotError(f"epsilon: p must be a number from 0 to 1, not {p!r}")
        if not isinstance(base, str) or base.split(":")[0] == self.name:
            raise BotError(f"epsilon: base must name another bot, not {base!r}")
        self.base: Bot = make_bot(base)
        self.p = float(p)

    def check_game(self, game: Game[Any]) -> None:
        """Fail now if the base bot cannot play ``game``."""
        check_bot_fits(self.base, game)
        bot_for = getattr(self.base, "bot_for", None)
        if bot_for is not None:  # the heuristic bot: a game without one
            bot_for(game.spec.id)

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        if rng.random() < self.p:
            return legal_actions[rng.randrange(len(legal_actions))]
        return self.base.choose(game, seat, observation, legal_actions, rng)
