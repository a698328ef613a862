"""The analysis of a whole record: every decision of the chosen seat(s), judged from its own view."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from shadowtable.analysis.calibration import calibrated, variant_of
from shadowtable.analysis.estimate import AnalysisError, rollout_cutoff, win_counts
from shadowtable.analysis.model import (
    Alternative,
    AnalysisSettings,
    DecisionAnalysis,
    GameAnalysis,
    SeatSummary,
    accuracy,
    in_words,
    label_for,
)
from shadowtable.bots.base import Bot, check_bot_fits
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord, game_for_record, replay_states
from shadowtable.core.rng import derived_rng

Progress = Callable[[float], None]
"""Told the share of the work done, from 0 to 1, rising."""


@dataclass(frozen=True)
class DecisionPoint:
    """A seat's decision in a record: the state before it, the action taken, where it stands.

    ``number`` counts the seat's own decisions before this one (forced ones included), which the
    seat knows; ``ply`` is the action's index in the record.
    """

    seat: int
    number: int
    ply: int
    state: Any
    action: int


def check_settings(settings: AnalysisSettings, game: Game[Any]) -> None:
    """Refuse settings no analysis of ``game`` can follow: :class:`AnalysisError` naming the bad one."""
    players = game.players
    if settings.seat is not None and (isinstance(settings.seat, bool) or not 0 <= settings.seat < players):
        raise AnalysisError(f"seat {settings.seat}: seats must be between 0 and {players - 1} for {players} players")
    if isinstance(settings.rollouts, bool) or not isinstance(settings.rollouts, int) or settings.rollouts < 1:
        raise AnalysisError(f"rollouts must be a positive whole number, got {settings.rollouts!r}")
    if settings.budget is not None and not (math.isfinite(settings.budget) and settings.budget > 0):
        raise AnalysisError(f"budget must be a positive number of seconds, got {settings.budget!r}")
    most = settings.most_choices
    if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 2):
        raise AnalysisError(f"most_choices must be a whole number of at least 2, got {most!r}")
    horizon = settings.horizon
    if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1):
        raise AnalysisError(f"horizon must be a positive whole number of steps, got {horizon!r}")
    rollout_cutoff(game, horizon)
    low, middle, high = settings.thresholds
    if not 0 < low <= middle <= high <= 1:
        raise AnalysisError(f"thresholds must rise within (0, 1], got {list(settings.thresholds)}")


def decision_points(record: GameRecord, seat: int | None = None) -> Iterator[DecisionPoint]:
    """Every decision in ``record`` of ``seat`` (``None``: of every seat), in order."""
    made: dict[int, int] = {}
    states = replay_states(record)
    game, state = next(states)
    for ply, ((_, after), action) in enumerate(zip(states, record.actions, strict=True)):
        player = game.current_player(state)
        if player >= 0:
            number = made.get(player, 0)
            made[player] = number + 1
            if seat is None or player == seat:
                yield DecisionPoint(player, number, ply, state, action)
        state = after


def paired_noise(best: Sequence[float], chosen: Sequence[float]) -> float | None:
    """The standard error of the mean per-sample difference ``best - chosen`` (``None`` with
    fewer than two samples)."""
    n = len(best)
    if n < 2:
        return None
    differences = [float(b) - float(c) for b, c in zip(best, chosen, strict=True)]
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return math.sqrt(variance / n)


def compared_choices(
    game: Game[Any],
    point: DecisionPoint,
    observation: Any,
    legal: Sequence[int],
    policy: Bot,
    settings: AnalysisSettings,
) -> list[int]:
    """The choices compared at ``point``, in ``legal``'s order: all of them, or, where there are
    more than ``settings.most_choices``, the choice made, the rollout policy's own choice from the
    seat's ``observation``, and others drawn at random up to that many. The draws come from their
    own stream (the seed, the seat and its decision number), so the samples stay those of a
    comparison of every choice."""
    most = settings.most_choices
    if most is None or len(legal) <= most:
        return list(legal)
    rng = derived_rng(settings.seed, "analysis choices", point.seat, point.number)
    wanted = [point.action]
    own = int(policy.choose(game, point.seat, observation, legal, rng))
    if own != point.action and own in legal:
        wanted.append(own)
    wanted += rng.sample([action for action in legal if action not in wanted], most - len(wanted))
    return [action for action in legal if action in wanted]


def analyse_decision(
    game: Game[Any],
    point: DecisionPoint,
    settings: AnalysisSettings,
    policy: Bot,
    deadline: float | None = None,
    *,
    end: float | None = None,
    clock: Callable[[], float] = perf_counter,
) -> DecisionAnalysis | None:
    """The analysis of one decision from ``game.observe(point.state, point.seat)`` alone; ``None``
    when the seat had a single choice or the budget's ``end`` left no complete sample. Random
    numbers come from ``settings.seed``, the seat and its decision number only."""
    state, seat = point.state, point.seat
    legal = game.legal_actions(state)
    if len(legal) < 2:
        return None
    observation = game.observe(state, seat)
    compared = compared_choices(game, point, observation, legal, policy, settings)
    rng = derived_rng(settings.seed, "analysis", seat, point.number)
    sampled = win_counts(
        game,
        observation,
        seat,
        legal,
        policy,
        rollouts=settings.rollouts,
        rng=rng,
        deadline=deadline,
        end=end,
        clock=clock,
        scored=compared,
        cutoff=rollout_cutoff(game, settings.horizon),
    )
    n = sampled.samples
    if n == 0:
        return None
    # The seat's own choices: their words are the same on every state it cannot tell apart.
    alternatives = []
    variant = variant_of(game, settings.horizon)
    for action in compared:
        raw = sampled.wins(action) / n
        exact = sampled.exact[action]
        chance = calibrated(raw, n, game.spec.id, game.players, exact, settings.policy, variant)
        alternatives.append(Alternative(action, game.words.action_to_str(state, action), chance, n, raw, exact))
    chosen = next(alt for alt in alternatives if alt.action == point.action)
    best = max(alternatives, key=lambda alt: (alt.chance, alt.action == point.action, -alt.action))
    lost = max(0.0, best.chance - chosen.chance)
    noise = paired_noise(sampled.outcomes[best.action], sampled.outcomes[chosen.action])
    raw_lost = best.raw_chance - chosen.raw_chance
    return DecisionAnalysis(
        seat=seat,
        number=point.number,
        ply=point.ply,
        action=point.action,
        text=chosen.text,
        chance_before=best.chance,
        chance_after=chosen.chance,
        lost=lost,
        best=best,
        label=label_for(lost, settings.thresholds, n, raw_lost, noise, len(compared)),
        alternatives=alternatives,
        words=in_words(chosen, best, best.chance, len(compared) == len(legal)),
        samples=n,
        cut_short=sampled.cut_short,
        noise=noise,
        choices=len(legal),
    )


def chosen_chance(
    game: Game[Any], point: DecisionPoint, settings: AnalysisSettings, policy: Bot
) -> tuple[float, int, bool]:
    """``(raw chance, samples, exact)`` that :func:`analyse_decision` (with no budget) gives the
    choice made at ``point``, scoring that choice alone: the same samples and rollouts, at a
    fraction of the cost. The chance of the choice made is the one a played game can check."""
    legal = game.legal_actions(state := point.state)
    rng = derived_rng(settings.seed, "analysis", point.seat, point.number)
    observation = game.observe(state, point.seat)
    sampled = win_counts(
        game,
        observation,
        point.seat,
        legal,
        policy,
        rollouts=settings.rollouts,
        rng=rng,
        scored=[point.action],
        cutoff=rollout_cutoff(game, settings.horizon),
    )
    return sampled.wins(point.action) / sampled.samples, sampled.samples, sampled.exact[point.action]


def rollout_policy(game: Game[Any], spec: str) -> Bot:
    """The rollout policy from its bot spec, checked against ``game``."""
    policy = make_bot(spec)
    check_bot_fits(policy, game)
    bot_for = getattr(policy, "bot_for", None)
    if bot_for is not None:  # the heuristic bot: fail now for a game without one
        bot_for(game.spec.id)
    return policy


def analyse_points(
    game: Game[Any],
    points: list[DecisionPoint],
    settings: AnalysisSettings,
    policy: Bot,
    clock: Callable[[], float] = perf_counter,
    progress: Progress | None = None,
) -> tuple[list[DecisionAnalysis], list[DecisionPoint]]:
    """:func:`analyse_decision` for each point with a choice, and the points left unanalysed.

    A ``budget`` is a hard bound: no rollout starts once it is spent (on ``clock``). It is
    shared evenly by the choices left: a decision starts no new sample after its share, except
    its first; a decision the end leaves without a complete sample is unanalysed. ``progress``
    is told the share of the choices done after each one (1.0 at the end).
    """
    choices = [point for point in points if len(game.legal_actions(point.state)) > 1]
    end = None if settings.budget is None else clock() + settings.budget
    results, unanalysed = [], []
    for index, point in enumerate(choices):
        if end is not None and clock() >= end:
            unanalysed.extend(choices[index:])
            break
        if progress is not None and index:
            progress(index / len(choices))
        deadline = None if end is None else clock() + (end - clock()) / (len(choices) - index)
        analysed = analyse_decision(game, point, settings, policy, deadline, end=end, clock=clock)
        if analysed is None:
            unanalysed.append(point)
        else:
            results.append(analysed)
    if progress is not None:
        progress(1.0)
    return results, unanalysed


def seat_summaries(
    record: GameRecord,
    game: Game[Any],
    decisions: list[DecisionAnalysis],
    seats: list[int],
    unanalysed: list[DecisionPoint] | None = None,
) -> list[SeatSummary]:
    """Each analysed seat's counts of labels, accuracy and result."""
    summaries = []
    for seat in seats:
        mine = [d for d in decisions if d.seat == seat]
        won = None
        if record.returns is not None:
            won = record.returns[seat] >= game.spec.max_utility and not record.truncated
        summaries.append(
            SeatSummary(
                seat=seat,
                name=record.seats[seat],
                decisions=len(mine),
                inaccuracies=sum(d.label == "inaccuracy" for d in mine),
                mistakes=sum(d.label == "mistake" for d in mine),
                blunders=sum(d.label == "blunder" for d in mine),
                accuracy=accuracy([d.lost for d in mine]),
                won=won,
                unanalysed=sum(point.seat == seat for point in unanalysed or []),
            )
        )
    return summaries


