"""A game's decisions sorted into kinds by action id, in the words its table page groups choices by.

The designer's lab restricts play by kind ("never propose a Truce"), so a kind must be readable
from what a seat is given: the action id alone, never the state.  A game's manifest names its
:class:`ActionKinds` (``action_kinds``); it may also say which role a seat holds, as far as that
seat's own observation shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.core.game import Game, Observation

SeatRole = Callable[[Game[Any], Observation, int], "str | None"]
"""``(game, observation of seat, seat) -> role`` that seat holds, or ``None`` while it does not know."""

GameRoles = Callable[[Game[Any]], Sequence[str]]
"""``game -> every role name`` its seats can hold (the names its record summaries use)."""


@dataclass(frozen=True)
class ActionKinds:
    """Half-open action id ranges ``(low, high, words)``, each a kind; ids in no range are ``other``."""

    ranges: tuple[tuple[int, int, str], ...]
    size: int
    """The number of action ids (decisions and chance outcomes alike)."""
    other: str = "other choices"
    seat_role: SeatRole | None = None
    roles: GameRoles | None = None

    def names(self) -> list[str]:
        """Every kind's words, in action id order, each once (``other`` last)."""
        seen = dict.fromkeys(words for _, _, words in sorted(self.ranges))
        covered = sum(high - low for low, high, _ in self.ranges)
        return [*seen, self.other] if covered < self.size and self.other not in seen else list(seen)

    def of(self, action: int) -> str:
        """The kind of ``action``."""
        for low, high, words in self.ranges:
            if low <= action < high:
                return words
        return self.other

    def role_names(self, game: Game[Any]) -> list[str]:
        """The roles a seat of ``game`` can hold (none when the game names none)."""
        return sorted(set(self.roles(game))) if self.roles is not None else []

    def role_of(self, game: Game[Any], observation: Observation, seat: int) -> str | None:
        """The role ``seat`` holds as its own ``observation`` shows it, or ``None``."""
        return self.seat_role(game, observation, seat) if self.seat_role is not None else None
