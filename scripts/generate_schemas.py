"""Write each game's observation JSON Schemas, generated from its typed view and rulebook:

    PYTHONPATH=src python scripts/generate_schemas.py           (from the repository root)
    PYTHONPATH=src python scripts/generate_schemas.py --check   (exit 1 if a shipped file differs)

The schemas come from the source's types.  The compiled build erases the item types of the tasks'
tuple fields (``tuple[int, ...]`` reads as ``tuple``), so where the package imports compiled the
script runs itself again on a copy of ``src/shadowtable`` without the extension modules.

``data/schemas/observation-seat.json`` and ``observation-spectator.json`` in each game's package
(:func:`shadowtable.core.observation.observation_schema`); ``tests/games/test_schemas.py``
checks the shipped files equal these.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from shadowtable.core.jsondata import Schema
from shadowtable.core.kernel import Rulebook, Task
from shadowtable.core.observation import ObservationType, observation_schema

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("seat", "spectator")


@dataclass(frozen=True)
class GameSchemas:
    """What a game's schemas are generated from."""

    name: str
    package: Path
    view: ObservationType
    rulebook: Rulebook
    secret_task_fields: Mapping[type[Task], Iterable[str]]


def games() -> list[GameSchemas]:
    """The games whose schemas are generated."""
    from shadowtable.games.shadow_planet import tasks as planet_tasks
    from shadowtable.games.shadow_planet.rules import RULEBOOK as PLANET_RULEBOOK
    from shadowtable.games.shadow_planet.view import PlanetObservation
    from shadowtable.games.shadowlord.rules import RULEBOOK as LORD_RULEBOOK
    from shadowtable.games.shadowlord.view import LordObservation

    games_dir = ROOT / "src" / "shadowtable" / "games"
    return [
        GameSchemas("The Shadow Planet", games_dir / "shadow_planet", PlanetObservation, PLANET_RULEBOOK,
                    planet_tasks.SECRET),
        GameSchemas("Shadowlord!", games_dir / "shadowlord", LordObservation, LORD_RULEBOOK, {}),
    ]  # fmt: skip


def schema_of(game: GameSchemas, kind: str) -> Schema:
    """The generated schema of ``game``'s observation for ``kind`` (``seat`` or ``spectator``)."""
    who = "a spectator" if kind == "spectator" else "one seat"
    return observation_schema(
        game.view,
        game.rulebook,
        spectator=kind == "spectator",
        title=f"{game.name}: the observation of {who} (game.observe)",
        secret_task_fields=game.secret_task_fields,
    )


def schema_text(game: GameSchemas, kind: str) -> str:
    """The file's text: the schema as indented JSON."""
    return json.dumps(schema_of(game, kind), indent=1) + "\n"


def schema_path(game: GameSchemas, kind: str) -> Path:
    return game.package / "data" / "schemas" / f"observation-{kind}.json"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for game in games():
        for kind in KINDS:
            path, text = schema_path(game, kind), schema_text(game, kind)
            if check:
                if not path.exists() or path.read_text("utf-8") != text:
                    stale.append(path)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            print("wrote", path.relative_to(ROOT))
    for path in stale:
        print("out of date:", path.relative_to(ROOT))
    return 1 if stale else 0


def on_the_pure_source(argv: list[str]) -> int:
    """Run this script again, on a temporary copy of the source without its extension modules."""
    with tempfile.TemporaryDirectory() as folder:
        ignore = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
        shutil.copytree(ROOT / "src" / "shadowtable", Path(folder) / "shadowtable", ignore=ignore)
        env = {**os.environ, "PYTHONPATH": folder, PURE_COPY: "1"}
        return subprocess.call([sys.executable, str(Path(__file__).resolve()), *argv], env=env)


PURE_COPY = "SHADOWTABLE_SCHEMAS_PURE_COPY"
"""Set in the run on the pure copy, so that it never copies again."""


if __name__ == "__main__":
    import shadowtable

    if shadowtable.compiled():
        if os.environ.get(PURE_COPY):
            sys.exit("error: the copy of the source still imports compiled modules")
        sys.exit(on_the_pure_source(sys.argv[1:]))
    sys.exit(main(sys.argv[1:]))
