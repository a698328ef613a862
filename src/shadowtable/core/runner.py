"""The runner: owns the randomness, samples chance, asks bots, keeps the record.

Simulations, tournaments and tests draw every random number from one master seed: the chance
outcome of step ``n`` is drawn with ``derive_seed(seed, "chance", n)`` and a bot deciding at step
``n`` gets ``derive_seed(seed, "seat", seat, n)``.  Because no generator carries state between
steps, a game saved after any step and resumed later continues exactly as an uninterrupted one
would.

Games people play use no seed (``seed=None``): chance and bots draw from the operating system's
randomness (:class:`secrets.SystemRandom`), so a saved record, which holds every chance outcome so
far but no seed, says nothing about the draws to come.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from shadowtable.core.errors import BotError, IllegalActionError, RecordError
from shadowtable.core.game import CHANCE, TERMINAL, Game, action_id
from shadowtable.core.record import GameRecord, check_seed, game_for_record
from shadowtable.core.rng import derive_seed, sample_outcome

StepHook = Callable[[Game[Any], Any, int, int], None]
"""Called as ``hook(game, state, player, action)`` before each action is applied."""


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator that samples the chance outcome of ``step``."""
    return random.Random(derive_seed(seed, "chance", step))


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The generator handed to the bot of ``seat`` deciding at ``step``."""
    return random.Random(derive_seed(seed, "seat", seat, step))


class Session:
    """A game in progress: the state, every action so far, and who decides for each seat.

    ``bots[seat]`` is a bot, or ``None`` for a seat decided from outside (a person).  ``seed`` is
    a master seed (reproducible: simulations, tests), or ``None``: chance and bots draw from the
    operating system's randomness and the record holds no seed that would predict future draws.
    """

    def __init__(
        self,
        game: Game[Any],
        bots: Sequence[Any | None],
        seed: int | None,
        *,
        seat_names: Sequence[str] | None = None,
    ) -> None:
        if len(bots) != game.players:
            raise BotError(
                f"{game.spec.id} with {game.players} players needs {game.players} bots (one per seat), got {len(bots)}"
            )
        self.game = game
        self.bots = list(bots)
        self.seed = check_seed(seed)  # its record must be readable again
        self._system = secrets.SystemRandom()  # used only without a seed
        self.seat_names = list(seat_names) if seat_names is not None else [_seat_name(b) for b in bots]
        self.state = game.initial_state()
        self.actions: list[int] = []

    @property
    def current_player(self) -> int:
        return self.game.current_player(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def awaits_outside_decision(self) -> bool:
        """Whether the next decision belongs to a seat without a bot."""
        player = self.current_player
        return player >= 0 and self.bots[player] is None

    def next_automatic_action(self) -> int:
        """The chance outcome or bot choice for the current step."""
        player, step = self.current_player, len(self.actions)
        if player == CHANCE:
            return sample_outcome(self.game.chance_outcomes(self.state), self._chance_rng(step))
        bot = self.bots[player]
        if player == TERMINAL or bot is None:
            raise BotError("no automatic action: the game is over or a person decides now")
        legal = self.game.legal_actions(self.state)
        action = bot.choose(
            self.game, player, self.game.observe(self.state, player), legal, self._bot_rng(player, step)
        )
        try:
            number = action_id(action)
        except IllegalActionError:
            number = -1
        if number not in legal:
            raise BotError(f"bot {_seat_name(bot)} at seat {player} chose illegal action {action!r}")
        return number

    def _chance_rng(self, step: int) -> random.Random:
        return self._system if self.seed is None else chance_rng(self.seed, step)

    def _bot_rng(self, seat: int, step: int) -> random.Random:
        if self.seed is None:
            return random.Random(self._system.getrandbits(64))  # seeded by the OS, fast to draw from
        return bot_rng(self.seed, seat, step)

    def apply(self, action: int, *, checked: bool = True) -> None:
        """Apply a legal action (raises :class:`IllegalActionError` and changes nothing otherwise).
        ``checked=False`` skips the check, for an action just taken from ``legal_actions``; an
        action that is not an integer (:func:`~shadowtable.core.game.action_id`) is refused either way."""
        action = action_id(action)
        self.state = self.game.apply(self.state, action) if checked else self.game.apply_unchecked(self.state, action)
        self.actions.append(action)

    def step(self) -> int:
        """Take one chance or bot step; returns the action."""
        action = self.next_automatic_action()
        self.apply(action, checked=False)  # taken from the legal actions or the chance outcomes
        return action

    def run(self, *, max_steps: int | None = None, on_step: StepHook | None = None) -> None:
        """Step until the game ends, a person must decide, or ``max_steps`` actions are recorded."""
        limit = self.game.spec.max_game_length if max_steps is None else max_steps
        while len(self.actions) < limit and not self.is_over() and not self.awaits_outside_decision():
            state, player = self.state, self.current_player
            action = self.next_automatic_action()
            if on_step is not None:
                on_step(self.game, state, player, action)
            self.apply(action, checked=False)  # taken from the legal actions or the chance outcomes

    def record(self) -> GameRecord:
        """The record of the game so far (``truncated`` while unfinished)."""
        over = self.is_over()
        return GameRecord(
            game=self.game.spec.id,
            version=self.game.spec.version,
            players=self.game.players,
            options=dict(self.game.options),
            seats=list(self.seat_names),
            actions=list(self.actions),
            seed=self.seed,
            returns=list(self.game.returns(self.state)) if over else None,
            truncated=not over,
            metadata=dict(self.game.summary(self.state)),
        )

    @classmethod
    def resume(cls, record: GameRecord, bots: Sequence[Any | None]) -> Session:
        """Continue a saved game: replays its actions, then carries on with the record's seed.

        A record without a seed (a game people play) carries on with the operating system's
        randomness.
        """
        session = cls(game_for_record(record), bots, record.seed, seat_names=record.seats)
        for index, action in enumerate(record.actions):
            try:
                session.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"saved game action #{index} does not replay: {exc}") from exc
        return session


def play_game(
    game: Game[Any],
    bots: Sequence[Any],
    seed: int,
    *,
    seat_names: Sequence[str] | None = None,
    max_steps: int | None = None,
    on_step: StepHook | None = None,
) -> GameRecord:
    """Play one game with ``bots[seat]`` choosing for each seat; every seed derives from ``seed``.

    A bot only ever sees its own observation and the legal actions.  ``max_steps`` stops the
    game early and marks the record truncated.
    """
    if any(bot is None for bot in bots):
        raise BotError("play_game needs a bot for every seat")
    session = Session(game, bots, seed, seat_names=seat_names)
    session.run(max_steps=max_steps, on_step=on_step)
    return session.record()


def _seat_name(bot: Any) -> str:
    return "human" if bot is None else str(getattr(bot, "name", type(bot).__name__))
