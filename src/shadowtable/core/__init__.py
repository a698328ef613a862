"""The ShadowTable core: protocol, spec, errors, registry, records, replay and the runner."""

from shadowtable.core.errors import (
    BotError,
    ContentError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidPlayersError,
    InvalidSeatError,
    MissingExtraError,
    RecordError,
    ShadowTableError,
    StateFormatError,
    UnknownGameError,
    UnknownOptionError,
)
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation
from shadowtable.core.record import GameRecord, replay, replay_states
from shadowtable.core.registry import available_games, game_class, make, register, register_builtin
from shadowtable.core.rng import derive_seed, derived_rng, sample_outcome
from shadowtable.core.runner import play_game
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.core.wording import Wording

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BotError",
    "ContentError",
    "Game",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidPlayersError",
    "InvalidSeatError",
    "MissingExtraError",
    "Observation",
    "OptionSpec",
    "RecordError",
    "ShadowTableError",
    "StateFormatError",
    "UnknownGameError",
    "UnknownOptionError",
    "Wording",
    "available_games",
    "derive_seed",
    "derived_rng",
    "game_class",
    "make",
    "play_game",
    "register",
    "register_builtin",
    "replay",
    "replay_states",
    "sample_outcome",
]
