"""A lab run on disk: ``spec.json``, ``rows.jsonl`` (one row per game, appended as games finish,
resumable) and ``figures.json``; content documents go under ``content/``.

Rows are written in the order the chunks were submitted; an interrupted run keeps every complete
row (a torn last line is cut off), and ``resume`` plays only the games missing.  Figures depend
on the rows only, sorted, so a resumed run writes the same ``figures.json`` as an uninterrupted one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.lab.figures import lab_figures
from shadowtable.lab.run import arms, game_seed, play_indices
from shadowtable.lab.spec import LabSpec
from shadowtable.sim.parallel import BACKENDS, complete_lines, default_chunk_size, in_order

SPEC_FILE = "spec.json"
ROWS_FILE = "rows.jsonl"
FIGURES_FILE = "figures.json"
CONTENT_FOLDER = "content"

Task = tuple[int, list[int]]
"""One chunk of work: an arm and the indices of its games to play."""

ProgressHook = Callable[[int], None]


class LabRunError(ShadowTableError):
    """A run folder that cannot be resumed or read (another spec, rows that do not belong)."""


def spec_text(spec: LabSpec) -> str:
    """``spec.json`` as written (and compared on resume)."""
    return json.dumps(spec.to_json(), indent=2) + "\n"


def figures_text(figures: Mapping[str, Any]) -> str:
    """``figures.json`` as written."""
    return json.dumps(figures, indent=2) + "\n"


def row_belongs(spec: LabSpec, row: Any) -> bool:
    """Whether ``row`` is a game of ``spec``: an arm and index it has, with that game's seed."""
    if not isinstance(row, dict):
        return False
    arm, index = row.get("arm"), row.get("index")
    if not (isinstance(arm, int) and isinstance(index, int)):
        return False
    return 0 <= arm < len(arms(spec)) and 0 <= index < spec.games and row.get("seed") == game_seed(spec, arm, index)


def read_rows(path: Path, spec: LabSpec) -> list[dict[str, Any]]:
    """The complete rows of ``path`` (none if it does not exist); a torn last line is cut off.

    A complete line that is not a row of ``spec``, or a game twice, raises :class:`LabRunError`
    and leaves the file as it is.
    """
    if not path.exists():
        return []
    rows: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for number, raw in complete_lines(path):
        try:
            row = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise LabRunError(f"{path}:{number}: not a lab row ({exc})") from exc
        if not row_belongs(spec, row):
            raise LabRunError(f"{path}:{number}: not a game of this run's spec")
        key = (row["arm"], row["index"])
        if key in seen:
            raise LabRunError(f"{path}:{number}: game {key[1]} of arm {key[0]} is there twice")
        seen.add(key)
        rows.append(row)
    return rows


def rows_by_arm(rows: Sequence[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    """Rows grouped by arm."""
    grouped: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[int(row["arm"])].append(row)
    return dict(grouped)


def missing_tasks(spec: LabSpec, done: set[tuple[int, int]], size: int) -> list[Task]:
    """The games not in ``done``, arm by arm in index order, in chunks of at most ``size``."""
    tasks: list[Task] = []
    for arm in arms(spec):
        todo = [i for i in range(spec.games) if (arm.number, i) not in done]
        tasks.extend((arm.number, todo[i : i + size]) for i in range(0, len(todo), size))
    return tasks


def play_task(spec_json: Mapping[str, Any], content_folder: str, task: Task) -> list[dict[str, Any]]:
    """The rows of one chunk (module level: it pickles for worker processes and Ray)."""
    arm, indices = task
    return play_indices(spec_json, arm, indices, content_folder)


def played(
    spec: LabSpec,
    tasks: Sequence[Task],
    content_folder: Path,
    *,
    workers: int,
    backend: str,
    address: str | None,
) -> Iterator[tuple[Task, list[dict[str, Any]]]]:
    """``(task, rows)`` for every task, in order, on ``backend``."""
    task = partial(play_task, spec.to_json(), str(content_folder))
    if backend == "ray":
        from shadowtable.sim.ray_backend import in_order_ray

        return in_order_ray(task, tasks, workers=workers, address=address)
    return in_order(task, tasks, workers=workers)


def run_lab(
    spec: LabSpec,
    out: Path,
    *,
    resume: bool = False,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
    progress: ProgressHook | None = None,
    on_start: ProgressHook | None = None,
) -> dict[str, Any]:
    """Play every game of ``spec`` not yet in ``out`` (``resume``), then write and return the figures.

    ``on_start`` gets the number of games already done when play starts, ``progress`` the number
    just finished after each chunk.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use {' or '.join(BACKENDS)}")
    rows_path = out / ROWS_FILE
    if resume and (out / SPEC_FILE).exists() and (out / SPEC_FILE).read_text(encoding="utf-8") != spec_text(spec):
        raise LabRunError(f"{out} holds a run of another spec; cannot resume it with this one")
    rows = read_rows(rows_path, spec) if resume else []
    done = {(int(row["arm"]), int(row["index"])) for row in rows}
    total_todo = len(arms(spec)) * spec.games - len(done)
    tasks = missing_tasks(spec, done, chunk_size or default_chunk_size(total_todo, workers))
    out.mkdir(parents=True, exist_ok=True)
    (out / SPEC_FILE).write_text(spec_text(spec), encoding="utf-8")
    (out / FIGURES_FILE).unlink(missing_ok=True)
    if on_start is not None:
        on_start(len(done))
    with open(rows_path, "a" if resume else "w", encoding="utf-8") as sink:
        for _, new_rows in played(spec, tasks, out / CONTENT_FOLDER, workers=workers, backend=backend, address=address):
            sink.write("".join(json.dumps(row, separators=(",", ":")) + "\n" for row in new_rows))
            sink.flush()
            rows.extend(new_rows)
            if progress is not None:
                progress(len(new_rows))
    figures = lab_figures(spec, rows_by_arm(rows))
    (out / FIGURES_FILE).write_text(figures_text(figures), encoding="utf-8")
    return figures


def load_run(folder: Path) -> tuple[LabSpec, list[dict[str, Any]]]:
    """The spec and the complete rows of a run folder (read only: a torn last line is skipped, not cut)."""
    spec_path = folder / SPEC_FILE
    try:
        spec = LabSpec.from_json(json.loads(spec_path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LabRunError(f"{folder}: no readable {SPEC_FILE} ({exc})") from exc
    rows = []
    path = folder / ROWS_FILE
    if path.exists():
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                if not line.endswith("\n") or not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as exc:
                    raise LabRunError(f"{path}: not a lab row ({exc})") from exc
                if row_belongs(spec, row):
                    rows.append(row)
    return spec, rows
