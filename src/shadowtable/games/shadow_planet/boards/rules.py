"""The Shadow Planet's additions to its rules page (named by the manifest as
``rules_extras``): how each Objective wins, the endings, and the cards, Sections, Links, Characters and Vehicles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shadowtable.web.rules_page import Goal, Table, section_links

SHADOW_PLANET_ROLES = {
    "alien": "You win when the game ends on the Repair Indicator (Melita repaired), or on the Countdown with the "
    "Astronauts' Repair cards reaching the Repair Indicator, and then the Astronauts' Attack cards fall short of "
    "the Threat Indicator after you move it by your Get cards minus your Attack cards.",
    "astronaut": "You win, with the other Astronauts, when the game ends on the Repair Indicator (or on the Countdown "
    "with your Repair cards reaching the Repair Indicator) and your Attack cards reach the Threat Indicator after "
    "the Alien has moved it.",
    "guardian": "You win when the game ends on the Threat Indicator, or on the Countdown with the Astronauts' Repair "
    "cards short of the Repair Indicator. When no player holds the Guardian, the unmatched Character with the "
    "highest Initiative number is the Guardian, and if it wins, every player loses.",
}
"""How each role wins, in short (the rulebook's Determining the Winner)."""

SHADOW_PLANET_ENDINGS = (
    ("Threat reaches 8", "The Guardian wins; everyone else loses."),
    (
        "Repair reaches 0",
        "The Guardian loses. The Alien moves Threat by their Get cards minus their Attack cards; the "
        "Astronauts add up their Attack cards: at least the Threat, the Astronauts win, else the Alien.",
    ),
    (
        "Countdown reaches 0",
        "The Astronauts add up their Repair cards: short of the Repair Indicator, the Guardian wins; at "
        "least the Repair Indicator, the Alien and the Astronauts settle it as when Repair reaches 0.",
    ),
)


def shadow_planet_extras(
    game_id: str, reference: Mapping[str, Any]
) -> tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]:
    """How each Objective wins; the endings; cards, Sections, Links, Characters and Vehicles."""
    links = section_links(game_id, ("5 Objectives", "End of the Game > Assign Identity", "Determining the Winner"))
    goals = tuple(
        Goal(objective_title(o), SHADOW_PLANET_ROLES[o["role"]], o["goal"].partition("\n\n")[2], links)
        for o in reference["objectives"]
    )  # fmt: skip
    endings = Table(
        "How the game ends: the first Indicator to reach its end decides (Threat, then Repair, then Countdown)",
        "endings",
        ("The game ends when", "Who wins"),
        SHADOW_PLANET_ENDINGS,
    )
    return goals, endings, shadow_planet_tables(reference)


def objective_title(objective: Mapping[str, Any]) -> str:
    """``2. Commander (an Astronaut)``: priority, name, and the role where the name is not it."""
    name, role = str(objective["name"]), str(objective["role"])
    title = f"{objective['priority']}. {name}"
    return title if name.lower() == role else f"{title} (an {role.capitalize()})"


def card_places(reference: Mapping[str, Any]) -> list[str]:
    """Where each card starts, by ``card_home`` (a Location deck, a Character's Gear, the Messages pile)."""
    tables = reference["tables"]
    places = [f"{name} deck" for name in tables["location_names"]]
    places += [f"{name}'s Gear" for name in tables["char_names"]]
    return [places[home] if 0 <= home < len(places) else "Messages pile" for home in tables["card_home"]]


def card_rows(reference: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """One row per distinct card and place, with its number of copies."""
    counts: dict[tuple[str, ...], int] = {}
    for card, place in zip(reference["cards"], card_places(reference), strict=True):
        effect = str(card["text"]).partition(": ")[2] or str(card["text"])  # after "Move 2: "
        row = (card["name"], card["type"].capitalize(), str(card["value"]), effect[:1].upper() + effect[1:], place)
        counts[row] = counts.get(row, 0) + 1
    return tuple((*row, str(n)) for row, n in counts.items())


def shadow_planet_tables(reference: Mapping[str, Any]) -> tuple[Table, ...]:
    yes_no = {True: "only with a Vehicle", False: "on foot or by Vehicle"}
    return (
        Table("Operation cards", "cards", ("Card", "Type", "Value", "What it does", "Starts in", "Copies"),
              card_rows(reference)),
        Table("Sections", "sections", ("Section", "Location", "Move to enter", "Reveal", "Effect"), tuple(
            (s["name"], s["location"], str(s["entry_cost"]), p["cost"], p["effect"])
            for s in reference["sections"] for p in s["payments"])),
        Table("Links between Locations", "links", ("Between", "Move cost", "How"), tuple(
            (" - ".join(link["between"]), str(link["cost"]), yes_no[bool(link["vehicle_only"])])
            for link in reference["links"])),
        Table("Characters", "characters", ("Character", "Colour", "Starts in", "Ability (controlled)",
                                           "Ability (uncontrolled)"), tuple(
            (c["name"], c["colour"] or "none", c["start"], c["ability"] or "none", c["uncontrolled"] or "none")
            for c in reference["characters"])),
        Table("Vehicles", "vehicles", ("Vehicle", "Carries", "Move bonus"), tuple(
            (v["name"], f"up to {v['capacity']} Characters", v["bonus"]) for v in reference["vehicles"])),
    )  # fmt: skip


EXTRAS = shadow_planet_extras
