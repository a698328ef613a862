"""Hidden Option: an action that is legal only in some determinizations.

A chance node deals seat 1 a hidden key (0 or 1).  Seat 0 then plays ``wait`` (0) or ``bet`` (1);
seat 1 answers ``fold`` (0), or ``unlock`` (1) which is legal only when it holds key 1.
Seat 0 wins a bet unless seat 1 unlocks; seat 1 wins otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import CHANCE, TERMINAL, Game, GameSpec, Observation, Wording

State = tuple[int, ...]
"""``(key, seat 0's action, seat 1's action)``, as far as played."""


class NumberWording(Wording[State]):
    """Each action in words is its number."""

    def action_to_str(self, state: State, action: int) -> str:
        return str(action)


class HiddenOptionGame(Game[State]):
    WORDING = NumberWording
    SPEC = GameSpec(
        id="hidden-option",
        name="Hidden Option",
        version="1",
        min_players=2,
        max_players=2,
        num_distinct_actions=2,
        max_chance_outcomes=2,
        max_game_length=3,
        min_utility=0.0,
        max_utility=1.0,
    )

    def initial_state(self) -> State:
        return ()

    def current_player(self, state: State) -> int:
        return (CHANCE, 0, 1, TERMINAL)[len(state)]

    def legal_actions(self, state: State) -> list[int]:
        if len(state) == 2:
            return [0, 1] if state[0] == 1 else [0]
        return [] if len(state) == 3 else [0, 1]

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if not state else []

    def apply(self, state: State, action: int) -> State:
        self.check_legal(state, action)
        return (*state, action)

    def returns(self, state: State) -> list[float]:
        if len(state) < 3:
            return [0.0, 0.0]
        seat0_wins = state[1] == 1 and state[2] == 0
        return [1.0, 0.0] if seat0_wins else [0.0, 1.0]

    def observe(self, state: State, seat: int | None) -> Observation:
        key = state[0] if state and (seat == 1 or len(state) == 3) else None
        return {"seat": seat, "key": key, "dealt": bool(state), "moves": list(state[1:])}

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        key = observation["key"] if observation["key"] is not None else rng.randrange(2)
        return (key, *observation["moves"]) if observation["dealt"] else ()

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"state": list(state)}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return tuple(data["state"])
