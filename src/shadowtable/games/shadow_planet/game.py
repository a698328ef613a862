"""``ShadowPlanetGame``: The Shadow Planet on the ShadowTable protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core.errors import ContentError, InvalidOptionError, StateFormatError
from shadowtable.core.events import Event
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation, action_id
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import notation, observe, reference
from shadowtable.games.shadow_planet.content import load_content
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import KERNEL, RULEBOOK, current_player, movement
from shadowtable.games.shadow_planet.rules.endgame import outcome
from shadowtable.games.shadow_planet.setup import new_state
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.summary import summary
from shadowtable.games.shadow_planet.tasks import DiscardMessage, PlayMoveCards

MAX_ROUNDS = 60
"""Rounds can never exceed this: the Countdown advances at least 1 per round and only the
32 Search cards, each revealed once, can move it back (at most 12 + 32 = 44 rounds)."""
STEPS_PER_ROUND = 1500
"""Generous bound on the actions of one round (draft, six turns, discards, reveals)."""

OPTIONS = (
    OptionSpec("content", str, None, "path of a content JSON file (None: built-in content)", nullable=True),
    OptionSpec("temple_first", bool, True, "SP-D-PROC-1: the Temple pile is revealed first, unshuffled"),
    OptionSpec("caves_vehicle_only", bool, True, "SP-D-BOARD-CAVES: Links touching the Caves need a Vehicle"),
    OptionSpec("latched_end", bool, True, "SP-D-PROC-5: an end condition reached at any time latches"),
    OptionSpec("alien_threat_clamp", bool, True, "SP-D-PROC-6: the Alien's end-game Threat move clamps to 0..8"),
    OptionSpec(
        "identity_ties",
        str,
        "choose",
        "SP-D-PROC-8: on a Marker tie the player chooses, or the lowest Initiative is taken",
        choices=("choose", "lowest_initiative"),
    ),
    OptionSpec("vehicle_fallback", bool, True, "SP-D-VEH-FALLBACK: a driver short of the destination may go elsewhere"),
    OptionSpec(
        "search_bonus_without_cards", bool, True, "SP-D-SEARCH-BONUS: Search bonuses apply with no Search card played"
    ),
    OptionSpec(
        "crawler_is_move_card",
        bool,
        True,
        "SP-D-SPACE-SUIT-CRAWLER: the Crawler card, though discarded at once, is a Move card played this "
        "turn, so Space Suit cannot follow it",
    ),
)


class ShadowPlanetGame(Game[State]):
    """The Shadow Planet for 3-5 players (see docs/games/shadow-planet.md)."""

    SPEC = GameSpec(
        id="shadow-planet",
        name="The Shadow Planet",
        version="1.2.1",
        min_players=3,
        max_players=5,
        num_distinct_actions=A.NUM_ACTIONS,
        max_chance_outcomes=121,
        max_game_length=MAX_ROUNDS * STEPS_PER_ROUND,
        min_utility=0.0,
        max_utility=1.0,
        options=OPTIONS,
    )

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        try:
            content = load_content(self.options["content"])
        except ContentError as exc:
            raise InvalidOptionError(f"option 'content': {exc}") from exc
        self.ctx = Context(content, players, self.options)
        self._reference: dict[str, Any] | None = None

    # -- dynamics -------------------------------------------------------------------------------
    def initial_state(self) -> State:
        state = new_state(self.ctx)
        KERNEL.prepare(self.ctx, state)
        return state

    def current_player(self, state: State) -> int:
        seat = KERNEL.current_player(state)
        return TERMINAL if seat is None else seat

    def simultaneous_decisions(self, state: State) -> list[tuple[int, list[int]]]:
        """The Messages discards: every player with a Gear secretly discards one card (RB), each
        from their own Gear, so no discard changes another's options."""
        block: list[tuple[int, list[int]]] = []
        probe = state
        while isinstance(KERNEL.top(probe), DiscardMessage):
            legal = self.legal_actions(probe)
            block.append((self.current_player(probe), legal))
            probe = self.apply_unchecked(probe, legal[0])
        return block

    def is_terminal(self, state: State) -> bool:
        return KERNEL.current_player(state) is None

    def legal_actions(self, state: State) -> list[int]:
        return KERNEL.legal_actions(self.ctx, state)

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        return KERNEL.chance_outcomes(self.ctx, state)

    # Every action passes through action_id here, in Python: the compiled kernel takes an int
    # only (it would read True as 1 and raise TypeError for "3"; docs/performance.md).
    def apply(self, state: State, action: int) -> State:
        return KERNEL.apply(self.ctx, state, action_id(action))

    def apply_unchecked(self, state: State, action: int) -> State:
        """Apply without the legality check (for benchmarks and search bots that know it is legal)."""
        return KERNEL.apply(self.ctx, state, action_id(action), checked=False)

    def apply_in_place(self, state: State, action: int) -> State:
        KERNEL.apply_in_place(self.ctx, state, action_id(action))
        return state

    def random_rollout(self, state: State, rng: random.Random, limit: int) -> State:
        KERNEL.random_rollout(self.ctx, state, rng, limit)
        return state

    def apply_recorded(self, state: State, action: int, *, checked: bool = True) -> tuple[State, list[Event]]:
        return KERNEL.apply_recorded(self.ctx, state, action_id(action), checked=checked)

    def returns(self, state: State) -> list[float]:
        if state.stack:
            return [0.0] * self.players
        winners = outcome(self.ctx, state)["winners"]
        return [1.0 if seat in winners else 0.0 for seat in range(self.players)]

    # -- information ----------------------------------------------------------------------------
    def observe(self, state: State, seat: int | None) -> Observation:
        obs = observe.observe(self.ctx, state, self.check_seat(seat))
        if not state.stack:
            obs["outcome"] = outcome(self.ctx, state)
        return obs

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        try:
            return observe.determinize(self.ctx, dict(observation), rng)
        except (KeyError, TypeError, IndexError) as exc:
            raise StateFormatError(f"bad Shadow Planet observation: {exc}") from exc

    def reference(self) -> dict[str, Any]:
        if self._reference is None:
            self._reference = reference.reference(self.ctx)
        return self._reference

    def action_group(self, state: State, action: int) -> str | None:
        return None if self.current_player(state) == CHANCE else notation.action_group(action)

    def preview_details(self, after: State) -> dict[str, Any]:
        """During step I, Move: where the points played so far could take the Character on foot."""
        top = after.stack[-1]
        if isinstance(top, PlayMoveCards) and top.drive < 0 and top.total > 0:
            return {"reach": movement.reachable(self.ctx, after, top.total)}
        return {}

    def render(self, observation: Observation) -> str:
        from shadowtable.games.shadow_planet.render import render

        return render(self.ctx, observation)

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        from shadowtable.games.shadow_planet.narration import event_text

        return event_text(self.ctx, state, self.apply_unchecked(state, action), action, self.check_seat(seat))

    def rules_help(self, observation: Observation) -> str:
        from shadowtable.games.shadow_planet.narration import rules_help

        pending = observation.get("pending")
        return rules_help(str(pending.get("rule", ""))) if isinstance(pending, dict) else ""

    # -- notation -------------------------------------------------------------------------------
    def action_to_str(self, state: State, action: int) -> str:
        if current_player(state) == CHANCE:
            return notation.chance_to_str(self.ctx, state, action)
        return notation.decision_to_str(self.ctx, state, action)

    def action_from_str(self, state: State, text: str) -> int | None:
        if current_player(state) == CHANCE:
            return None
        return notation.decision_from_str(self.ctx, text)

    # -- serialisation --------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            state = State.from_json(dict(data), RULEBOOK.task_from_json)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateFormatError(f"bad Shadow Planet state: {exc}") from exc
        if state.n != self.players or len(state.where) != self.ctx.num_cards:
            raise StateFormatError("state does not match this game's players or content")
        return state

    # -- checks and reports ---------------------------------------------------------------------
    def conservation_errors(self, state: State) -> list[str]:
        from shadowtable.games.shadow_planet.checks import conservation_errors

        return conservation_errors(self.ctx, state)

    def summary(self, state: State) -> dict[str, Any]:
        """Report metadata: end reason, rounds, indicator trajectory, identities, winners."""
        return summary(self.ctx, state)
