"""Observation encoders: a seat's observation to a fixed-shape ``float32`` array, and action masks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from shadowtable.core.game import Game, Observation


class Encoder(Protocol):
    """Turns observations of one configured game into arrays of one shape."""

    shape: tuple[int, ...]
    low: float
    high: float

    def encode(self, observation: Observation) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The observation as an array of ``shape`` with values in ``[low, high]``."""
        ...


EncoderFactory = Callable[[Game[Any]], Encoder]
_ENCODERS: dict[str, EncoderFactory] = {}


def register_encoder(game_id: str, factory: EncoderFactory) -> None:
    """Make ``factory(game)`` the encoder of ``game_id``."""
    _ENCODERS[game_id] = factory


def encoder_for(game: Game[Any]) -> Encoder:
    """The registered encoder of ``game`` (the built-in games register theirs on import)."""
    _load_builtin_encoders()
    try:
        factory = _ENCODERS[game.spec.id]
    except KeyError:
        raise KeyError(f"no observation encoder registered for {game.spec.id!r}") from None
    return factory(game)


def _load_builtin_encoders() -> None:
    import importlib

    for module in ("shadowtable.rl.encoders_shadow_planet", "shadowtable.rl.encoders_shadowlord"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def action_mask(game: Game[Any], legal: Sequence[int]) -> np.ndarray[Any, np.dtype[np.int8]]:
    """A 0/1 ``int8`` vector over ``num_distinct_actions`` with ones at ``legal``."""
    mask = np.zeros(game.spec.num_distinct_actions, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros for ``None``)."""
    vector = [0.0] * size
    if index is not None:
        vector[index] = 1.0
    return vector
