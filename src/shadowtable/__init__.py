"""ShadowTable: rules engines, bots and tools for The Shadow Planet and Shadowlord!."""

import shadowtable.games  # noqa: F401  (registers the built-in games)
from shadowtable.bots.base import Bot
from shadowtable.bots.random_bot import RandomBot
from shadowtable.core import (
    CHANCE,
    TERMINAL,
    BotError,
    ContentError,
    Game,
    GameRecord,
    GameSpec,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidPlayersError,
    Observation,
    OptionSpec,
    RecordError,
    ShadowTableError,
    StateFormatError,
    UnknownGameError,
    UnknownOptionError,
    available_games,
    make,
    play_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Bot",
    "BotError",
    "ContentError",
    "Game",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidPlayersError",
    "Observation",
    "OptionSpec",
    "RandomBot",
    "RecordError",
    "ShadowTableError",
    "StateFormatError",
    "UnknownGameError",
    "UnknownOptionError",
    "available_games",
    "make",
    "play_game",
    "replay",
]
