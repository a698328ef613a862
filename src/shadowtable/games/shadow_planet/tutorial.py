"""The Shadow Planet's tutorial (:class:`~shadowtable.tutorial.lesson.Lesson`): the prepared
deal, what each kind of decision is for, and what a Message card does for the newcomer's side."""

from __future__ import annotations

from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.game import Observation as JsonObservation
from shadowtable.core.views import typed_view
from shadowtable.games.shadow_planet.printed import printed
from shadowtable.games.shadow_planet.view import PlanetObservation
from shadowtable.tutorial.lesson import Lesson, Note, PreparedDeal

DEAL = PreparedDeal(
    game_id="shadow-planet",
    players=3,
    seed=5,
    why=(
        "Three players, the fewest the game allows. In this deal your first round has you "
        "pick a Character, move and search, and its Messages phase (where your secret "
        "Objective decides what to discard) comes within about a dozen choices; the next "
        "rounds bring the abilities, Get, Repair, Attack and the Sections."
    ),
)

NOTES: dict[str, Note] = {
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

MESSAGE_EFFECTS = {
    "move": "if revealed, brings the Countdown 1 closer to the end (Search cards hold it back)",
    "search": "if revealed, gives the Countdown 1 more round (Move cards take it away)",
    "get": "if revealed, pushes the Threat up 1 (Attack cards push it down)",
    "repair": "if revealed, moves Repair 1 closer to 0, the shuttle repaired (Attack cards push it back)",
    "attack": "if revealed, pushes the Threat down 1 and Repair 1 away from 0",
}
"""What a card of each type does as a Message (``messages`` rule)."""

MESSAGE_SIDES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "alien": (frozenset({"get", "repair"}), frozenset({"attack"})),
    "astronaut": (frozenset({"repair"}), frozenset({"get"})),
    "guardian": (frozenset({"get"}), frozenset({"repair"})),
}
"""For each Objective's role, the Message types whose effect helps it (a high Threat, the shuttle
repaired or not) and those that work against it; an Attack Message both lowers the Threat and
holds back the repairs, so it is mixed for every role."""


def message_advice(role: str, card_type: str) -> str:
    """What a Message of ``card_type`` does if revealed, and whether that helps an Objective of ``role``."""
    article = "an" if card_type[:1] in tuple("aeiou") else "a"
    effect = f"{article} {card_type.title()} card: {MESSAGE_EFFECTS.get(card_type, '')}"
    helps, hurts = MESSAGE_SIDES.get(role, (frozenset(), frozenset()))
    if card_type in helps:
        return f"{effect}; this helps you as the {role.title()}"
    if card_type in hurts:
        return f"{effect}; this works against you as the {role.title()}"
    return effect


def own_role(game: Game[Any], observation: JsonObservation, seat: int) -> str:
    """The role of ``seat``'s own Objective as its observation shows it ("" before the deal)."""
    view = typed_view(game, observation)
    assert isinstance(view, PlanetObservation)
    own = view.public.objectives[seat] if 0 <= seat < len(view.public.objectives) else None
    roles = printed(game).objective_role
    return roles[own] if isinstance(own, int) and 0 <= own < len(roles) else ""


LESSON = Lesson(DEAL, NOTES, message_advice, own_role)
