"""Every line a random game tells: what the log checks of both games read."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from shadowtable.core.game import Game


def told_in_a_random_game(game: Game[Any], seed: int, steps: int = 3000) -> Iterator[tuple[Any, int | None, dict]]:
    """``(the state the action was taken in, the reader, the line)`` for every line any seat or a
    spectator is told over one game of random choices and draws (``seed``), ``steps`` at most."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(steps):
        if game.is_terminal(state):
            return
        outcomes = game.chance_outcomes(state)
        if outcomes:
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        after, events = game.apply_recorded(state, action)
        for seat in [None, *range(game.players)]:
            for line in game.words.told(state, action, events, seat):
                yield state, seat, line
        state = after
