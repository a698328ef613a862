"""The runner: plays games on a :class:`~shadowtable.core.table.Table`, which owns the
randomness, samples chance, asks bots and keeps the record.

Simulations, tournaments and tests draw every random number from one master seed: the chance
outcome of step ``n`` is drawn with ``derive_seed(seed, "chance", n)`` and a bot deciding at step
``n`` gets ``derive_seed(seed, "seat", seat, n)``.  Because no generator carries state between
steps, a game saved after any step and resumed later continues exactly as an uninterrupted one
would.

Games people play use no seed (``seed=None``): chance and bots draw from the operating system's
randomness (:class:`secrets.SystemRandom`), so a saved record, which holds every chance outcome so
far but no seed, says nothing about the draws to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shadowtable.core.errors import BotError
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.table import StepHook, Table, bot_rng, chance_rng

Session = Table
"""A game in progress with a bot or a person at each seat: the core :class:`Table`."""

__all__ = ["Session", "StepHook", "bot_rng", "chance_rng", "play_game"]


def play_game(
    game: Game[Any],
    bots: Sequence[Any],
    seed: int,
    *,
    seat_names: Sequence[str] | None = None,
    max_steps: int | None = None,
    on_step: StepHook | None = None,
) -> GameRecord:
    """Play one game with ``bots[seat]`` choosing for each seat; every seed derives from ``seed``.

    A bot only ever sees its own observation and the legal actions.  ``max_steps`` stops the
    game early and marks the record truncated.
    """
    if any(bot is None for bot in bots):
        raise BotError("play_game needs a bot for every seat")
    table = Table(game, bots, seed, seat_names=seat_names)
    table.run(max_steps=max_steps, on_step=on_step)
    return table.record()
