"""Shadowlord!'s additions to its rules page (named by the manifest as
``rules_extras``): how a player wins, and the figures, Power Cards, Special Events and galaxies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shadowtable.web.rules_page import Goal, Table, section_links

SHADOWLORD_WIN = (
    "When the Shadowlord and every other Star Master have been defeated, the last player left becomes 'Master of "
    "the Universe' and wins. A player whose Star Master is captured is out of the game. Once the Power Stone has been "
    "taken from the Shadowlord, the others may surrender to its owner. If the Power Stone Timer stands on the "
    "Starburst at the start of a player's turn, the Shadowlord wins and every player loses."
)


def shadowlord_extras(
    game_id: str, reference: Mapping[str, Any]
) -> tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]:
    """How a player wins; figures, Power Cards, Special Events and galaxies."""
    links = section_links(
        game_id, ("Game End", "Capturing a Star Master", "Battling the Shadowlord in the Lost Fortress")
    )
    goal = Goal("Master of the Universe", SHADOWLORD_WIN, str(reference["goal"]).partition("\n\n")[2], links)
    return (goal,), None, shadowlord_tables(reference)


def galaxy_rows(reference: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """One row per kind of galaxy: what it does and which galaxies are of that kind."""
    kinds: dict[str, tuple[str, list[str]]] = {}
    for galaxy in reference["galaxies"]:
        kinds.setdefault(galaxy["kind"], (galaxy["text"], []))[1].append(galaxy["name"])
    return tuple((text, ", ".join(names)) for text, names in kinds.values())


def shadowlord_tables(reference: Mapping[str, Any]) -> tuple[Table, ...]:
    return (
        Table("Figures", "figures", ("Figure", "Kind", "Strength", "Colour"), tuple(
            (f["name"], f["kind"], str(f["strength"]), f["colour"] or "none") for f in reference["figures"])),
        Table("Power Cards", "power-cards", ("Value", "Copies", "Use"), tuple(
            (str(c["value"]), str(c["copies"]), c["text"]) for c in reference["power_cards"])),
        Table("Special Events (roll 2d8)", "special-events", ("Roll", "Event"), tuple(
            (str(e["roll"]), e["text"]) for e in reference["special_events"])),
        Table("Galaxies", "galaxies", ("Kind", "Galaxies"), galaxy_rows(reference)),
        Table("First round: where each Alliance may move", "first-round", ("Alliance", "May move to"), tuple(
            (colour.capitalize(), ", ".join(cells)) for colour, cells in reference["first_round_moves"].items())),
    )  # fmt: skip


EXTRAS = shadowlord_extras
