"""OpenSpiel registration: each ShadowTable game as a pyspiel Python game with explicit chance.

``load("shadow-planet", players=4)`` returns a ``pyspiel.Game`` that OpenSpiel's algorithms
(and ``pyspiel.random_sim_test``) run on; observation tensors come from the game's encoder.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.registry import game_class, make
from shadowtable.rl.encoding import encoder_for


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a ShadowTable game id."""
    return "python_shadowtable_" + game_id.replace("-", "_")


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an immutable ShadowTable state."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.st_game: Game[Any] = game.st_game
        self.st_state: Any = self.st_game.initial_state()

    def current_player(self) -> int:
        player = self.st_game.current_player(self.st_state)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self.st_game.legal_actions(self.st_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.st_game.chance_outcomes(self.st_state)

    def _apply_action(self, action: int) -> None:
        self.st_state = self.st_game.apply(self.st_state, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.st_game.action_to_str(self.st_state, int(action))

    def is_terminal(self) -> bool:
        return self.st_game.is_terminal(self.st_state)

    def returns(self) -> list[float]:
        return [float(r) for r in self.st_game.returns(self.st_state)]

    def __str__(self) -> str:
        return self.st_game.render(self.st_game.observe(self.st_state, None))


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
        import json

        return json.dumps(self.game.observe(state.st_state, player), sort_keys=True, separators=(",", ":"))


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel game for one ShadowTable game id and player count (parameter ``players``)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = game_class(self.game_id)
        players = int(params.get("players", cls.SPEC.min_players))
        self.st_game = make(self.game_id, players=players)
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
