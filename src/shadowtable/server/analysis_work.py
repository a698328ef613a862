"""The work of an analysis of a finished table, as pieces a worker process runs one at a time.

A job is cut into one piece per seat for the decisions (:func:`analyse_seat`) and one per seat
for the deduction panel (:func:`deduce_seat`), so a killed worker loses one piece's work.  One
budget bounds the whole job: the decisions get :data:`DEDUCTION_SHARE` less of it, the deduction
what is left, and each piece is given its part of what remains when it starts
(:func:`piece_budget`).  A piece tells its progress after each decision or belief through a
:class:`PipeProgress` (at most once per ``every_s`` seconds), which the worker process sends to
the server process on the pipe :func:`start_worker` was given.  Every function here is
picklable: it takes the game record as JSON and returns JSON-able data (or dataclasses).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Any

from shadowtable.analysis import AnalysisSettings, GameAnalysis, analyse_record, unanalysed_record
from shadowtable.core.deduction import beliefs_along, deduction_of
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.record import GameRecord, game_for_record, replay_states

RESULT_FORMAT = "shadowtable-table-analysis/1"

DEDUCTION_SHARE = 0.2
"""The part of a job's budget kept for the deduction panel (the decisions get the rest, and the
deduction also gets what the decisions leave unspent).  A belief costs milliseconds where a
decision costs seconds (docs/analysis.md), so a fifth covers a long game's panel on most budgets."""

Clock = Callable[[], float]
Progress = Callable[[float], None]
"""Told the share of a piece done, from 0 to 1, rising."""

_messages: Any = None
"""The pipe (its writing end) this worker process sends progress on (set by :func:`start_worker`; ``None``
elsewhere: progress is then not sent)."""


@dataclass
class PipeProgress:
    """A piece's progress, sent as ``(token, share)`` on the worker's pipe at most once per
    ``every_s`` seconds (picklable: it travels with the piece)."""

    token: str
    every_s: float
    sent_at: float = field(default=float("-inf"))

    def __call__(self, share: float) -> None:
        now = perf_counter()
        if _messages is None or now - self.sent_at < self.every_s:
            return
        self.sent_at = now
        with contextlib.suppress(Exception):  # progress is a courtesy: never fail a piece for it
            _messages.send((self.token, share))


def server_games() -> list[tuple[str, str]]:
    """``(id, "module:Class")`` of every game this process knows (a worker registers those it lacks)."""
    from shadowtable.core.registry import available_games, game_class

    classes = {game_id: game_class(game_id) for game_id in available_games()}
    return [(game_id, f"{cls.__module__}:{cls.__qualname__}") for game_id, cls in classes.items()]


def start_worker(niceness: int, idle: bool, games: list[tuple[str, str]], messages: Any = None) -> None:
    """A worker process's start: lowered in priority by ``niceness`` and, on Linux where ``idle``,
    to the idle scheduling class (``SCHED_IDLE``: a process it shares a core with, such as the
    server, takes the core back as soon as it wakes, whatever their niceness), deaf to Ctrl+C
    (the server stops its workers itself), with the server's ``games`` registered and
    ``messages`` (the writing end of a ``multiprocessing`` pipe) as the pipe its pieces send
    progress on."""
    from shadowtable.core.registry import available_games, register_builtin

    global _messages
    _messages = messages

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(niceness)
    idle_class = getattr(os, "SCHED_IDLE", None)
    if idle and idle_class is not None:  # Linux: run only on a core nothing else wants, yield at once
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle_class, os.sched_param(0))
    known = set(available_games())
    for game_id, target in games:
        if game_id not in known:
            register_builtin(game_id, target)


def decision_steps(record_json: dict[str, Any]) -> dict[int, list[int]]:
    """Per seat, the steps (actions applied before it) at which that seat decided."""
    record = GameRecord.from_json(record_json)
    steps: dict[int, list[int]] = {seat: [] for seat in range(record.players)}
    for step, ((game, state), _action) in enumerate(zip(replay_states(record), record.actions, strict=False)):
        seat = game.current_player(state)
        if seat >= 0:
            steps.setdefault(seat, []).append(step)
    return steps


def budget_ends(budget: float | None, start: float, deduced: bool) -> tuple[float | None, float | None]:
    """When a job started at ``start`` with ``budget`` seconds must end its decisions and its
    whole work (``None``: no budget); the decisions leave :data:`DEDUCTION_SHARE` of the budget
    to the deduction when there is one (``deduced``)."""
    if budget is None:
        return None, None
    decisions = budget * (1.0 - DEDUCTION_SHARE) if deduced else budget
    return start + decisions, start + budget


