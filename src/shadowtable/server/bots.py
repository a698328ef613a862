"""Bots at the server: run off the event loop, from one seat's observation, within a time budget."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game, Observation
from shadowtable.core.registry import make


@lru_cache(maxsize=64)
def _game(game_id: str, players: int, options_json: str) -> Game[Any]:
    return make(game_id, players=players, **json.loads(options_json))


@lru_cache(maxsize=64)
def _bot(spec: str) -> Bot:
    return make_bot(spec)


def choose(
    game_id: str, players: int, options_json: str, spec: str, seat: int, observation: Observation, legal: list[int]
) -> int:
    """The action bot ``spec`` picks at ``seat`` from ``observation`` (run in a worker process)."""
    game = _game(game_id, players, options_json)
    rng = random.Random(secrets.randbits(64))
    action = _bot(spec).choose(game, seat, observation, legal, rng)
    return int(action) if action in legal else legal[0]


class BotRunner:
    """A pool of worker processes (or one thread when ``workers`` is 0) deciding for bot seats."""

    def __init__(self, workers: int, budget_s: float) -> None:
        self.budget_s = budget_s
        self._executor: Executor
        if workers > 0:
            self._executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="bot")
        self.timeouts = 0

    async def choose(self, game: Game[Any], spec: str, seat: int, observation: Observation, legal: list[int]) -> int:
        """The bot's action; a random legal action if it takes longer than the budget or fails."""
        options = json.dumps(game.options, sort_keys=True)
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(
            self._executor, choose, game.spec.id, game.players, options, spec, seat, observation, legal
        )
        try:
            return await asyncio.wait_for(work, self.budget_s)
        except (TimeoutError, Exception):  # noqa: BLE001 - a bot never stops a table
            self.timeouts += 1
            return secrets.choice(legal)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
