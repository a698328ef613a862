"""How hard the conformance suite exercises each game in an ordinary (CI) run.

``games``: seeded random games per configuration; ``full_every``: the costly per-step checks
(mutation, JSON, notation, determinize, illegal actions) run every this many steps.
"""

from __future__ import annotations

DEFAULT = {"games": 30, "full_every": 1}

GAME_SETTINGS: dict[str, dict[str, int]] = {
    "tiny-showdown": {"games": 60, "full_every": 1},
    # One chunk per configuration: these two games' playouts were most of CI's time (docs/concepts.md);
    # the ``slow`` run plays 10,000 games of each.
    "shadow-planet": {"games": 8, "full_every": 32},
    "shadowlord": {"games": 8, "full_every": 32},
}

CHUNK = 25
"""Seeds per test case, so a failure names a small range of seeds."""

SLOW_GAMES = 10_000
"""Games per game id in the run behind the ``slow`` marker."""


def settings_for(game_id: str) -> dict[str, int]:
    return {**DEFAULT, **GAME_SETTINGS.get(game_id, {})}
