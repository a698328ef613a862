"""Bots by short name with parameters: ``random``, ``ismcts:iterations=400:rollout=heuristic``."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.bots.random_bot import RandomBot
from shadowtable.core.errors import BotError
from shadowtable.core.keyvalue import parse_pairs

BotFactory = Callable[..., Bot]


def _heuristic(**params: Any) -> Bot:
    from shadowtable.bots.heuristic import HeuristicBot  # lazy: bots stay importable without the games

    return HeuristicBot(**params)


def _policy(**params: Any) -> Bot:
    # imported by name: the policy bot needs PyTorch, which neither plain installs nor the
    # compiled build's type check (it follows this module's imports) have
    module = importlib.import_module("shadowtable.bots.policy_bot")
    bot: Bot = module.PolicyBot(**params)
    return bot


def _epsilon(**params: Any) -> Bot:
    from shadowtable.bots.epsilon_bot import EpsilonBot  # lazy: it makes its base bot through this registry

    return EpsilonBot(**params)


_FACTORIES: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": _heuristic,
    "policy": _policy,
    "epsilon": _epsilon,
}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory(**params)`` available as bot ``name``."""
    _FACTORIES[name] = factory


def available_bots() -> list[str]:
    """Registered bot names, sorted."""
    return sorted(_FACTORIES)


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:key=value"`` into the name and typed parameters (values as in
    :func:`shadowtable.core.keyvalue.read_value`)."""
    name, *pairs = text.strip().split(":")
    return name, parse_pairs(pairs, what="bot parameter", context=f" in {text!r}", error=BotError)


def make_bot(text: str) -> Bot:
    """A bot from its short name and parameters."""
    name, params = parse_bot_spec(text)
    if name not in _FACTORIES:
        from shadowtable.bots.ladder import ALIASES  # lazy: the ladder names bots, not the other way

        levels = ", ".join(alias for alias in ALIASES if alias not in _FACTORIES)
        raise BotError(f"unknown bot {name!r}; available: {', '.join(available_bots())}; ladder levels: {levels}")
    try:
        return _FACTORIES[name](**params)
    except TypeError as exc:
        raise BotError(f"bad parameters for bot {name!r}: {exc}") from exc


def _register_builtin_bots() -> None:
    from shadowtable.bots.ismcts import ISMCTSBot

    register_bot("ismcts", ISMCTSBot)


_register_builtin_bots()