def analyse_record(
    record: GameRecord,
    settings: AnalysisSettings | None = None,
    clock: Callable[[], float] = perf_counter,
    progress: Progress | None = None,
) -> GameAnalysis:
    """The analysis of ``record``: every decision of ``settings.seat`` (or of every seat) and
    each analysed seat's summary (``progress``: told the share done after each decision).
    Raises :class:`AnalysisError` (bad settings, unfit policy),
    :class:`~shadowtable.core.errors.RecordError` (a record that does not replay) or
    :class:`~shadowtable.core.errors.BotError`."""
    settings = settings or AnalysisSettings()
    game = game_for_record(record)
    check_settings(settings, game)
    policy = rollout_policy(game, settings.policy)
    points = list(decision_points(record, settings.seat))
    decisions, unanalysed = analyse_points(game, points, settings, policy, clock, progress)
    return whole_analysis(record, game, settings, decisions, unanalysed)


def whole_analysis(
    record: GameRecord,
    game: Game[Any],
    settings: AnalysisSettings,
    decisions: list[DecisionAnalysis],
    unanalysed: list[DecisionPoint],
) -> GameAnalysis:
    """The :class:`GameAnalysis` of ``record`` from its analysed and unanalysed decisions."""
    seats = list(range(game.players)) if settings.seat is None else [settings.seat]
    return GameAnalysis(
        game=record.game,
        version=record.version,
        players=record.players,
        settings=settings,
        decisions=decisions,
        seats=seat_summaries(record, game, decisions, seats, unanalysed),
        unanalysed=len(unanalysed),
        complete=not unanalysed and not any(d.cut_short for d in decisions),
        variant=variant_of(game, settings.horizon),
    )


def unanalysed_record(record: GameRecord, settings: AnalysisSettings) -> GameAnalysis:
    """The analysis of ``record`` when no time is left for it: every decision of ``settings.seat``
    (or of every seat) with a choice is unanalysed, and no rollout runs."""
    game = game_for_record(record)
    check_settings(settings, game)
    points = [p for p in decision_points(record, settings.seat) if len(game.legal_actions(p.state)) > 1]
    return whole_analysis(record, game, settings, [], points)
