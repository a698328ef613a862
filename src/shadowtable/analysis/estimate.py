"""Win chances of every legal choice at one decision, from what the deciding seat knew.

Each sample draws a state the seat cannot tell apart from the true one (``game.determinize`` of
its observation) and one rollout seed; every alternative is then played out on that same state
with that same seed (common random numbers), every seat choosing with the rollout policy. A
rollout scores a win (1) when the game ends with the seat's return at the game's utility maximum
(as the simulation summary counts wins); a rollout cut off at the game's length bound is not a win
(0). A rollout with a :class:`Cutoff` stops after its steps and scores the seat's share from the
game's evaluation (between 0 and 1) where the game has not ended by then.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.bots.evaluation import Evaluator, evaluator, evaluators_for
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation
from shadowtable.core.rng import sample_outcome


class AnalysisError(ShadowTableError):
    """An analysis that cannot be made: a bad seat, an unfit game or rollout policy."""


def is_win(game: Game[Any], state: Any, seat: int) -> bool:
    """Whether ``state`` is over with ``seat``'s return at the game's utility maximum."""
    return game.is_terminal(state) and game.returns(state)[seat] >= game.spec.max_utility


@dataclass(frozen=True)
class Cutoff:
    """Rollouts stopped after ``steps`` steps (chance included) and scored by ``evaluate``: each
    seat's estimated share in ``[0, 1]``, read from public information only."""

    steps: int
    evaluate: Evaluator


def rollout_cutoff(game: Game[Any], horizon: int | None, name: str = "heuristic") -> Cutoff | None:
    """The cut-off after ``horizon`` steps, scored by the game's evaluation ``name`` (``None``:
    rollouts to the end); :class:`AnalysisError` for a game without that evaluation."""
    if horizon is None:
        return None
    if name not in evaluators_for(game.spec.id):
        raise AnalysisError(f"{game.spec.name} has no evaluation {name!r} to cut rollouts off with")
    return Cutoff(horizon, evaluator(game.spec.id, name))


def rollout_value(
    game: Game[Any], state: Any, seat: int, policy: Bot, rng: random.Random, cutoff: Cutoff | None = None
) -> float:
    """Play ``policy`` for every seat from ``state`` (chance from ``rng``) to the end, the game's
    length bound or the ``cutoff``; 1 if ``seat`` won, 0 if not, or at the cut-off its share from
    the evaluation."""
    steps = game.spec.max_game_length if cutoff is None else min(cutoff.steps, game.spec.max_game_length)
    for _ in range(steps):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = int(policy.choose(game, player, game.observe(state, player), legal, rng))
            if action not in legal:
                raise AnalysisError(f"the rollout policy {policy.name!r} chose illegal action {action}")
        state = game.apply_unchecked(state, action)
    if cutoff is not None and not game.is_terminal(state):
        return min(1.0, max(0.0, float(cutoff.evaluate(game, state)[seat])))
    return 1.0 if is_win(game, state, seat) else 0.0


def sampled_state(
    game: Game[Any], observation: Observation, seat: int, legal: Sequence[int], rng: random.Random
) -> Any:
    """A determinization of ``observation`` where ``seat`` is to choose among ``legal``."""
    state = game.determinize(observation, rng)
    if game.current_player(state) != seat or list(game.legal_actions(state)) != list(legal):
        raise AnalysisError(f"{game.spec.id}: a determinization changed the seat to act or its choices")
    return state


@dataclass(frozen=True)
class Sampled:
    """What the samples of one decision gave.

    ``outcomes[action]``: one value per complete sample, in order (every alternative is scored
    on every complete sample): 1 a win, 0 a loss, or between at a cut-off. ``exact[action]``: every complete sample's
    state after ``action`` was already over, so its chance involves no rollout. ``cut_short``:
    the deadline stopped a sample before its end (that sample is dropped) or stopped sampling
    before ``rollouts`` samples.
    """

    outcomes: dict[int, list[float]]
    exact: dict[int, bool]
    samples: int
    cut_short: bool

    def wins(self, action: int) -> float:
        """Complete samples ``action`` won (a cut-off sample counts its share)."""
        return sum(self.outcomes[action])


def win_counts(
    game: Game[Any],
    observation: Observation,
    seat: int,
    legal: Sequence[int],
    policy: Bot,
    *,
    rollouts: int,
    rng: random.Random,
    deadline: float | None = None,
    end: float | None = None,
    clock: Callable[[], float] = perf_counter,
    scored: Sequence[int] | None = None,
    cutoff: Cutoff | None = None,
) -> Sampled:
    """Up to ``rollouts`` samples, every alternative in ``legal`` (or only those in ``scored``)
    scored on each. Scoring fewer alternatives draws the same samples and rollouts, so each
    scored alternative gets the chance it gets when all are scored.

    ``deadline`` (on ``clock``) is the decision's share of a budget: no sample starts after it,
    except the first. ``end`` is the hard end of the whole budget: no rollout starts after it,
    and a sample it stops is dropped, so each chance rests on complete samples only. ``cutoff``:
    rollouts stop there and score the evaluation (:func:`rollout_value`).
    """
    actions = list(legal if scored is None else scored)
    outcomes: dict[int, list[float]] = {action: [] for action in actions}
    exact = dict.fromkeys(actions, True)
    samples = 0
    cut_short = False
    while samples < rollouts:
        if samples > 0 and deadline is not None and clock() >= deadline:
            cut_short = True
            break
        state = sampled_state(game, observation, seat, legal, rng)
        seed = rng.getrandbits(64)
        sample: dict[int, float] = {}
        for action in actions:
            if end is not None and clock() >= end:
                break
            after = game.apply_unchecked(state, action)
            exact[action] = exact[action] and game.is_terminal(after)
            sample[action] = rollout_value(game, after, seat, policy, random.Random(seed), cutoff)
        if len(sample) < len(actions):
            cut_short = True
            break
        for action, won in sample.items():
            outcomes[action].append(won)
        samples += 1
    return Sampled(outcomes, exact, samples, cut_short)
