"""What a seat may know, built from an allow-list of named fields, and ``determinize``."""

from __future__ import annotations

import random
from typing import Any

from shadowtable.core.errors import StateFormatError
from shadowtable.core.kernel import Kernel
from third_game.state import NOT_YET, State

PUBLIC_FIELDS = ("bets", "winners", "over")
"""Fields every seat and a spectator see as they are."""


def observe(kernel: Kernel[Any, State], s: State, seat: int | None) -> dict[str, Any]:
    obs: dict[str, Any] = {"seat": seat, **{name: _plain(getattr(s, name)) for name in PUBLIC_FIELDS}}
    obs["dealt"] = sum(card != NOT_YET for card in s.cards)
    obs["cards"] = [card if s.over or i == seat else None for i, card in enumerate(s.cards)]
    obs["pending"] = kernel.pending(s).to_json()
    return obs


def determinize(kernel: Kernel[Any, State], obs: dict[str, Any], rng: random.Random, players: int) -> State:
    """Deal every card the seat has not seen from what is left of the deck."""
    from third_game.content import deck_counts
    from third_game.setup import initial_state

    try:
        fresh = initial_state(players)
        cards = list(obs["cards"])
        deck = deck_counts()
        for card in cards:
            if card is not None:
                deck[card] -= 1
        for i in range(obs["dealt"]):
            if cards[i] is None:
                pool = [v for v, n in enumerate(deck) for _ in range(n)]
                cards[i] = rng.choice(pool)
                deck[cards[i]] -= 1
        cards += [NOT_YET] * (players - len(cards))
        cards = [NOT_YET if c is None else c for c in cards]
        done = obs["dealt"] + sum(b != NOT_YET for b in obs["bets"]) + int(obs["over"])
        return State(
            deck,
            cards,
            list(obs["bets"]),
            list(obs["winners"]),
            bool(obs["over"]),
            fresh.stack[: len(fresh.stack) - done],
        )
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise StateFormatError(f"not a tiny-stack observation: {exc}") from exc


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value
