"""Game options in plain words for the table creation form: a label, what the option does and
what each choice means, as the games' notes on the rules decide them.  The option's name stays
the form field's value; a ledger id (``SP-D-PROC-1: ...``) never reaches the player."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shadowtable.core.spec import OptionSpec

LEDGER_ID = re.compile(r"^\s*[A-Z]{2,3}(?:-[A-Z0-9]+)+:\s*")
"""A rules-ledger id opening an option's documentation (``SP-D-PROC-1: ``)."""


@dataclass(frozen=True)
class OptionWords:
    label: str
    description: str
    choices: dict[str, str] = field(default_factory=dict)
    """What each allowed value means (by the value as text)."""


WORDS: dict[tuple[str, str], OptionWords] = {
    ("shadow-planet", "temple_first"): OptionWords(
        "Temple cards revealed first",
        "In the Messages phase, the cards put on the Temple pile are revealed first, in their order, then the "
        "shuffled Messages pile, up to 6 cards in all.",
    ),
    ("shadow-planet", "caves_vehicle_only"): OptionWords(
        "The Caves only by Vehicle",
        "A Link to or from the Caves can only be used by a Character driving or riding a Vehicle.",
    ),
    ("shadow-planet", "latched_end"): OptionWords(
        "An ending, once reached, stays",
        "An Indicator that reaches its end at any moment of a round ends the game at the end of that round, even "
        "if it moves away again; the winner is decided with the Indicators as they stand then.",
    ),
    ("shadow-planet", "alien_threat_clamp"): OptionWords(
        "The Alien's last Threat move stays on the track",
        "At the end of the game, the Alien's move of the Threat Indicator stops at 0 and at 8.",
    ),
    ("shadow-planet", "identity_ties"): OptionWords(
        "Ties when matching identities",
        "At the end, when a player has equally few Markers of two colours, who decides which Character they are.",
        {"choose": "the player chooses", "lowest_initiative": "the Character with the lowest Initiative"},
    ),
    ("shadow-planet", "vehicle_fallback"): OptionWords(
        "A short driver may go elsewhere",
        "A driver whose Move cards fall short of the destination they declared may drive somewhere in reach instead "
        "of staying put.",
    ),
    ("shadow-planet", "search_bonus_without_cards"): OptionWords(
        "Search bonuses without Search cards",
        "Search bonuses (abilities and cards that give +Search) let a Character search even when no Search card "
        "is played.",
    ),
    ("shadow-planet", "crawler_is_move_card"): OptionWords(
        "The Crawler card is a Move card",
        "The Crawler card, though it goes to the Messages pile at once, counts as a Move card played this turn, so "
        "Space Suit cannot be played after it.",
    ),
    ("shadowlord", "modified"): OptionWords(
        "Modified 2-player game",
        "Each of the two players leads one Alliance instead of two (2 players only).",
    ),
    ("shadowlord", "turn_cap"): OptionWords("Turn limit", "After this many turns the game stops with no winner."),
    ("shadowlord", "timer_mode"): OptionWords(
        "When the Power Stone Timer moves",
        "The Power Stone Timer moves one notch towards the Starburst at each of these moments.",
        {"reshuffle": "each time the Power Card deck is reshuffled", "every_turn": "every turn"},
    ),
    ("shadowlord", "max_offers_per_turn"): OptionWords(
        "Offers per turn", "How many trade offers a player may make in one turn."
    ),
}


def option_words(game_id: str, option: OptionSpec) -> OptionWords:
    """``option`` of ``game_id`` in words: as written above, else its name and documentation
    without a leading ledger id; every allowed value has its words (the value, spaced, where
    none are written)."""
    found = WORDS.get((game_id, option.name))
    if found is None:
        found = OptionWords(option.name.replace("_", " ").capitalize(), LEDGER_ID.sub("", option.doc))
    values = {str(value): found.choices.get(str(value), str(value).replace("_", " ")) for value in option.choices or ()}
    return OptionWords(found.label, found.description, values)
