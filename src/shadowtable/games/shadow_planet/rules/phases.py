"""Per-turn scratch fields (until the turn is ported to tasks)."""

from __future__ import annotations

from shadowtable.games.shadow_planet.state import (
    State,
)

ALIEN = 0


def reset_turn(s: State) -> None:
    """Clear the per-turn scratch fields."""
    s.fill, s.forbid, s.excl, s.move_total, s.move_cards = -1, 0, 0, 0, 0
    s.drive, s.dest, s.passengers, s.ask, s.points, s.bonus = -1, -1, [], [], 0, 0
    s.look, s.placed, s.draws, s.target, s.chosen, s.count = [], [], 0, -1, -1, 0
    s.reveal, s.eff_index, s.ability_index = -1, 0, 0
