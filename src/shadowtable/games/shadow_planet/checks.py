"""Component conservation: every Operation card in exactly one place, every Marker counted."""

from __future__ import annotations

from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import State


def conservation_errors(r: Context, s: State) -> list[str]:
    """Problems with card and Marker conservation (empty when all is well)."""
    errors: list[str] = []
    if len(s.where) != r.num_cards:
        errors.append(f"{len(s.where)} card places for {r.num_cards} cards")
    for d, top in enumerate(s.top):
        for card in top:
            if s.where[card] != d:
                errors.append(f"card {card} on top of deck {d} but its zone is {s.where[card]}")
        if len(set(top)) != len(top):
            errors.append(f"deck {d} top repeats a card")
    if sorted(s.temple) != sorted(c for c, z in enumerate(s.where) if z == M.TEMPLE):
        errors.append("Temple pile order disagrees with card zones")
    if any(not 0 <= z <= M.PLAYED0 + 5 for z in s.where):
        errors.append("a card is in an unknown zone")
    elif s.zones != M.zone_index(s.where):
        errors.append("the zone index disagrees with the cards' zones")
    total_markers = r.content.markers_per_colour * 5
    on_sections = sum(bin(m).count("1") for m in s.section_markers)
    have = sum(s.pool) + sum(s.sheets) + on_sections
    if have != total_markers:
        errors.append(f"{have} Markers instead of {total_markers}")
    for colour in range(5):
        count = s.pool[colour] + sum(s.sheets[seat * 5 + colour] for seat in range(s.n))
        count += sum(1 for m in s.section_markers if (m >> colour) & 1)
        if count != r.content.markers_per_colour:
            errors.append(f"colour {colour}: {count} Markers instead of {r.content.markers_per_colour}")
    return errors
