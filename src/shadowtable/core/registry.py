"""The registry of games and :func:`make`."""

from __future__ import annotations

import importlib
from typing import Any

from shadowtable.core.errors import UnknownGameError
from shadowtable.core.game import Game

_BUILTIN: dict[str, str] = {}
_REGISTERED: dict[str, type[Game[Any]]] = {}


def register(game_cls: type[Game[Any]]) -> type[Game[Any]]:
    """Register a :class:`Game` subclass under its ``SPEC.id`` (usable as a decorator)."""
    _REGISTERED[game_cls.SPEC.id] = game_cls
    return game_cls


def unregister(game_id: str) -> None:
    """Remove a registered game (for tests)."""
    _REGISTERED.pop(game_id, None)


def register_builtin(game_id: str, target: str) -> None:
    """Register a lazily imported game, ``target`` being ``"module:ClassName"``."""
    _BUILTIN[game_id] = target


def available_games() -> list[str]:
    """The ids of every game that :func:`make` accepts, sorted."""
    return sorted(set(_BUILTIN) | set(_REGISTERED))


def game_class(game_id: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``game_id``."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    if game_id in _BUILTIN:
        module_name, class_name = _BUILTIN[game_id].split(":")
        cls: type[Game[Any]] = getattr(importlib.import_module(module_name), class_name)
        _REGISTERED[game_id] = cls
        return cls
    raise UnknownGameError(f"unknown game {game_id!r}; available: {', '.join(available_games()) or 'none'}")


def make(game_id: str, /, *, players: int, **options: Any) -> Game[Any]:
    """A configured game; unknown ids, player counts and options raise typed errors."""
    return game_class(game_id)(players, options)
