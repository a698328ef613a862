"""Notation: ``pass`` / ``bet``; a deal reads ``deal seat N: card V``."""

from __future__ import annotations

from third_game.actions import NAMES
from third_game.tasks import DealCard


def action_to_str(top: object, action: int) -> str:
    if isinstance(top, DealCard):
        return f"deal seat {top.seat}: card {action}"
    return NAMES[action] if 0 <= action < len(NAMES) else f"action {action}"


def action_from_str(top: object, text: str) -> int | None:
    words = " ".join(text.lower().split())
    return NAMES.index(words) if not isinstance(top, DealCard) and words in NAMES else None
