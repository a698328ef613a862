"""What a seat could deduce: a belief about the hidden information, from that seat's view only.

A seat's view of a game up to a step is a list of :class:`SeenStep`: at every decision, the
seat's own observation, who decided, and the action when the seat could see it (``None``
when it was secret to that seat).  :func:`seen_steps` builds that list from a record, reading
only ``game.observe(state, seat)`` and the game's own rule for which actions a seat sees, so
two games the seat cannot tell apart give the same list, hence the same belief.

Each game states its model in its ``deduction`` adapter (its manifest names it;
docs/deduction.md): a :class:`Deduction` with ``public_action`` (may ``seat`` see the action
decided at a step whose pending decision ``observation`` shows?) and ``belief`` (JSON data).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game, Observation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.record import GameRecord, replay_states


@dataclass(frozen=True)
class SeenStep:
    """One decision as a seat saw it: its observation before the decision, the deciding seat,
    and the action (``None`` where it was secret to the observing seat)."""

    observation: Observation
    actor: int
    action: int | None


class Deduction(Protocol):
    """A game's deduction adapter (it may also offer ``tracker``: see :class:`BeliefTracker`)."""

    def public_action(self, game: Game[Any], observation: Observation, actor: int, seat: int) -> bool:
        """Whether ``seat`` sees the action ``actor`` decides at the step ``observation`` (``seat``'s) shows."""

    def belief(
        self, game: Game[Any], seat: int, steps: Sequence[SeenStep], rng: random.Random, **options: Any
    ) -> dict[str, Any]:
        """What ``seat`` could deduce after ``steps`` (its view), as JSON data."""


class BeliefTracker(Protocol):
    """A belief fed one step at a time, which an adapter may offer as ``tracker(game, seat, rng,
    **options)`` when its belief reads every step: the beliefs along a game then cost one update
    per step.  Fed the steps in order, ``belief(now)`` equals the adapter's ``belief`` of those
    steps followed by the current one (its observation ``now``)."""

    def see(self, step: SeenStep) -> None:
        """Take one more step into account."""

    def belief(self, now: Observation) -> dict[str, Any]:
        """The belief after the steps seen, the seat's current observation being ``now``."""


def deduction_of(game: Game[Any]) -> Deduction:
    """The game's deduction adapter; :class:`ShadowTableError` if it has none."""
    reference = manifest_of(type(game)).deduction
    if reference is None:
        raise ShadowTableError(f"{game.spec.id} has no deduction model")
    adapter: Deduction = load(reference)
    return adapter


def seen_steps(game: Game[Any], states: Iterable[tuple[Any, int | None]], seat: int) -> list[SeenStep]:
    """``seat``'s view of a trajectory: ``states`` holds ``(state, action taken there)`` pairs
    (``None``: none, the last state); chance steps are left out (their effect is in the next
    observation)."""
    adapter = deduction_of(game)
    steps: list[SeenStep] = []
    for state, action in states:
        actor = game.current_player(state)
        if actor < 0 or action is None:
            continue
        observation = game.observe(state, seat)
        shown = actor == seat or adapter.public_action(game, observation, actor, seat)
        steps.append(SeenStep(observation, actor, action if shown else None))
    return steps


def record_trajectory(record: GameRecord, upto: int | None = None) -> tuple[Game[Any], list[tuple[Any, int | None]]]:
    """The game of ``record`` and its ``(state, action)`` pairs for the first ``upto`` actions
    (all: ``None``), the state after them last with action ``None``."""
    pairs: list[tuple[Any, int | None]] = []
    games: list[Game[Any]] = []
    limit = len(record.actions) if upto is None else min(upto, len(record.actions))
    for index, (game, state) in enumerate(replay_states(record)):
        games[:] = [game]
        pairs.append((state, record.actions[index] if index < limit else None))
        if index >= limit:
            break
    return games[0], pairs


def belief(game: Game[Any], seat: int, steps: Sequence[SeenStep], rng: random.Random, **options: Any) -> dict[str, Any]:
    """What ``seat`` could deduce from ``steps`` under the game's stated model (JSON data)."""
    return deduction_of(game).belief(game, seat, steps, rng, **options)


def record_belief(
    record: GameRecord, seat: int, upto: int | None = None, *, seed: int = 0, **options: Any
) -> dict[str, Any]:
    """:func:`belief` of ``seat`` after the first ``upto`` actions of ``record``."""
    game, pairs = record_trajectory(record, upto)
    last_state = pairs[-1][0]
    steps = seen_steps(game, pairs, seat)
    final = SeenStep(game.observe(last_state, seat), game.current_player(last_state), None)
    return belief(game, seat, [*steps, final], random.Random(seed), **options)


def beliefs_along(
    record: GameRecord, seat: int, steps: Sequence[int], *, seed: int = 0, **options: Any
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(step, record_belief(record, seat, upto=step, seed=seed))`` for each of ``steps``, in
    rising order, from one replay of ``record`` (and one update per step where the adapter offers
    a :class:`BeliefTracker`): a belief is worked out only when the caller asks for the next one,
    so a caller may stop between any two."""
    wanted = sorted({min(step, len(record.actions)) for step in steps})
    if not wanted:
        return
    seen: list[SeenStep] = []
    tracker: BeliefTracker | None = None
    position = 0
    for index, (game, state) in enumerate(replay_states(record)):
        if index == 0:
            make_tracker = getattr(deduction_of(game), "tracker", None)
            if make_tracker is not None:
                tracker = make_tracker(game, seat, random.Random(seed), **options)
        if index == wanted[position]:
            now = game.observe(state, seat)
            if tracker is not None:
                yield index, tracker.belief(now)
            else:
                final = SeenStep(now, game.current_player(state), None)
                yield index, belief(game, seat, [*seen, final], random.Random(seed), **options)
            position += 1
            if position == len(wanted):
                return
        for step in seen_steps(game, [(state, record.actions[index])], seat):
            if tracker is None:
                seen.append(step)
            else:
                tracker.see(step)
