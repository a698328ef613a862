"""The state: table data (the deck, the cards, the bets) and the stack of pending tasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.events import Event
from shadowtable.core.kernel import Task

NOT_YET = -1


@dataclass
class State:
    deck: list[int]
    cards: list[int]
    bets: list[int]
    winners: list[int] = field(default_factory=list)
    over: bool = False
    stack: list[Task] = field(default_factory=list)
    journal: list[Event] | None = field(default=None, compare=False, repr=False)
    legal: list[int] | None = field(default=None, compare=False, repr=False)

    def copy(self) -> State:
        return State(self.deck[:], self.cards[:], self.bets[:], self.winners[:], self.over, self.stack[:])

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "cards": self.cards,
            "bets": self.bets,
            "winners": self.winners,
            "over": self.over,
            "stack": [task.to_json() for task in self.stack],
        }
