"""Shadowlord!'s tutorial (:class:`~shadowtable.tutorial.lesson.Lesson`): the prepared deal and
what each kind of decision is for."""

from __future__ import annotations

from shadowtable.tutorial.lesson import Lesson, Note, PreparedDeal

DEAL = PreparedDeal(
    game_id="shadowlord",
    players=2,
    seed=16,
    options={"modified": True, "turn_cap": 24, "max_offers_per_turn": 0},
    why=(
        "The modified 2-player game (one Alliance each) without offers, against a bot that plays "
        "to win: in this deal the game usually ends for real, with the Shadowlord and a Star "
        "Master defeated, well before the limit of 24 turns. In your first choices you place your "
        "starting Space Ships, build and move your rings; Special Events, searches for allies and "
        "Duels follow."
    ),
)
"""Measured by ``scripts/tutorial_endings.py shadowlord`` (20 seeds for each way of choosing): a
newcomer choosing as the heuristic bot loses to a real Master of the Universe in 20 of 20 games
(50 choices); one choosing as it three times in four and otherwise at random reaches a real ending
in 17 of 20 (62-207 choices, median 130); one choosing at random in 19 of 20 (21-137, median 65).
The other games stop at the turn limit."""

NOTES: dict[str, Note] = {
    "setup": Note(
        "Set up your Alliance: each of your three characters starts on your Home Planet with a Power "
        "Ring; Space Ships on a ring add to its strength in a Duel.",
        "Your Home Planet on the grid and the rings of your characters.",
    ),
    "cards": Note(
        "Power Cards placed face down under a portrait add to that character's strength when it attacks or defends.",
        "Your character portraits and the cards under them.",
    ),
    "event": Note(
        "A Special Event was rolled: name its target, or skip it if it would not help you.",
        "The characters on the grid that the event could hit.",
    ),
    "build": Note(
        "Build: place the Space Ships you gained on your rings or loose in a galaxy, or discard a "
        "Power Card for Space Ships.",
        "Your rings and the galaxies you control (Space Bases and Merchants give ships).",
    ),
    "move": Note(
        "Move your rings across the galaxies, drop or pick up Space Ships, and search for allies "
        "in unexplored galaxies.",
        "The grid: your rings, the unexplored discs and the Lost Fortress in the middle.",
    ),
    "search": Note("Searching an unexplored galaxy reveals who is there.", "The disc you are searching on the grid."),
    "enlist": Note(
        "A character was found: enlist him into your Alliance, give him away, or remove him.",
        "The character found and his strength in the reference.",
    ),
    "shadow_move": Note(
        "You may move one shadow one galaxy towards an enemy (the other players vote on it).",
        "The shadows on the grid and the rings near them.",
    ),
    "truce": Note("Before a fight you may propose or accept a Truce.", "The rings sharing a galaxy with yours."),
    "allies": Note("Call allies from neighbouring galaxies into the Battle.", "The galaxies around the Battle."),
    "order": Note("Choose which Battle is fought next.", "The galaxies where enemy rings meet yours."),
    "shift": Note("Redistribute your Space Ships among your rings before the Battle.", "Your rings in the Battle."),
    "battle_board": Note(
        "Duels: each side adds strength, Space Ships and Power Cards; the higher total wins.",
        "The Battle panel: who faces whom, and the cards under your portraits.",
    ),
    "vote": Note("Every player votes; the majority decides.", "What is being voted on, in the panel."),
}

LESSON = Lesson(DEAL, NOTES)
