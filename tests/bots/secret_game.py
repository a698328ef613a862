"""Secret Guess: seat 0 hides a bit, seat 1 guesses it without seeing it.

Seat 0 wins (returns ``[1, 0]``) if the guess is wrong, seat 1 (``[0, 1]``) if it is right.  Seat
1's observation hides seat 0's choice until the end, so a search that lets seat 1 "see" it in the
tree expects seat 0 always to lose, while the true value of the game for seat 0 is one half.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import CHANCE, TERMINAL, Game, GameSpec, Observation

assert CHANCE != TERMINAL  # the game has no chance nodes; both constants name the protocol values


class SecretGuessGame(Game[tuple[int, ...]]):
    SPEC = GameSpec(
        id="secret-guess",
        name="Secret Guess",
        version="1",
        min_players=2,
        max_players=2,
        num_distinct_actions=2,
        max_chance_outcomes=0,
        max_game_length=2,
        min_utility=0.0,
        max_utility=1.0,
    )

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def current_player(self, state: tuple[int, ...]) -> int:
        return TERMINAL if len(state) == 2 else len(state)

    def legal_actions(self, state: tuple[int, ...]) -> list[int]:
        return [] if len(state) == 2 else [0, 1]

    def chance_outcomes(self, state: tuple[int, ...]) -> list[tuple[int, float]]:
        return []

    def apply(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        self.check_legal(state, action)
        return (*state, action)

    def returns(self, state: tuple[int, ...]) -> list[float]:
        if len(state) < 2:
            return [0.0, 0.0]
        return [0.0, 1.0] if state[0] == state[1] else [1.0, 0.0]

    def observe(self, state: tuple[int, ...], seat: int | None) -> Observation:
        hidden = len(state) < 2 and seat != 0
        moves = [None if hidden and i == 0 else a for i, a in enumerate(state)]
        return {"seat": seat, "moves": moves}

    def determinize(self, observation: Observation, rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.randrange(2) if a is None else a for a in observation["moves"])

    def action_to_str(self, state: tuple[int, ...], action: int) -> str:
        return str(action)

    def state_to_json(self, state: tuple[int, ...]) -> dict[str, Any]:
        return {"moves": list(state)}

    def state_from_json(self, data: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(data["moves"])
