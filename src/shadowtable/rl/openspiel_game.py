"""OpenSpiel registration: each ShadowTable game as a pyspiel Python game with explicit chance.

``load("shadow-planet", players=4)`` returns a ``pyspiel.Game`` that OpenSpiel's algorithms
(and ``pyspiel.random_sim_test``) run on; observation tensors come from the game's encoder.
States clone cheaply and support ``resample_from_infostate``, so OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) plays them as they are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.registry import game_class, make
from shadowtable.rl.encoding import encoder_for


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a ShadowTable game id."""
    return "python_shadowtable_" + game_id.replace("-", "_")


def spiel_player(player: int) -> int:
    """The pyspiel player id of a ShadowTable ``current_player`` value."""
    if player == CHANCE:
        return int(pyspiel.PlayerId.CHANCE)
    if player == TERMINAL:
        return int(pyspiel.PlayerId.TERMINAL)
    return player


def observation_json(game: Game[Any], state: Any, seat: int) -> str:
    """The observation of ``seat`` as compact JSON with sorted keys."""
    return json.dumps(game.observe(state, seat), sort_keys=True, separators=(",", ":"))


def sampler_rng(sampler: Callable[[], float]) -> random.Random:
    """A ``random.Random`` seeded from two draws of ``sampler`` (floats in [0, 1)), so a seeded
    sampler gives the same generator."""
    high = int(float(sampler()) * 2**53)
    low = int(float(sampler()) * 2**53)
    return random.Random(high << 53 | low)


class _Core:
    """One engine state, the game it belongs to and the JSON observations worked out for it (by
    seat).  Only its cache ever changes, and only by adding what the state determines, so a state
    and its clones share one core: pyspiel's ``clone`` deep-copies each attribute of a Python
    state, which for a core returns the core itself.  Applying an action makes a new core.
    """

    __slots__ = ("game", "state", "strings")

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game = game
        self.state = state
        self.strings: dict[int, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def after(self, action: int) -> _Core:
        """The core of the state after ``action``."""
        return _Core(self.game, self.game.apply(self.state, action))


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an immutable ShadowTable state (``st_state``)."""

    def __init__(self, game: SpielGame, core: _Core | None = None) -> None:
        super().__init__(game)
        self._core = game.initial_core if core is None else core

    @property
    def st_game(self) -> Game[Any]:
        """The ShadowTable game."""
        return self._core.game

    @property
    def st_state(self) -> Any:
        """The ShadowTable state (never changed: applying an action replaces it)."""
        return self._core.state

    def current_player(self) -> int:
        return spiel_player(self._core.game.current_player(self._core.state))

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.game.legal_actions(self._core.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.game.chance_outcomes(self._core.state)

    def _apply_action(self, action: int) -> None:
        self._core = self._core.after(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.game.action_to_str(self._core.state, int(action))

    def is_terminal(self) -> bool:
        return self._core.game.is_terminal(self._core.state)

    def returns(self) -> list[float]:
        return [float(r) for r in self._core.game.returns(self._core.state)]

    def observation_json(self, player: int) -> str:
        """:func:`observation_json` of ``player``, worked out once per state."""
        strings = self._core.strings
        text = strings.get(player)
        if text is None:
            text = strings[player] = observation_json(self._core.game, self._core.state, player)
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SpielState:
        """A state ``player_id`` cannot tell from this one: the engine's ``determinize`` of that
        seat's observation, with a generator seeded from ``probability_sampler``.

        Its ``history()`` is empty: the state is built from the observation, not from actions.
        """
        game = self._core.game
        observation = game.observe(self._core.state, int(player_id))
        sampled = game.determinize(observation, sampler_rng(probability_sampler))
        return SpielState(self.get_game(), _Core(game, sampled))

    def __str__(self) -> str:
        return self._core.game.render(self._core.game.observe(self._core.state, None))


class SpielObserver:
    """Observation tensors (the encoder) and strings (the JSON observation) for one seat."""

    def __init__(self, game: Game[Any], iig_obs_type: Any = None, params: Any = None) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.tensor = np.zeros(int(np.prod(self.encoder.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.encoder.shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(self.game.observe(state.st_state, player)).reshape(-1)

    def string_from(self, state: SpielState, player: int) -> str:
        return state.observation_json(player)


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel game for one ShadowTable game id and player count (parameter ``players``)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = game_class(self.game_id)
        players = int(params.get("players", cls.SPEC.min_players))
        self.st_game = make(self.game_id, players=players)
        self.initial_core = _Core(self.st_game, self.st_game.initial_state())
        spec = self.st_game.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=spec.max_chance_outcomes,
            num_players=players,
            min_utility=float(spec.min_utility),
            max_utility=float(spec.max_utility),
            utility_sum=None,
            max_game_length=spec.max_game_length,
        )
        super().__init__(game_type(self.game_id), info, {"players": players})

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpielObserver:
        return SpielObserver(self.st_game, iig_obs_type, params)


def game_type(game_id: str) -> Any:
    """The pyspiel ``GameType`` of a ShadowTable game."""
    spec = game_class(game_id).SPEC
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"ShadowTable {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players},
    )


def register(game_id: str) -> str:
    """Register ``game_id`` with pyspiel (once); returns its short name."""
    name = short_name(game_id)
    if name not in pyspiel.registered_names():
        cls = type(f"SpielGame_{game_id.replace('-', '_')}", (SpielGame,), {"game_id": game_id})
        pyspiel.register_game(game_type(game_id), cls)
    return name


def load(game_id: str, players: int) -> Any:
    """The registered pyspiel game for ``game_id`` with ``players`` players."""
    return pyspiel.load_game(register(game_id), {"players": players})
