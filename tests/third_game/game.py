"""``TinyStackGame``: the Game protocol, each method delegating to the template's modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import CHANCE, TERMINAL, Game, GameSpec, Observation, StateFormatError
from shadowtable.core.events import Event
from shadowtable.core.kernel import Kernel
from third_game import checks, narration, notation, observe, render, summary
from third_game.content import VALUES
from third_game.rules import RULEBOOK
from third_game.setup import initial_state
from third_game.state import State

KERNEL: Kernel[None, State] = Kernel(RULEBOOK, is_over=lambda s: s.over)

SPEC = GameSpec(
    id="tiny-stack",
    name="Tiny Stack",
    version="1",
    min_players=2,
    max_players=4,
    num_distinct_actions=2,
    max_chance_outcomes=VALUES,
    max_game_length=2 * 4,
    min_utility=0.0,
    max_utility=1.0,
)


class TinyStackGame(Game[State]):
    """Each seat is dealt a secret card, then bets or passes; the highest bettor's card wins."""

    SPEC = SPEC

    def initial_state(self) -> State:
        state = initial_state(self.players)
        KERNEL.prepare(None, state)
        return state

    def current_player(self, state: State) -> int:
        seat = KERNEL.current_player(state)
        return TERMINAL if seat is None else CHANCE if seat == -1 else seat

    def legal_actions(self, state: State) -> list[int]:
        return KERNEL.legal_actions(None, state)

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        return KERNEL.chance_outcomes(None, state)

    def apply(self, state: State, action: int) -> State:
        return KERNEL.apply(None, state, action)

    def apply_recorded(self, state: State, action: int, *, checked: bool = True) -> tuple[State, list[Event]]:
        return KERNEL.apply_recorded(None, state, action, checked=checked)

    def returns(self, state: State) -> list[float]:
        return [1.0 if state.over and seat in state.winners else 0.0 for seat in range(self.players)]

    def observe(self, state: State, seat: int | None) -> Observation:
        return observe.observe(KERNEL, state, self.check_seat(seat))

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        return observe.determinize(KERNEL, observation, rng, self.players)

    def render(self, observation: Observation) -> str:
        return render.render(observation)

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        return narration.event_text(KERNEL.top(state), action, self.check_seat(seat))

    def rules_help(self, observation: Observation) -> str:
        return narration.rules_help(str(observation["pending"]["rule"]))

    def action_to_str(self, state: State, action: int) -> str:
        return notation.action_to_str(KERNEL.top(state), action)

    def action_from_str(self, state: State, text: str) -> int | None:
        return notation.action_from_str(KERNEL.top(state), text)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            stack = [RULEBOOK.task_from_json(task) for task in data["stack"]]
            return State(
                list(data["deck"]),
                list(data["cards"]),
                list(data["bets"]),
                list(data["winners"]),
                bool(data["over"]),
                stack,
            )
        except (KeyError, TypeError) as exc:
            raise StateFormatError(f"bad tiny-stack state: {exc}") from exc

    def conservation_errors(self, state: State) -> list[str]:
        return checks.conservation_errors(state)

    def summary(self, state: State) -> dict[str, Any]:
        return summary.summary(state)
