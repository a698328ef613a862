"""Shadowlord!'s options in plain words, for the table creation form (named by the
game's manifest as ``option_words``): a label, what each option does and what each choice means."""

from __future__ import annotations

from shadowtable.core.spec import OptionWords

OPTION_WORDS: dict[str, OptionWords] = {
    "modified": OptionWords(
        "Modified 2-player game",
        "Each of the two players leads one Alliance instead of two (2 players only).",
    ),
    "turn_cap": OptionWords("Turn limit", "After this many turns the game stops with no winner."),
    "timer_mode": OptionWords(
        "When the Power Stone Timer moves",
        "The Power Stone Timer moves one notch towards the Starburst at each of these moments.",
        {"reshuffle": "each time the Power Card deck is reshuffled", "every_turn": "every turn"},
    ),
    "max_offers_per_turn": OptionWords("Offers per turn", "How many trade offers a player may make in one turn."),
}
