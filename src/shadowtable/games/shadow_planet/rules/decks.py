"""Hidden decks: a known ordered top on an unknown rest; chance reveals the next unknown card."""

from __future__ import annotations

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet.board import cards_of, zone_size
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import RevealTop

REVEAL_TOP = tuple(RevealTop(deck) for deck in range(5))
"""The chance node revealing each deck's next card (tasks are values: built once)."""


def uniform(outcomes: list[int]) -> list[tuple[int, float]]:
    """Equally likely outcomes (every chance node of the game is uniform)."""
    p = 1.0 / len(outcomes) if outcomes else 0.0
    return [(o, p) for o in outcomes]


def top_known(s: State, deck: int, wanted: int, resume: Task) -> bool:
    """True if the deck's known top holds ``wanted`` cards (or the whole deck); else ``resume``
    waits under a chance node that reveals the next card, and False."""
    need = min(wanted, zone_size(s, deck))
    if len(s.top[deck]) >= need:
        return True
    s.stack.append(resume)
    s.stack.append(REVEAL_TOP[deck])
    return False


def reveal_outcomes(ctx: Context, s: State, task: RevealTop) -> list[tuple[int, float]]:
    """Every card of the deck's unknown rest, equally likely."""
    rest = s.zones[task.deck]  # a Location deck holds its own cards; the Messages pile any card
    for card in s.top[task.deck]:
        rest &= ~(1 << card)
    return uniform(cards_of(rest))


def reveal(ctx: Context, s: State, task: RevealTop, card: int) -> None:
    """``card`` becomes the next known top card of the deck."""
    s.top[task.deck].append(card)
