"""PettingZoo AEC environments over any registered game: ``env("shadow-planet", players=4)``.

Observations are ``{"observation": encoded seat view, "action_mask": int8 mask}``; the game is
played on a core :class:`~shadowtable.core.table.Table` whose chance nodes are drawn with a
generator seeded by ``reset(seed=...)``; rewards are the game's returns, given at the end.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from shadowtable.core.errors import IllegalActionError
from shadowtable.core.game import TERMINAL, Game, action_id
from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.rl.encoding import encode_into, encoder_for, encoder_input


class ShadowTableAEC(AECEnv):  # type: ignore[misc]
    """One game as an agent-environment-cycle environment; agents are ``player_0 .. player_{n-1}``.

    After each step the environment notes the seat to act and its legal actions once; each
    seat's encoding is written into that seat's own array, at most once per state, and every
    observation handed out is a copy of it (a caller may keep it: it never changes later)."""

    metadata = {"render_modes": ["ansi"], "name": "shadowtable_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, players: int, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game[Any] = make(game_id, players=players, **options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self._actions = self.game.spec.num_distinct_actions
        observation = spaces.Box(self.encoder.low, self.encoder.high, self.encoder.shape, dtype=np.float32)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.table = Table(self.game, rng=self._rng)
        self.state: Any = None
        self._player = TERMINAL
        self._legal: list[int] = []
        self._version = 0  # counts the states the environment has settled on
        self._encoded = [np.zeros(self.encoder.shape, dtype=np.float32) for _ in range(players)]
        self._encoded_version = [-1] * players  # the state each seat's array holds

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def _settle(self) -> None:
        """Resolve the table's chance nodes, and note the seat to act and its legal actions."""
        player = self.table.resolve_chance()
        self.state, self._player = self.table.state, player
        self._legal = self.game.legal_actions(self.state) if player >= 0 else []
        self._version += 1

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.table = Table(self.game, rng=self._rng)
        self._settle()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._player]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seats[agent]
        encoded = self._encoded[seat]
        if self._encoded_version[seat] != self._version:
            encode_into(self.encoder, encoder_input(self.encoder, self.game, self.state, seat), encoded)
            self._encoded_version[seat] = self._version
        mask = np.zeros(self._actions, dtype=np.int8)
        if seat == self._player:
            mask[self._legal] = 1
        return {"observation": encoded.copy(), "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        choice = action_id(action)
        if choice not in self._legal:
            raise IllegalActionError(f"action {choice} is not legal now")
        self.table.apply(choice, checked=False)
        self._settle()
        if self._player == TERMINAL:
            returns = self.game.returns(self.state)
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self._player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.game.words.render(self.game.observe(self.state, None))

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
