"""Batches of seeded games: every game's seed derives from one master seed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import BotError
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.rng import derive_seed
from shadowtable.core.runner import play_game


def game_seed(master_seed: int, index: int) -> int:
    """The seed of game number ``index`` of a batch."""
    return derive_seed(master_seed, "game", index)


def line_up(bot_specs: Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: a single spec fills every seat, otherwise one per seat exactly."""
    specs = [s for s in bot_specs if s.strip()]
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise BotError(f"need 1 or {players} bots for {players} players, got {len(specs)}")
    return specs


def play_indexed(
    game: Game[Any],
    specs: Sequence[str],
    master_seed: int,
    index: int,
    *,
    seat_names: Sequence[str] | None = None,
) -> GameRecord:
    """Game number ``index`` of a batch, its index kept in the record's metadata.

    Each bot is built fresh from its spec; seats are named ``seat_names`` (default: the specs).
    """
    bots = [make_bot(spec) for spec in specs]
    names = specs if seat_names is None else seat_names
    record = play_game(game, bots, game_seed(master_seed, index), seat_names=names)
    return replace(record, metadata={**record.metadata, "index": index})
