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
    """A game's deduction adapter."""

    def public_action(self, game: Game[Any], observation: Observation, actor: int, seat: int) -> bool:
        """Whether ``seat`` sees the action ``actor`` decides at the step ``observation`` (``seat``'s) shows."""

    def belief(
        self, game: Game[Any], seat: int, steps: Sequence[SeenStep], rng: random.Random, **options: Any
    ) -> dict[str, Any]:
        """What ``seat`` could deduce after ``steps`` (its view), as JSON data."""


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
    """``(step, record_belief(record, seat, upto=step))`` for each of ``steps`` (rising), from one
    replay of ``record``: a belief is worked out only when the caller asks for the next one, so a
    caller may stop between any two."""
    wanted = sorted(set(steps))
    if not wanted:
        return
    adapter_game: Game[Any] | None = None
    seen: list[SeenStep] = []
    position = 0
    for index, (game, state) in enumerate(replay_states(record)):
        adapter_game = game
        while position < len(wanted) and min(wanted[position], len(record.actions)) == index:
            final = SeenStep(game.observe(state, seat), game.current_player(state), None)
            yield wanted[position], belief(game, seat, [*seen, final], random.Random(seed), **options)
            position += 1
        if position == len(wanted) or index >= len(record.actions):
            return
        seen.extend(seen_steps(adapter_game, [(state, record.actions[index])], seat))
