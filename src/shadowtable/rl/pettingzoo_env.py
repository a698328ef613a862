"""PettingZoo AEC environments over any registered game: ``env("shadow-planet", players=4)``.

Observations are ``{"observation": encoded seat view, "action_mask": int8 mask}``; chance nodes
are resolved inside the environment with a generator seeded by ``reset(seed=...)``; rewards are
the game's returns, given at the end.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from shadowtable.core.game import CHANCE, Game
from shadowtable.core.registry import make
from shadowtable.core.rng import sample_outcome
from shadowtable.rl.encoding import action_mask, encoder_for


class ShadowTableAEC(AECEnv):  # type: ignore[misc]
    """One game as an agent-environment-cycle environment; agents are ``player_0 .. player_{n-1}``."""

    metadata = {"render_modes": ["ansi"], "name": "shadowtable_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, players: int, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game[Any] = make(game_id, players=players, **options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        actions = self.game.spec.num_distinct_actions
        observation = spaces.Box(self.encoder.low, self.encoder.high, self.encoder.shape, dtype=np.float32)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _resolve_chance(self) -> None:
        while self.game.current_player(self.state) == CHANCE:
            outcome = sample_outcome(self.game.chance_outcomes(self.state), self._rng)
            self.state = self.game.apply(self.state, outcome)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.initial_state()
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player(self.state)]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat(agent)
        encoded = self.encoder.encode(self.game.observe(self.state, seat))
        acting = not self.game.is_terminal(self.state) and self.game.current_player(self.state) == seat
        legal = self.game.legal_actions(self.state) if acting else []
        return {"observation": encoded, "action_mask": action_mask(self.game, legal)}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state = self.game.apply(self.state, int(action))
        self._resolve_chance()
        if self.game.is_terminal(self.state):
            returns = self.game.returns(self.state)
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
        else:
            self.rewards = {name: 0.0 for name in self.agents}
            self.agent_selection = self.possible_agents[self.game.current_player(self.state)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.game.render(self.game.observe(self.state, None))

    def close(self) -> None:
        pass


def raw_env(game_id: str, players: int, **kwargs: Any) -> ShadowTableAEC:
    """The environment without PettingZoo's safety wrappers."""
    return ShadowTableAEC(game_id, players, **kwargs)


def env(game_id: str, players: int, **kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers (illegal moves end the game with -1)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game_id, players, **kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
