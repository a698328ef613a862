"""PettingZoo parallel environments: ``parallel_env("shadow-planet", players=4)``.

Each step, the agents with a decision act together. Most decisions belong to one seat; where
the rules have several seats choose together and in secret (The Shadow Planet's Messages
discards: :meth:`~shadowtable.core.game.Game.simultaneous_decisions`), every one of them acts
in the same step, each from its own observation of the state before any of them chose. An
agent with nothing to decide has an all-zero ``action_mask``, and whatever it sends is ignored.

Observations, action masks and rewards are those of the AEC environment
(:mod:`shadowtable.rl.pettingzoo_env`): every live agent gets its observation after each step;
rewards are the game's returns, given at the end, when every agent terminates.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from shadowtable.core.errors import IllegalActionError
from shadowtable.core.game import TERMINAL, Game, action_id
from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.rl.encoding import encode_into, encoder_for, encoder_input


class ShadowTableParallel(ParallelEnv):  # type: ignore[misc]
    """One game as a parallel environment; agents are ``player_0 .. player_{n-1}``."""

    metadata = {"render_modes": ["ansi"], "name": "shadowtable_parallel_v0", "is_parallelizable": True}

    def __init__(self, game_id: str, players: int, render_mode: str | None = None, **options: Any) -> None:
        self.game: Game[Any] = make(game_id, players=players, **options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._actions = self.game.spec.num_distinct_actions
        self._rng = random.Random()
        self.table = Table(self.game, rng=self._rng)
        self.state: Any = None
        self.deciding: dict[int, list[int]] = {}
        """The seats to act this step and their legal actions, in the engine's order."""
        observation = spaces.Box(self.encoder.low, self.encoder.high, self.encoder.shape, dtype=np.float32)
        mask = spaces.Box(0, 1, (self._actions,), dtype=np.int8)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(self._actions) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.table = Table(self.game, rng=self._rng)
        self._settle()
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Play every deciding agent's action, in the engine's order. An illegal or missing
        action raises :class:`IllegalActionError` and changes nothing."""
        if not self.agents:
            raise IllegalActionError("the game is over: reset the environment")
        choices = []
        for seat, legal in self.deciding.items():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise IllegalActionError(f"{agent} has a decision to make and sent no action")
            try:
                choice = action_id(actions[agent])
            except IllegalActionError as exc:
                raise IllegalActionError(f"{agent}: {exc}") from None
            if choice not in legal:
                raise IllegalActionError(f"{agent}: action {choice} is not legal now")
            choices.append(choice)
        for choice in choices:
            self.table.apply(choice)
        self._settle()
        over = self.game.current_player(self.state) == TERMINAL
        returns = self.game.returns(self.state) if over else [0.0] * len(self.possible_agents)
        live = self.agents
        observations = self._observations()
        rewards = {agent: float(returns[self.possible_agents.index(agent)]) for agent in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in live}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _settle(self) -> None:
        """Resolve the table's chance nodes, and note who decides next."""
        game = self.game
        player = self.table.resolve_chance()
        state = self.state = self.table.state
        if player == TERMINAL:
            self.deciding = {}
            return
        block = game.simultaneous_decisions(state)
        self.deciding = dict(block) if block else {player: game.legal_actions(state)}

    def _observations(self) -> dict[str, dict[str, np.ndarray[Any, Any]]]:
        out: dict[str, dict[str, np.ndarray[Any, Any]]] = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            encoded = np.zeros(self.encoder.shape, dtype=np.float32)
            encode_into(self.encoder, encoder_input(self.encoder, self.game, self.state, seat), encoded)
            mask = np.zeros(self._actions, dtype=np.int8)
            mask[self.deciding.get(seat, [])] = 1
            out[agent] = {"observation": encoded, "action_mask": mask}
        return out

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.game.words.render(self.game.observe(self.state, None))

    def close(self) -> None:
        pass


def parallel_env(game_id: str, players: int, **kwargs: Any) -> ShadowTableParallel:
    """The parallel environment of ``game_id`` with ``players`` seats."""
    return ShadowTableParallel(game_id, players, **kwargs)
