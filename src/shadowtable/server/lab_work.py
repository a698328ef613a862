"""The work of a lab run, as pieces a worker process of the server runs one at a time.

Every function here is pure and picklable: it takes the run's specification as JSON (and rows
as the JSON text they are stored as) and returns JSON-able data, so the server's event loop only
hands work over and stores what comes back.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from shadowtable.core.record import replay_states
from shadowtable.core.registry import make
from shadowtable.lab.figures import lab_figures, rows_csv, rows_parquet
from shadowtable.lab.run import arms, play_rows, replay_record
from shadowtable.lab.spec import LabSpec


def play_chunk(spec_json: dict[str, Any], arm: int, start: int, stop: int, content_folder: str) -> list[str]:
    """Games ``start`` to ``stop - 1`` of ``arm``, one compact JSON row each (an edited content
    written once under ``content_folder``)."""
    rows = play_rows(spec_json, arm, start, stop, content_folder)
    return [json.dumps(row, separators=(",", ":")) for row in rows]


def decoded(rows_by_arm: dict[int, list[str]]) -> dict[int, list[dict[str, Any]]]:
    """Stored rows (JSON text) as dictionaries, per arm."""
    return {arm: [json.loads(text) for text in rows] for arm, rows in rows_by_arm.items()}


def figures_of(spec_json: dict[str, Any], rows_by_arm: dict[int, list[str]]) -> str:
    """The stored figures of a run (JSON: :func:`shadowtable.lab.figures.lab_figures`, odd games included)."""
    figures = lab_figures(LabSpec.from_json(spec_json), decoded(rows_by_arm))
    return json.dumps(figures, separators=(",", ":"))


def export_of(spec_json: dict[str, Any], rows_by_arm: dict[int, list[str]], kind: str) -> bytes:
    """The rows of a run as a CSV or Parquet file's bytes (one line per seat of each game)."""
    labels = dict(enumerate(arm_labels(spec_json)))
    rows = [row for arm in sorted(rows_by_arm) for row in decoded({arm: rows_by_arm[arm]})[arm]]
    with tempfile.TemporaryDirectory(prefix="shadowtable-lab-export-") as folder:
        out = Path(folder) / f"rows.{kind}"
        (rows_parquet if kind == "parquet" else rows_csv)(rows, out, labels)
        return out.read_bytes()


def arm_labels(spec_json: dict[str, Any]) -> list[str]:
    """Each arm's label, in order (the variants, then the probes)."""
    return [arm.label for arm in arms(LabSpec.from_json(spec_json))]


def odd_game(spec_json: dict[str, Any], arm: int, index: int, content_folder: str) -> dict[str, Any]:
    """Game ``index`` of ``arm`` played again, as a finished table is stored: its options (an
    edited content written once under ``content_folder``), seats' bots, ``(seat, action)`` steps
    and returns."""
    record = replay_record(LabSpec.from_json(spec_json), arm, index, Path(content_folder))
    game = make(record.game, players=record.players, **record.options)
    states = replay_states(record)
    steps = [(game.current_player(state), action) for (_, state), action in zip(states, record.actions, strict=False)]
    returns = list(record.returns) if record.returns is not None else [0.0] * record.players
    return {
        "game": game.spec.id,
        "version": game.spec.version,
        "players": game.players,
        "options": dict(record.options),
        "bots": list(record.seats),
        "steps": steps,
        "returns": returns,
    }