def piece_budget(end: float | None, now: float, pieces_left: int) -> float | None:
    """A piece's seconds: an even share of what is left until ``end`` by the ``pieces_left``
    pieces (this one included) that share it; ``None`` without an end, 0 or less once spent."""
    if end is None:
        return None
    return (end - now) / max(pieces_left, 1)


def analyse_seat(
    record_json: dict[str, Any],
    settings: AnalysisSettings,
    seat: int,
    budget: float | None = None,
    progress: Progress | None = None,
    clock: Clock = perf_counter,
) -> GameAnalysis:
    """The analysis of ``seat``'s decisions in ``budget`` seconds (``None``: unbounded; 0 or
    less: none left, every decision with a choice is unanalysed and no rollout runs)."""
    record = GameRecord.from_json(record_json)
    if budget is not None and budget <= 0:
        return unanalysed_record(record, replace(settings, seat=seat, budget=None))
    return analyse_record(record, replace(settings, seat=seat, budget=budget), clock, progress)


def merged(settings: AnalysisSettings, pieces: list[GameAnalysis]) -> dict[str, Any]:
    """Every seat's pieces as one analysis of every seat (``seat``: ``None``), decisions in the
    order they were taken; ``unanalysed`` summed and ``complete`` only if every piece is."""
    first = pieces[0]
    whole = GameAnalysis(
        game=first.game,
        version=first.version,
        players=first.players,
        settings=replace(settings, seat=None),
        decisions=sorted((d for piece in pieces for d in piece.decisions), key=lambda d: (d.ply, d.seat)),
        seats=sorted((s for piece in pieces for s in piece.seats), key=lambda s: s.seat),
        unanalysed=sum(piece.unanalysed for piece in pieces),
        complete=all(piece.complete for piece in pieces),
        variant=first.variant,
    )
    return whole.to_json()


def deduction_kind(record_json: dict[str, Any]) -> str | None:
    """The game id if its game has a deduction model (``None``: it has none)."""
    game = game_for_record(GameRecord.from_json(record_json))
    try:
        deduction_of(game)
    except ShadowTableError:
        return None
    return game.spec.id


@dataclass(frozen=True)
class SeatDeduction:
    """What one seat could deduce: ``entries`` (``{"step", "belief"}``, by step) and how many of
    the steps asked for the budget left without a belief (``unanalysed``: the last ones)."""

    entries: list[dict[str, Any]]
    unanalysed: int = 0


def deduce_seat(
    record_json: dict[str, Any],
    seat: int,
    steps: list[int],
    budget: float | None = None,
    progress: Progress | None = None,
    clock: Clock = perf_counter,
) -> SeatDeduction:
    """What ``seat`` could deduce at each of ``steps`` (``record_belief`` after that many
    actions), in order, from one replay.  ``budget`` (seconds on ``clock``; ``None``: unbounded)
    is a hard bound: no belief starts once it is spent, so it is overrun by one belief at most,
    and the steps left are counted as unanalysed."""
    record = GameRecord.from_json(record_json)
    wanted = sorted(set(steps))
    end = None if budget is None else clock() + budget
    entries: list[dict[str, Any]] = []
    if end is None or clock() < end:
        for step, belief in beliefs_along(record, seat, wanted):
            entries.append({"step": step, "belief": belief})
            if progress is not None:
                progress(len(entries) / len(wanted))
            if end is not None and clock() >= end:
                break
    return SeatDeduction(entries, len(wanted) - len(entries))


def belief_steps(decided: list[int], total: int) -> list[int]:
    """The steps a seat's deduction is given at: each of its decisions and the end."""
    return sorted({*decided, total})


def result(analysis: dict[str, Any], kind: str, seats: dict[int, SeatDeduction]) -> dict[str, Any]:
    """The stored result of a table's analysis (docs/analysis.md, "On the server"): the deduction
    is ``complete`` when no seat's budget left a step without its belief (``unanalysed`` counts
    them, per seat too)."""
    left = {str(seat): d.unanalysed for seat, d in sorted(seats.items())}
    return {
        "format": RESULT_FORMAT,
        "analysis": analysis,
        "deduction": {
            "kind": kind,
            "seats": {str(seat): d.entries for seat, d in sorted(seats.items())},
            "unanalysed": sum(left.values()),
            "unanalysed_by_seat": left,
            "complete": not any(left.values()),
        },
    }
