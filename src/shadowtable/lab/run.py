"""Playing a lab run's games: its arms, each game's seed, and one small JSON row per game.

Game ``i`` of every arm uses the seed of game ``i`` of ``shadowtable simulate --seed S``
(:func:`shadowtable.sim.batch.game_seed`) with the same bots, so the baseline arm is exactly
that batch, and every arm plays the same deals (common random numbers).  Rows hold what the
figures need; a game itself is played again on demand (:func:`replay_record`).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from shadowtable.bots.base import Bot
from shadowtable.bots.ladder import resolve_spec
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import game_class, make
from shadowtable.core.runner import play_game
from shadowtable.lab.kinds import game_kinds
from shadowtable.lab.restricted import RestrictedBot
from shadowtable.lab.spec import LabSpec, Probe, content_bytes
from shadowtable.sim import batch
from shadowtable.sim.summaries import record_roles, record_summary

DEFAULT_CONTENT_FOLDER = Path(tempfile.gettempdir()) / "shadowtable-lab-content"
"""Where edited content documents are written when no folder is given."""


@dataclass(frozen=True)
class Arm:
    """One arm of a run: a variant, played as it is or with a restricted-play probe."""

    number: int
    label: str
    variant: int
    probe: Probe | None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "label": self.label,
            "variant": self.variant,
            "probe": None if self.probe is None else self.probe.to_json(),
        }


def arms(spec: LabSpec) -> tuple[Arm, ...]:
    """Every arm: the variants (the baseline first), then each probe on the baseline."""
    plain = tuple(Arm(i, variant.name, i, None) for i, variant in enumerate(spec.variants))
    probed = tuple(
        Arm(len(plain) + k, f"{spec.variants[0].name}, {probe.label}", 0, probe) for k, probe in enumerate(spec.probes)
    )
    return plain + probed


def game_seed(spec: LabSpec, arm: int, index: int) -> int:
    """The seed of game ``index`` of ``arm``: that of game ``index`` of ``simulate --seed spec.seed``."""
    return batch.game_seed(spec.seed, index)


def content_path(content: Mapping[str, Any], folder: Path) -> Path:
    """The file holding ``content``, written once under ``folder`` as ``<sha256>.json``."""
    data = content_bytes(content)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.json"
    if not path.is_file() or path.read_bytes() != data:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    return path


def arm_options(spec: LabSpec, arm: Arm, content_folder: Path | None = None) -> dict[str, Any]:
    """The game options of ``arm``: its variant's, plus the path of its content document if edited."""
    variant = spec.variants[arm.variant]
    options = dict(variant.options)
    if variant.content is not None:
        options["content"] = str(content_path(variant.content, content_folder or DEFAULT_CONTENT_FOLDER))
    return options


def seat_specs(spec: LabSpec) -> list[str]:
    """The bot spec of every seat, ladder levels resolved (the seat names in records)."""
    return batch.line_up([resolve_spec(text, spec.game) for text in spec.bots], spec.players)


def arm_bots(spec: LabSpec, arm: Arm) -> list[Bot]:
    """Fresh bots for one game of ``arm``, each wrapped by the arm's probe if it has one."""
    bots = [make_bot(text) for text in seat_specs(spec)]
    probe = arm.probe
    if probe is None:
        return bots
    kinds = game_kinds(spec.game)
    if kinds is None:
        raise ValueError(f"game {spec.game!r} names no kinds of action")
    return [RestrictedBot(bot, kinds, probe.role, probe.kind) for bot in bots]


def arm_game(spec: LabSpec, arm: Arm, content_folder: Path | None = None) -> Game[Any]:
    """The configured game ``arm`` plays."""
    return make(spec.game, players=spec.players, **arm_options(spec, arm, content_folder))


def play_arm_game(spec: LabSpec, arm: Arm, index: int, game: Game[Any]) -> GameRecord:
    """Game ``index`` of ``arm`` on ``game`` (see :func:`arm_game`), its index in the metadata."""
    record = play_game(game, arm_bots(spec, arm), game_seed(spec, arm.number, index), seat_names=seat_specs(spec))
    return replace(record, metadata={**record.metadata, "index": index})


def replay_record(spec: LabSpec, arm: int, index: int, content_folder: Path | None = None) -> GameRecord:
    """Game ``index`` of ``arm`` played again: the same record every time."""
    chosen = arms(spec)[arm]
    return play_arm_game(spec, chosen, index, arm_game(spec, chosen, content_folder))


def record_row(record: GameRecord, arm: int) -> dict[str, Any]:
    """One game as a small JSON row: what every figure of the lab needs, no actions."""
    best = game_class(record.game).SPEC.max_utility
    meta = record.metadata
    returns = list(record.returns) if record.returns is not None else [0.0] * record.players
    return {
        "arm": arm,
        "index": meta.get("index"),
        "seed": record.seed,
        "bots": list(record.seats),
        "roles": record_roles(record),
        "objectives": seat_facts(record, "objective"),
        "wins": [value >= best and not record.truncated for value in returns],
        "returns": returns,
        "end_reason": str(meta.get("end_reason", "truncated" if record.truncated else "ended")),
        "rounds": int(meta.get("rounds", meta.get("turns", len(record.actions)))),
        "length_unit": length_unit(meta),
        "actions": len(record.actions),
        "truncated": record.truncated,
    }


def length_unit(metadata: Mapping[str, Any]) -> str:
    """What a row's ``rounds`` counts: the game's ``rounds``, else its ``turns``, else its actions."""
    return next((unit for unit in ("rounds", "turns") if unit in metadata), "actions")


def seat_facts(record: GameRecord, name: str) -> list[str] | None:
    """Fact ``name`` of every seat of the record's summary as text, or ``None`` unless every seat has it."""
    summary = record_summary(record)
    if summary is None or summary.seats is None or len(summary.seats) != record.players:
        return None
    values = [seat.facts.get(name) for seat in summary.seats]
    return None if any(value is None for value in values) else [str(value) for value in values]


def play_rows(
    spec_json: Mapping[str, Any], arm: int, start: int, stop: int, content_folder: str | None = None
) -> list[dict[str, Any]]:
    """Rows of games ``start`` to ``stop - 1`` of ``arm`` (a worker's chunk; arguments pickle)."""
    return play_indices(spec_json, arm, range(start, stop), content_folder)


def play_indices(
    spec_json: Mapping[str, Any], arm: int, indices: Sequence[int], content_folder: str | None = None
) -> list[dict[str, Any]]:
    """Rows of games ``indices`` of ``arm``, the game built once."""
    spec = LabSpec.from_json(spec_json)
    chosen = arms(spec)[arm]
    game = arm_game(spec, chosen, Path(content_folder) if content_folder else None)
    return [record_row(play_arm_game(spec, chosen, index, game), arm) for index in indices]


def play_game_row(
    spec_json: Mapping[str, Any], arm: int, index: int, content_folder: str | None = None
) -> dict[str, Any]:
    """The row of game ``index`` of ``arm``."""
    return play_indices(spec_json, arm, [index], content_folder)[0]
