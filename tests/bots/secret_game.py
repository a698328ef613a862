"""Secret Guess: seat 0 hides a bit, seat 1 guesses it without seeing it, then a coin is tossed.

On heads the round is void (``[0.5, 0.5]``); on tails seat 0 wins (``[1, 0]``) if the guess is
wrong and seat 1 (``[0, 1]``) if it is right.  Seat 1's observation hides seat 0's choice until the
end.  The game is worth 1/2 to seat 0; a search that lets seat 1 "see" the secret in the tree
values it at 1/4.  (The coin makes returns noisy, as real games are: with exactly repeating
returns both seats' UCB choices can fall into lockstep and mis-estimate the value.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import CHANCE, TERMINAL, Game, GameSpec, Observation, Wording

COIN = 2
"""The index of the coin toss in a state ``(secret, guess, coin)``."""


class NumberWording(Wording[tuple[int, ...]]):
    """Each action in words is its number."""

    def action_to_str(self, state: tuple[int, ...], action: int) -> str:
        return str(action)


class SecretGuessGame(Game[tuple[int, ...]]):
    WORDING = NumberWording
    SPEC = GameSpec(
        id="secret-guess",
        name="Secret Guess",
        version="1",
        min_players=2,
        max_players=2,
        num_distinct_actions=2,
        max_chance_outcomes=2,
        max_game_length=3,
        min_utility=0.0,
        max_utility=1.0,
    )

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def current_player(self, state: tuple[int, ...]) -> int:
        return (0, 1, CHANCE, TERMINAL)[len(state)]

    def legal_actions(self, state: tuple[int, ...]) -> list[int]:
        return [] if len(state) > COIN else [0, 1]

    def chance_outcomes(self, state: tuple[int, ...]) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if len(state) == COIN else []

    def apply(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        self.check_legal(state, action)
        return (*state, action)

    def returns(self, state: tuple[int, ...]) -> list[float]:
        if len(state) <= COIN:
            return [0.0, 0.0]
        if state[COIN] == 1:
            return [0.5, 0.5]
        return [0.0, 1.0] if state[0] == state[1] else [1.0, 0.0]

    def observe(self, state: tuple[int, ...], seat: int | None) -> Observation:
        hidden = len(state) <= COIN and seat != 0
        moves = [None if hidden and i == 0 else a for i, a in enumerate(state)]
        return {"seat": seat, "moves": moves}

    def determinize(self, observation: Observation, rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.randrange(2) if a is None else a for a in observation["moves"])

    def state_to_json(self, state: tuple[int, ...]) -> dict[str, Any]:
        return {"moves": list(state)}

    def state_from_json(self, data: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(data["moves"])
