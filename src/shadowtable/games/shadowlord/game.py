"""``ShadowlordGame``: Shadowlord! on the ShadowTable protocol (game id ``"shadowlord"``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core.errors import InvalidOptionError
from shadowtable.core.events import Event
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation, action_id
from shadowtable.core.kernel import CHANCE_SEAT
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.games.shadowlord import narration, notation, observe, reference, render
from shadowtable.games.shadowlord.actions import NUM_ACTIONS
from shadowtable.games.shadowlord.checks import conservation_errors
from shadowtable.games.shadowlord.content import cached_content
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import KERNEL
from shadowtable.games.shadowlord.rules.turn import TURN_STEP_LIMIT
from shadowtable.games.shadowlord.setup import initial_state
from shadowtable.games.shadowlord.state import State, state_from_json, state_to_json
from shadowtable.games.shadowlord.summary import summary

TURN_CAP_MAX = 1000

SPEC = GameSpec(
    id="shadowlord",
    name="Shadowlord!",
    version="2.1.1",
    min_players=2,
    max_players=4,
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=17,
    max_game_length=100 + (TURN_CAP_MAX + 1) * (TURN_STEP_LIMIT + 1),
    min_utility=0.0,
    max_utility=1.0,
    options=(
        OptionSpec("modified", bool, False, "2-player game (modified): one Alliance each (players=2 only)"),
        OptionSpec(
            "turn_cap", int, 150, "end the game as truncated after this many turns", minimum=1, maximum=TURN_CAP_MAX
        ),
        OptionSpec(
            "timer_mode",
            str,
            "reshuffle",
            "the Power Stone Timer moves at each reshuffle (REC) or every turn",
            choices=("reshuffle", "every_turn"),
        ),
        OptionSpec("max_offers_per_turn", int, 1, "negotiation offers allowed per turn", minimum=0, maximum=20),
        OptionSpec("content", str, None, "path of a content file (None: built-in content)", nullable=True),
    ),
)


class ShadowlordGame(Game[State]):
    """Shadowlord! for 2 (two Alliances each, or the modified game), 3 or 4 players.

    The engine loop is :data:`.rules.KERNEL` (the kernel on the game's ``RULEBOOK``);
    The kernel's ``apply`` lists the new state's legal actions into it (``state.legal``), so
    that listing them and checking the next action costs one listing."""

    SPEC = SPEC

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if self.options["modified"] and players != 2:
            raise InvalidOptionError("option 'modified' is only for the 2-player game")
        content = cached_content(self.options["content"])
        key = "2m" if self.options["modified"] else str(players)
        self.ctx = Context(content, content.configurations[key], players, self.options)
        self.kernel = KERNEL
        self._reference: dict[str, Any] | None = None

    @classmethod
    def standard_configurations(cls) -> list[dict[str, Any]]:
        return [{"players": 2}, {"players": 2, "modified": True}, {"players": 3}, {"players": 4}]

    def initial_state(self) -> State:
        state = initial_state(self.ctx)
        self.kernel.prepare(self.ctx, state)
        return state

    def current_player(self, state: State) -> int:
        seat = self.kernel.current_player(state)
        return TERMINAL if seat is None else CHANCE if seat == CHANCE_SEAT else seat

    def legal_actions(self, state: State) -> list[int]:
        return self.kernel.legal_actions(self.ctx, state)

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        return self.kernel.chance_outcomes(self.ctx, state)

    # Every action passes through action_id here, in Python: the compiled kernel takes an int
    # only (it would read True as 1 and raise TypeError for "3"; docs/performance.md).
    def apply(self, state: State, action: int) -> State:
        return self.kernel.apply(self.ctx, state, action_id(action))

    def is_terminal(self, state: State) -> bool:
        return self.kernel.current_player(state) is None

    def apply_unchecked(self, state: State, action: int) -> State:
        """Apply without the legality check: only for actions taken from ``legal_actions``."""
        return self.kernel.apply(self.ctx, state, action_id(action), checked=False)

    def apply_in_place(self, state: State, action: int) -> State:
        self.kernel.apply_in_place(self.ctx, state, action_id(action))
        return state

    def random_rollout(self, state: State, rng: random.Random, limit: int) -> State:
        self.kernel.random_rollout(self.ctx, state, rng, limit)
        return state

    def apply_recorded(self, state: State, action: int, *, checked: bool = True) -> tuple[State, list[Event]]:
        return self.kernel.apply_recorded(self.ctx, state, action_id(action), checked=checked)

    def returns(self, state: State) -> list[float]:
        if not state.end or state.winner < 0:
            return [0.0] * self.players
        return [1.0 if k == state.winner else 0.0 for k in range(self.players)]

    def observe(self, state: State, seat: int | None) -> Observation:
        return observe.observe(self.ctx, self.kernel, state, self.check_seat(seat))

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        return observe.determinize(self.ctx, self.kernel.rulebook, observation, rng)

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        return narration.event_text(self.ctx, state, action, self.check_seat(seat))

    def rules_help(self, observation: Observation) -> str:
        return narration.rules_help(observation)

    def reference(self) -> dict[str, Any]:
        if self._reference is None:
            self._reference = reference.reference(self.ctx)
        return self._reference

    def action_group(self, state: State, action: int) -> str | None:
        return notation.action_group(self.ctx, state, action)

    def render(self, observation: Observation) -> str:
        return render.render(self.ctx, observation)

    def action_to_str(self, state: State, action: int) -> str:
        return notation.action_to_str(self.ctx, state, action)

    def action_from_str(self, state: State, text: str) -> int | None:
        return notation.action_from_str(self.ctx, state, text)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data, self.kernel.rulebook.task_from_json)

    def conservation_errors(self, state: State) -> list[str]:
        return conservation_errors(self.ctx, state)

    def summary(self, state: State) -> dict[str, Any]:
        return summary(self.ctx, state)
