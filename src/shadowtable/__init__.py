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


def compiled() -> bool:
    """Whether this is the compiled build: the engines imported as mypyc extension modules
    rather than as Python source (docs/performance.md)."""
    from shadowtable.core import kernel

    return not kernel.__file__.endswith((".py", ".pyc"))


def build() -> str:
    """This build in words: ``"compiled (mypyc)"`` or ``"pure Python"``."""
    return "compiled (mypyc)" if compiled() else "pure Python"


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
    "build",
    "compiled",
    "make",
    "play_game",
    "replay",
]
