"""The configured game: content, configuration, options and the tables derived from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shadowtable.games.shadowlord.content import DIPLOMAT, SHADOWLORD, Configuration, Content
from shadowtable.games.shadowlord.state import NOBODY


@dataclass
class Context:
    """A configured game's fixed context: content, configuration and options."""

    content: Content
    config: Configuration
    players: int
    options: dict[str, Any]
    seat_alliances: list[list[int]] = field(default_factory=list)

    steps: list[tuple[int, ...]] = field(default_factory=list)
    """``steps[g][d]``: the galaxy one step from ``g`` in direction n, e, s, w (-1 off the board)."""

    diplomats: tuple[int, ...] = ()
    """The Diplomat figures (starting Diplomats and Diplomat discs)."""

    lord: int = NOBODY
    """The Shadowlord's figure id."""

    home_owner: tuple[int, ...] = ()
    """``home_owner[g]``: the colour whose Home Planet ``g`` is (``NOBODY`` elsewhere)."""

    def __post_init__(self) -> None:
        c = self.content
        self.steps = [
            tuple(
                (g // c.cols + dr) * c.cols + g % c.cols + dc
                if 0 <= g // c.cols + dr < c.rows and 0 <= g % c.cols + dc < c.cols
                else NOBODY
                for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
            )
            for g in range(c.num_galaxies)
        ]
        self.lord = c.fig_kind.index(SHADOWLORD)
        self.home_owner = tuple(c.home_of.index(g) if g in c.homes else NOBODY for g in range(c.num_galaxies))
        self.diplomats = tuple(f for f, kind in enumerate(c.fig_kind) if kind == DIPLOMAT)
        self.seat_alliances = [
            [a for a in self.config.alliances if self.config.seat_of[a] == s] for s in range(self.players)
        ]

    def seat_of(self, colour: int) -> int:
        """The seat playing ``colour``; ``NOBODY`` for shadows and unused colours."""
        return self.config.seat_of[colour] if 0 <= colour < 4 else NOBODY
