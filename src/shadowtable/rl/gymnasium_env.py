"""A Gymnasium single-agent environment: one seat learns, bots play the others.

``gymnasium.make("shadowtable/ShadowPlanet-v0", players=4, opponents="heuristic")`` after
``import shadowtable.rl.gymnasium_env``. ``action_masks()`` serves maskable algorithms. An
illegal action changes nothing and costs ``illegal_penalty``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game, action_id
from shadowtable.core.manifest import manifest_of
from shadowtable.core.registry import available_games, game_class, make
from shadowtable.core.runner import Session
from shadowtable.rl.encoding import action_mask, encode_into, encoder_for, encoder_input


class ShadowTableEnv(gym.Env[Any, Any]):
    """Seat ``seat`` is the agent; ``opponents`` (a bot spec, or one per other seat) play the rest."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int,
        seat: int = 0,
        opponents: str | list[str] = "random",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = make(game, players=players, **options)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be between 0 and {players - 1}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"need one opponent spec or {players - 1}, got {len(specs)}")
        self.seat = seat
        self.opponent_specs = specs
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, self.encoder.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.spec.num_distinct_actions)
        self.session: Session | None = None
        self._seen: Any = None  # the state that _encoded, _legal and _mask describe
        self._encoded = np.zeros(self.encoder.shape, dtype=np.float32)
        self._legal: list[int] = []
        self._mask = action_mask(self.game, [])

    def _bots(self) -> list[Any]:
        others = iter(self.opponent_specs)
        return [None if s == self.seat else make_bot(next(others)) for s in range(self.game.players)]

    def _view(self) -> None:
        """Note the agent's encoded view and legal actions once per state (they are read from
        the game only when the state has changed)."""
        assert self.session is not None, "call reset() first"
        state = self.session.state
        if state is self._seen:
            return
        self._legal = [] if self.session.is_over() else self.game.legal_actions(state)
        self._mask = action_mask(self.game, self._legal)
        encode_into(self.encoder, encoder_input(self.encoder, self.game, state, self.seat), self._encoded)
        self._seen = state

    def _observation(self) -> np.ndarray[Any, Any]:
        self._view()
        return self._encoded.copy()

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions of the agent now (all zeros once the game is over)."""
        self._view()
        return self._mask.copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**53))
        self.session = Session(self.game, self._bots(), game_seed)
        self.session.run()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        assert self.session is not None, "call reset() first"
        if self.session.is_over():
            raise RuntimeError("the episode is over; call reset()")
        choice = action_id(action)  # anything but an integer raises IllegalActionError
        self._view()
        if choice not in self._legal:
            return self._observation(), self.illegal_penalty, False, False, {**self._info(), "illegal_action": True}
        self.session.apply(choice, checked=False)
        self.session.run()
        over = self.session.is_over()
        reward = float(self.game.returns(self.session.state)[self.seat]) if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.session is None:
            return None
        return self.game.words.render(self.game.observe(self.session.state, self.seat))


def _register() -> None:
    for game in available_games():
        env_id = manifest_of(game_class(game)).gym_id
        if env_id is not None and env_id not in gym.registry:
            gym.register(id=env_id, entry_point=f"{__name__}:ShadowTableEnv", kwargs={"game": game, "players": 4})


_register()
