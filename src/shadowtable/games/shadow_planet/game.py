"""``ShadowPlanetGame``: The Shadow Planet on the ShadowTable protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shadowtable.core import jsondata
from shadowtable.core.errors import ContentError, InvalidOptionError, StateFormatError
from shadowtable.core.game import Observation
from shadowtable.core.kernel_game import KernelGame
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import observe
from shadowtable.games.shadow_planet.content import load_content
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import KERNEL, RULEBOOK
from shadowtable.games.shadow_planet.rules.endgame import outcome
from shadowtable.games.shadow_planet.setup import new_state
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.summary import summary
from shadowtable.games.shadow_planet.tasks import DiscardMessage
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetOutcome
from shadowtable.games.shadow_planet.wording import ShadowPlanetWording

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


class ShadowPlanetGame(KernelGame[Context, State]):
    """The Shadow Planet for 3-5 players (see docs/games/shadow-planet.md)."""

    SPEC = GameSpec(
        id="shadow-planet",
        name="The Shadow Planet",
        version="1.2.2",
        min_players=3,
        max_players=5,
        num_distinct_actions=A.NUM_ACTIONS,
        max_chance_outcomes=121,
        max_game_length=MAX_ROUNDS * STEPS_PER_ROUND,
        min_utility=0.0,
        max_utility=1.0,
        options=OPTIONS,
    )

    KERNEL = KERNEL
    WORDING = ShadowPlanetWording
    SIMULTANEOUS = (DiscardMessage,)
    """The Messages discards: every player with a Gear secretly discards one card (RB), each
    from their own Gear, so no discard changes another's options."""

    def make_context(self) -> Context:
        try:
            content = load_content(self.options["content"])
        except ContentError as exc:
            raise InvalidOptionError(f"option 'content': {exc}") from exc
        return Context(content, self.players, self.options)

    def new_state(self) -> State:
        return new_state(self.ctx)

    def load_state(self, data: Mapping[str, Any]) -> State:
        state = State.from_json(dict(data), RULEBOOK.task_from_json)
        if state.n != self.players or len(state.where) != self.ctx.num_cards:
            raise StateFormatError("state does not match this game's players or content")
        return state

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

    def observe_typed(self, state: State, seat: int | None) -> PlanetObservation:
        """:meth:`observe` as the typed view, built directly (no JSON in between)."""
        ended = None if state.stack else jsondata.trusted_reader(PlanetOutcome)(outcome(self.ctx, state))
        return observe.observe_typed(self.ctx, state, self.check_seat(seat), ended)

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        try:
            return observe.determinize(self.ctx, observation, rng)
        except (KeyError, TypeError, IndexError) as exc:
            raise StateFormatError(f"bad Shadow Planet observation: {exc}") from exc

    # -- checks and reports ---------------------------------------------------------------------
    def conservation_errors(self, state: State) -> list[str]:
        from shadowtable.games.shadow_planet.checks import conservation_errors

        return conservation_errors(self.ctx, state)

    def summary(self, state: State) -> dict[str, Any]:
        """Report metadata: end reason, rounds, indicator trajectory, identities, winners."""
        return summary(self.ctx, state)
