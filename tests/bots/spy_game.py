"""A game wrapper that proves a bot only reasons about states built from its own observation.

:class:`ProvenanceSpy` delegates to a real game but accepts only states that it handed out
itself, from ``determinize`` (called with the bot's observation) or from ``apply`` on such a
state.  Any other state (the runner's true state, a fresh ``initial_state``, a parsed JSON
state) raises :class:`LeakError`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from shadowtable.core import Game, Observation, Wording


class LeakError(AssertionError):
    """The bot touched a state that did not come from its own observation."""


class SpyWording(Wording[Any]):
    """The wrapped game's notation, for states the spy handed out only."""

    game: ProvenanceSpy

    def action_to_str(self, state: Any, action: int) -> str:
        return self.game.inner.words.action_to_str(self.game._known(state), action)

    def build_reference(self) -> dict[str, Any]:
        """The printed material (what a game's own bots read of it) never depends on a state."""
        return self.game.inner.words.reference()


class ProvenanceSpy(Game[Any]):
    """Wraps ``inner`` for one decision of the seat that observed ``observation``."""

    WORDING = SpyWording

    def __init__(self, inner: Game[Any], observation: Observation) -> None:
        self.SPEC = inner.spec
        self.players = inner.players
        self.options = dict(inner.options)
        self.inner = inner
        self.observation = observation
        self.handed_out: dict[int, Any] = {}
        self.determinize_calls = 0

    def __getattr__(self, name: str) -> Any:
        """Static content (e.g. a game's rules context) passes through; methods do not."""
        value = getattr(self.inner, name)
        if callable(value):
            raise LeakError(f"bot called {name!r}, which the spy does not check")
        return value

    def _known(self, state: Any) -> Any:
        if id(state) not in self.handed_out:
            raise LeakError(f"bot used a state it did not get from determinize: {state!r}")
        return state

    def _hand_out(self, state: Any) -> Any:
        self.handed_out[id(state)] = state  # keeps it alive, so the id is not reused
        return state

    def determinize(self, observation: Observation, rng: random.Random) -> Any:
        if observation is not self.observation:
            raise LeakError("determinize called with an observation other than the bot's own")
        self.determinize_calls += 1
        return self._hand_out(self.inner.determinize(observation, rng))

    def apply(self, state: Any, action: int) -> Any:
        return self._hand_out(self.inner.apply(self._known(state), action))

    def current_player(self, state: Any) -> int:
        return self.inner.current_player(self._known(state))

    def legal_actions(self, state: Any) -> list[int]:
        return self.inner.legal_actions(self._known(state))

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes(self._known(state))

    def returns(self, state: Any) -> list[float]:
        return self.inner.returns(self._known(state))

    def observe(self, state: Any, seat: int | None) -> Observation:
        return self.inner.observe(self._known(state), seat)

    def observe_typed(self, state: Any, seat: int | None) -> Any:
        return self.inner.observe_typed(self._known(state), seat)

    def initial_state(self) -> Any:
        raise LeakError("bot built a fresh initial state instead of determinizing")

    def state_to_json(self, state: Any) -> dict[str, Any]:
        return self.inner.state_to_json(self._known(state))

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        raise LeakError("bot built a state from JSON instead of determinizing")


class SpiedBot:
    """Runs ``inner`` on a :class:`ProvenanceSpy`; checks the observation is left unchanged."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = f"spied-{inner.name}"
        self.decisions = 0
        self.determinizations = 0

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
    ) -> int:
        before = copy.deepcopy(observation)
        spy = ProvenanceSpy(game, observation)
        action = int(self.inner.choose(spy, seat, observation, legal, rng))
        if observation != before:
            raise LeakError("bot changed the observation it was given")
        self.decisions += 1
        self.determinizations += spy.determinize_calls
        return action
