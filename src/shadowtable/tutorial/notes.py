"""What the coach says about each kind of decision: what it is for and where to look on the board,
by the rule key a decision names (``pending["rule"]``), per title.  Nothing here depends on a game
in progress: it is printed guidance, the same for every seat."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """What a kind of decision is for, and the board element to look at while making it."""

    purpose: str
    look_at: str


PLANET_NOTES: dict[str, Note] = {
    "control": Note(
        "Each round every player controls one Character. The Character you pick acts for you this "
        "round, and you receive a Marker of its colour: at the end, the colour you hold the fewest "
        "Markers of decides who you turn out to be.",
        "The Characters on the map (their colour letters) and the Markers on your sheet in the panel.",
    ),
    "ability": Note(
        "Your Character's ability (the person icon) resolves before its five Action steps.",
        "Your Character's card in the panel, and the other Characters on the map.",
    ),
    "move": Note(
        "Step I: play Move cards from your Character's Gear to walk along the Links, or drive a "
        "Vehicle. Points you do not spend are lost.",
        "The map: the Links between Locations and their costs.",
    ),
    "vehicle": Note(
        "A Vehicle carries its driver and passengers; some Links need one.",
        "The Vehicles on the map and the Links marked as needing a Vehicle.",
    ),
    "search": Note(
        "Step II: Search cards reveal cards and pay for a Section's effect where you stand.",
        "The Section your Character is in and what it offers.",
    ),
    "get": Note(
        "Step III: you always draw the top card of your Location's deck; Get cards draw more.",
        "The deck of your Location and the Gear in your panel.",
    ),
    "repair": Note(
        "Step IV: Repair cards move the Repair Indicator towards 0, the shuttle being repaired.",
        "The Repair gauge at the top of the board.",
    ),
    "attack": Note(
        "Step V: Attack cards lower the Threat; the Alien wants it high, the Astronauts low.",
        "The Threat gauge at the top of the board.",
    ),
    "section": Note(
        "At the end of a turn the Section you stand in may pay off for the cards played.",
        "The Sections of your Location on the map.",
    ),
    "messages": Note(
        "Every player discards one card face down to the Messages pile; six are revealed. Revealed "
        "Get cards push the Threat up against Attack cards, Attack cards push Repair back against "
        "Repair cards, and Search cards give the Countdown time against Move cards. Discard the "
        "card whose effect helps your Objective.",
        "The three gauges at the top (Countdown, Repair, Threat) and your Objective in the panel.",
    ),
    "identity": Note(
        "The game is over: each player is matched with the Character whose colour they hold the fewest Markers of.",
        "The Markers on your sheet in the panel.",
    ),
}

LORD_NOTES: dict[str, Note] = {
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

NOTES: dict[str, dict[str, Note]] = {"shadow-planet": PLANET_NOTES, "shadowlord": LORD_NOTES}

FALLBACK = Note("Read the prompt: it says what this decision is about.", "The highlighted parts of the board.")


def note_for(game_id: str, rule: str) -> Note:
    """The note of decisions under ``rule`` in ``game_id`` (a general one when there is none)."""
    return NOTES.get(game_id, {}).get(rule, FALLBACK)


MESSAGE_EFFECTS = {
    "move": "if revealed, brings the Countdown 1 closer to the end (Search cards hold it back)",
    "search": "if revealed, gives the Countdown 1 more round (Move cards take it away)",
    "get": "if revealed, pushes the Threat up 1 (Attack cards push it down)",
    "repair": "if revealed, moves Repair 1 closer to 0, the shuttle repaired (Attack cards push it back)",
    "attack": "if revealed, pushes the Threat down 1 and Repair 1 away from 0",
}
"""What a card of each type does as a Message in The Shadow Planet (``messages`` rule)."""

MESSAGE_SIDES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "alien": (frozenset({"get", "repair"}), frozenset({"attack"})),
    "astronaut": (frozenset({"repair"}), frozenset({"get"})),
    "guardian": (frozenset({"get"}), frozenset({"repair"})),
}
"""For each Objective's role in The Shadow Planet, the Message types whose effect helps it (a high
Threat, the shuttle repaired or not) and those that work against it; an Attack Message both lowers
the Threat and holds back the repairs, so it is mixed for every role."""


def message_side(role: str, card_type: str) -> str:
    """Whether a revealed Message of ``card_type`` helps or hurts an Objective of ``role``."""
    helps, hurts = MESSAGE_SIDES.get(role, (frozenset(), frozenset()))
    if card_type in helps:
        return f"this helps you as the {role.title()}"
    if card_type in hurts:
        return f"this works against you as the {role.title()}"
    return ""
