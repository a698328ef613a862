"""The work of a lab run, as pieces a worker process of the server runs one at a time.

Every function here is pure and picklable: it takes the run's specification as JSON (and rows
as the JSON text they are stored as) and returns JSON-able data, so the server's event loop only
hands work over and stores what comes back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shadowtable.core.record import replay_states
from shadowtable.core.registry import make
from shadowtable.lab.figures import lab_figures, odd_games
from shadowtable.lab.run import arms, content_path, play_rows, replay_record
from shadowtable.lab.spec import LabSpec

FIGURES_FORMAT = "shadowtable-lab-figures/1"


def play_chunk(spec_json: dict[str, Any], arm: int, start: int, stop: int) -> list[str]:
    """Games ``start`` to ``stop - 1`` of ``arm``, one compact JSON row each."""
    return [json.dumps(row, separators=(",", ":")) for row in play_rows(spec_json, arm, start, stop)]


def decoded(rows_by_arm: dict[int, list[str]]) -> dict[int, list[dict[str, Any]]]:
    """Stored rows (JSON text) as dictionaries, per arm."""
    return {arm: [json.loads(text) for text in rows] for arm, rows in rows_by_arm.items()}


def figures_of(spec_json: dict[str, Any], rows_by_arm: dict[int, list[str]]) -> str:
    """The stored result of a run (JSON): its figures and its odd games."""
    spec = LabSpec.from_json(spec_json)
    rows = decoded(rows_by_arm)
    answer = {"format": FIGURES_FORMAT, "figures": lab_figures(spec, rows), "odd": odd_games(spec, rows)}
    return json.dumps(answer, separators=(",", ":"))


def arm_labels(spec_json: dict[str, Any]) -> list[str]:
    """Each arm's label, in order (the variants, then the probes)."""
    return [arm.label for arm in arms(LabSpec.from_json(spec_json))]


def odd_game(spec_json: dict[str, Any], arm: int, index: int, content_folder: str) -> dict[str, Any]:
    """Game ``index`` of ``arm`` played again, as a finished table is stored: its options (an
    edited content written once under ``content_folder``), seats' bots, ``(seat, action)`` steps
    and returns."""
    spec = LabSpec.from_json(spec_json)
    the_arm = arms(spec)[arm]
    record = replay_record(spec, the_arm, index)
    options = {name: value for name, value in record.options.items() if name != "content"}
    variant = spec.variants[the_arm.variant]
    if variant.content is not None:
        options["content"] = str(content_path(variant.content, Path(content_folder)))
    game = make(record.game, players=record.players, **options)
    steps = [(game.current_player(state), action) for (_, state), action in zip(replay_states(record), record.actions)]
    returns = list(record.returns) if record.returns is not None else [0.0] * record.players
    return {
        "game": game.spec.id,
        "version": game.spec.version,
        "players": game.players,
        "options": options,
        "bots": list(record.seats),
        "steps": steps,
        "returns": returns,
    }
