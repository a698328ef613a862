"""The work of an analysis of a finished table, as pieces a worker process runs one at a time.

A job is cut into one piece per seat for the decisions (:func:`analyse_seat`) and one per seat
for the deduction panel (:func:`deduce_seat`), so the server can report progress between pieces
and a killed worker loses one piece's work.  Every function here is pure and picklable: it takes
the game record as JSON and returns JSON-able data (or the analysis's dataclasses).
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import replace
from typing import Any

from shadowtable.analysis import AnalysisSettings, GameAnalysis, analyse_record
from shadowtable.core.deduction import deduction_of, record_belief
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.record import GameRecord, game_for_record, replay_states

RESULT_FORMAT = "shadowtable-table-analysis/1"


def server_games() -> list[tuple[str, str]]:
    """``(id, "module:Class")`` of every game this process knows (a worker registers those it lacks)."""
    from shadowtable.core.registry import available_games, game_class

    classes = {game_id: game_class(game_id) for game_id in available_games()}
    return [(game_id, f"{cls.__module__}:{cls.__qualname__}") for game_id, cls in classes.items()]


def start_worker(niceness: int, games: list[tuple[str, str]]) -> None:
    """A worker process's start: lowered in priority by ``niceness`` and, on Linux, to the idle
    scheduling class (``SCHED_IDLE``: a process it shares a core with, such as the server, takes
    the core back as soon as it wakes, whatever their niceness), deaf to Ctrl+C (the server stops
    its workers itself), with the server's ``games`` registered."""
    from shadowtable.core.registry import available_games, register_builtin

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(niceness)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:  # Linux: run only when a core has nothing else to run, yield at once to what wakes
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))
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


def seat_settings(settings: AnalysisSettings, seat: int, players: int) -> AnalysisSettings:
    """``settings`` for one seat's piece: that seat, and its share of the game's budget."""
    budget = None if settings.budget is None else settings.budget / players
    return replace(settings, seat=seat, budget=budget)


def analyse_seat(record_json: dict[str, Any], settings: AnalysisSettings, seat: int) -> GameAnalysis:
    """The analysis of ``seat``'s decisions (its share of the budget)."""
    record = GameRecord.from_json(record_json)
    return analyse_record(record, seat_settings(settings, seat, record.players))


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


def deduce_seat(record_json: dict[str, Any], seat: int, steps: list[int]) -> list[dict[str, Any]]:
    """What ``seat`` could deduce at each of ``steps`` (``record_belief`` after that many actions)."""
    record = GameRecord.from_json(record_json)
    return [{"step": step, "belief": record_belief(record, seat, upto=step)} for step in steps]


def belief_steps(decided: list[int], total: int) -> list[int]:
    """The steps a seat's deduction is given at: each of its decisions and the end."""
    return sorted({*decided, total})


def result(analysis: dict[str, Any], kind: str, seats: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """The stored result of a table's analysis (docs/analysis.md, "On the server")."""
    return {
        "format": RESULT_FORMAT,
        "analysis": analysis,
        "deduction": {"kind": kind, "seats": {str(seat): entries for seat, entries in sorted(seats.items())}},
    }
