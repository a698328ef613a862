"""``TinyStackGame``: the game declared on the kernel (:class:`~shadowtable.core.kernel_game.KernelGame`),
each hook delegating to the template's modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import GameSpec, Observation
from shadowtable.core.kernel import Kernel
from shadowtable.core.kernel_game import KernelGame
from third_game import checks, observe, summary
from third_game.content import VALUES
from third_game.rules import RULEBOOK
from third_game.setup import initial_state
from third_game.state import State
from third_game.wording import TinyStackWording

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


class TinyStackGame(KernelGame[None, State]):
    """Each seat is dealt a secret card, then bets or passes; the highest bettor's card wins."""

    SPEC = SPEC

    KERNEL = KERNEL
    WORDING = TinyStackWording

    def new_state(self) -> State:
        return initial_state(self.players)

    def load_state(self, data: Mapping[str, Any]) -> State:
        stack = [RULEBOOK.task_from_json(task) for task in data["stack"]]
        lists = [list(data[name]) for name in ("deck", "cards", "bets", "winners")]
        return State(*lists, bool(data["over"]), stack)

    def returns(self, state: State) -> list[float]:
        return [1.0 if state.over and seat in state.winners else 0.0 for seat in range(self.players)]

    def observe(self, state: State, seat: int | None) -> Observation:
        return observe.observe(KERNEL, state, self.check_seat(seat))

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        return observe.determinize(KERNEL, observation, rng, self.players)

    def conservation_errors(self, state: State) -> list[str]:
        return checks.conservation_errors(state)

    def summary(self, state: State) -> dict[str, Any]:
        return summary.summary(state)
