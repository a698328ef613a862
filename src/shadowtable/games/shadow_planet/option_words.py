"""The Shadow Planet's options in plain words, for the table creation form (named by the
game's manifest as ``option_words``): a label, what each option does and what each choice means."""

from __future__ import annotations

from shadowtable.core.spec import OptionWords

OPTION_WORDS: dict[str, OptionWords] = {
    "temple_first": OptionWords(
        "Temple cards revealed first",
        "In the Messages phase, the cards put on the Temple pile are revealed first, in their order, then the "
        "shuffled Messages pile, up to 6 cards in all.",
    ),
    "caves_vehicle_only": OptionWords(
        "The Caves only by Vehicle",
        "A Link to or from the Caves can only be used by a Character driving or riding a Vehicle.",
    ),
    "latched_end": OptionWords(
        "An ending, once reached, stays",
        "An Indicator that reaches its end at any moment of a round ends the game at the end of that round, even "
        "if it moves away again; the winner is decided with the Indicators as they stand then.",
    ),
    "alien_threat_clamp": OptionWords(
        "The Alien's last Threat move stays on the track",
        "At the end of the game, the Alien's move of the Threat Indicator stops at 0 and at 8.",
    ),
    "identity_ties": OptionWords(
        "Ties when matching identities",
        "At the end, when a player has equally few Markers of two colours, who decides which Character they are.",
        {"choose": "the player chooses", "lowest_initiative": "the Character with the lowest Initiative"},
    ),
    "vehicle_fallback": OptionWords(
        "A short driver may go elsewhere",
        "A driver whose Move cards fall short of the destination they declared may drive somewhere in reach instead "
        "of staying put.",
    ),
    "search_bonus_without_cards": OptionWords(
        "Search bonuses without Search cards",
        "Search bonuses (abilities and cards that give +Search) let a Character search even when no Search card "
        "is played.",
    ),
    "crawler_is_move_card": OptionWords(
        "The Crawler card is a Move card",
        "The Crawler card, though it goes to the Messages pile at once, counts as a Move card played this turn, so "
        "Space Suit cannot be played after it.",
    ),
}
