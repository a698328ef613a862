"""The pending work of a Tiny Stack game: one frozen dataclass per kind, fields read by name."""

from __future__ import annotations

from dataclasses import dataclass

from shadowtable.core.kernel import Task


@dataclass(frozen=True, slots=True)
class DealCard(Task):
    """Chance deals ``seat`` a secret card."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlaceBet(Task):
    """``seat`` bets or passes."""

    seat: int


@dataclass(frozen=True, slots=True)
class ShowCards(Task):
    """The bettors show their cards; the highest wins."""
