"""``ShadowlordGame``: Shadowlord! on the ShadowTable protocol (game id ``"shadowlord"``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core.errors import InvalidOptionError
from shadowtable.core.game import Observation
from shadowtable.core.kernel_game import KernelGame
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.games.shadowlord import observe
from shadowtable.games.shadowlord.actions import NUM_ACTIONS
from shadowtable.games.shadowlord.checks import conservation_errors
from shadowtable.games.shadowlord.content import cached_content
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import KERNEL
from shadowtable.games.shadowlord.rules.turn import TURN_STEP_LIMIT
from shadowtable.games.shadowlord.setup import initial_state
from shadowtable.games.shadowlord.state import State, state_from_json, state_to_json
from shadowtable.games.shadowlord.summary import summary
from shadowtable.games.shadowlord.view import LordObservation
from shadowtable.games.shadowlord.wording import ShadowlordWording

TURN_CAP_MAX = 1000

SPEC = GameSpec(
    id="shadowlord",
    name="Shadowlord!",
    version="2.1.2",
    min_players=2,
    max_players=4,
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=17,
    max_game_length=100 + (TURN_CAP_MAX + 1) * (TURN_STEP_LIMIT + 1),
    min_utility=0.0,
    max_utility=1.0,
    options=(
        OptionSpec("modified", bool, False, "SL-2PM: 2-player game (modified): one Alliance each (players=2 only)"),
        OptionSpec(
            "turn_cap",
            int,
            150,
            "SL-D-20: end the game as truncated after this many turns (where people play: the most, as none)",
            minimum=1,
            maximum=TURN_CAP_MAX,
            people_default=TURN_CAP_MAX,
        ),
        OptionSpec(
            "timer_mode",
            str,
            "reshuffle",
            "SL-D-15: the Power Stone Timer moves at each reshuffle (REC) or every turn",
            choices=("reshuffle", "every_turn"),
        ),
        OptionSpec(
            "max_offers_per_turn", int, 1, "SL-D-19: negotiation offers allowed per turn", minimum=0, maximum=20
        ),
        OptionSpec("content", str, None, "path of a content file (None: built-in content)", nullable=True),
    ),
)


class ShadowlordGame(KernelGame[Context, State]):
    """Shadowlord! for 2 (two Alliances each, or the modified game), 3 or 4 players.

    The engine loop is :data:`.rules.KERNEL` (the kernel on the game's ``RULEBOOK``); the
    kernel's ``apply`` lists the new state's legal actions into it (``state.legal``), so
    that listing them and checking the next action costs one listing."""

    SPEC = SPEC
    KERNEL = KERNEL
    WORDING = ShadowlordWording

    def make_context(self) -> Context:
        if self.options["modified"] and self.players != 2:
            raise InvalidOptionError("option 'modified' is only for the 2-player game")
        content = cached_content(self.options["content"])
        key = "2m" if self.options["modified"] else str(self.players)
        return Context(content, content.configurations[key], self.players, self.options)

    @classmethod
    def standard_configurations(cls) -> list[dict[str, Any]]:
        return [{"players": 2}, {"players": 2, "modified": True}, {"players": 3}, {"players": 4}]

    def new_state(self) -> State:
        return initial_state(self.ctx)

    def load_state(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data, self.kernel.rulebook.task_from_json)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def returns(self, state: State) -> list[float]:
        if not state.end or state.winner < 0:
            return [0.0] * self.players
        return [1.0 if k == state.winner else 0.0 for k in range(self.players)]

    def observe(self, state: State, seat: int | None) -> Observation:
        return observe.observe(self.ctx, self.kernel, state, self.check_seat(seat))

    def observe_typed(self, state: State, seat: int | None) -> LordObservation:
        """:meth:`observe` as the typed view, built directly (no JSON in between)."""
        return observe.observe_typed(self.ctx, self.kernel, state, self.check_seat(seat))

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        return observe.determinize(self.ctx, self.kernel.rulebook, observation, rng)

    def conservation_errors(self, state: State) -> list[str]:
        return conservation_errors(self.ctx, state)

    def summary(self, state: State) -> dict[str, Any]:
        return summary(self.ctx, state)
