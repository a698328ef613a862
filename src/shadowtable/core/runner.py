"""The game runner: owns the RNG, samples chance, asks bots, returns the record."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from shadowtable.core.errors import BotError
from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.record import GameRecord
from shadowtable.core.rng import derive_seed, sample_outcome

StepHook = Callable[[Game[Any], Any, int, int], None]
"""Called as ``hook(game, state, player, action)`` before each action is applied."""


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
    if len(bots) != game.players:
        raise BotError(f"{game.spec.id} with {game.players} players needs {game.players} bots, got {len(bots)}")
    chance_rng = random.Random(derive_seed(seed, "chance"))
    bot_rngs = [random.Random(derive_seed(seed, "seat", seat)) for seat in range(game.players)]
    names = list(seat_names) if seat_names is not None else [_bot_name(b) for b in bots]
    state = game.initial_state()
    actions: list[int] = []
    limit = game.spec.max_game_length if max_steps is None else max_steps
    while len(actions) < limit:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), chance_rng)
        else:
            action = _ask_bot(game, state, bots[player], player, bot_rngs[player])
        if on_step is not None:
            on_step(game, state, player, action)
        state = game.apply(state, action)
        actions.append(action)
    terminal = game.is_terminal(state)
    return GameRecord(
        game=game.spec.id,
        version=game.spec.version,
        players=game.players,
        options=dict(game.options),
        seats=names,
        actions=actions,
        seed=seed,
        returns=list(game.returns(state)) if terminal else None,
        truncated=not terminal,
        metadata=game_summary(game, state),
    )


def _ask_bot(game: Game[Any], state: Any, bot: Any, seat: int, rng: random.Random) -> int:
    legal = game.legal_actions(state)
    action = bot.choose(game, seat, game.observe(state, seat), legal, rng)
    if action not in legal:
        raise BotError(f"bot {_bot_name(bot)} at seat {seat} chose illegal action {action!r}")
    return int(action)


def _bot_name(bot: Any) -> str:
    return str(getattr(bot, "name", type(bot).__name__))


def game_summary(game: Game[Any], state: Any) -> dict[str, Any]:
    """Game-specific facts about a final state for reports (``Game.summary`` if defined)."""
    summary = getattr(game, "summary", None)
    return dict(summary(state)) if callable(summary) else {}
