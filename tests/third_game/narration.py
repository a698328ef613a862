"""Log wording and rules help, from what the reader knows: a dealt card only to its owner."""

from __future__ import annotations

from third_game.notation import action_to_str
from third_game.tasks import DealCard, PlaceBet

RULES_HELP = {"bet": "Betting (Tiny Stack rules, section 2): bet to compete with your card, or pass."}


def event_text(top: object, action: int, seat: int | None) -> str | None:
    if isinstance(top, DealCard):
        return f"you are dealt card {action}" if seat == top.seat else f"seat {top.seat} is dealt a card"
    if isinstance(top, PlaceBet):
        return f"{'you' if seat == top.seat else f'seat {top.seat}'}: {action_to_str(top, action)}"
    return None


def rules_help(rule: str) -> str:
    return RULES_HELP.get(rule, "")
