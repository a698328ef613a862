"""Small lab specs shared by the lab's tests (random bots: the fastest games)."""

from __future__ import annotations

import json
from typing import Any

from shadowtable.sim.sweep import builtin_content_path


def planet_spec(**changes: Any) -> dict[str, Any]:
    """A 3-player The Shadow Planet spec with random bots, 4 games per arm."""
    data: dict[str, Any] = {
        "game": "shadow-planet",
        "players": 3,
        "variants": [{"name": "baseline", "options": {}}],
        "bots": ["level0"],
        "games": 4,
        "seed": 11,
        "probes": [],
    }
    return {**data, **changes}


def builtin_content(game: str) -> dict[str, Any]:
    """The game's built-in content document."""
    data: dict[str, Any] = json.loads(builtin_content_path(game).read_text(encoding="utf-8"))
    return data
