"""What the newcomer's seat may not know at a tutorial's moment: the lines told only to other
seats, and the card ids they name that the newcomer was never shown."""

from __future__ import annotations

import re

from shadowtable.tutorial import NEWCOMER_SEAT, Tutorial
from shadowtable.tutorial.coach import named

CARD = re.compile(r"#\d+\b")


def told_lines(tutorial: Tutorial, seat: int) -> list[str]:
    """Every line ``seat`` has been told, as the newcomer's coach names seats (another seat's own
    actions, told to it as ``you: ...``, as their words alone)."""
    tutorial.table.tell()  # every seat's channel (from the start: replayed)
    lines = tutorial.table.view(seat).changes.lines
    if seat != NEWCOMER_SEAT:
        lines = tuple(line[len("you: ") :] if line.startswith("you: ") else line for line in lines)
    return [named(line, tutorial.names, NEWCOMER_SEAT) for line in lines]


def known_text(tutorial: Tutorial, shown: str = "") -> str:
    """Everything the newcomer may read: its told lines, its choices, its observation rendered
    (and ``shown``: its observation as a board draws it)."""
    view = tutorial.table.view(NEWCOMER_SEAT)
    words = tutorial.table.game.words
    choices = [choice.text for choice in view.choices or ()]
    return "\n".join([*told_lines(tutorial, NEWCOMER_SEAT), *choices, words.render(view.observation), shown])


def secrets(tutorial: Tutorial, shown: str = "") -> tuple[set[str], set[str]]:
    """The lines told only to other seats, and the card ids only they were shown (``shown``: the
    newcomer's board, drawn from its own observation)."""
    known = known_text(tutorial, shown)
    own = set(told_lines(tutorial, NEWCOMER_SEAT))
    lines: set[str] = set()
    for seat in range(1, tutorial.table.game.players):
        told = told_lines(tutorial, seat)
        lines |= {line for line in told if line not in own and line not in known}
    cards = {card for line in lines for card in CARD.findall(line)} - set(CARD.findall(known))
    return lines, cards


def leaks(text: str, lines: set[str], cards: set[str]) -> list[str]:
    """The secret lines and card ids found in ``text``."""
    found = [line for line in lines if line in text]
    return found + [card for card in cards if re.search(re.escape(card) + r"\b", text)]
