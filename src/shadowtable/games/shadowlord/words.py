"""Words for what the printed material names: figure codes and vote motions.

They need names only (figures, colours, galaxies), so the rules, the text rendering and the
boards word things alike: the rules pass the content, the boards an object read from
``Game.reference()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

SHORT = {"Master": "M", "Warrior": "W", "Merchant": "T", "Diplomat": "D", "Shadowlord": "SL", "Shadow": "S"}
COLOUR_CODE = ["r", "b", "y", "g", "k"]
"""One letter per colour id: the four Alliances, then black (the shadows)."""


class Names(Protocol):
    """The printed names a text needs: figures, the four Alliance colours, galaxies."""

    @property
    def fig_name(self) -> Sequence[str]: ...

    @property
    def colours(self) -> Sequence[str]: ...

    def galaxy_name(self, g: int) -> str: ...


def figure_code(names: Names, f: int, owner: int, ships: int, stone: bool) -> str:
    """``<colour><kind><number>:<ships>`` (``*``: holds the Power Stone); a character found on a
    disc keeps its number (``yW1``), so it never reads like a starting character (``yW``)."""
    name = names.fig_name[f]
    words = name.split()
    if words[0].lower() in names.colours:
        tag = SHORT.get(words[-1], words[-1][:2])
    elif name.startswith("Shadow "):
        tag = f"S{words[-1]}"
    elif len(words) == 1:
        tag = SHORT.get(words[0], words[0][:2])
    else:
        tag = SHORT.get(words[0], words[0][:2]) + "".join(ch for ch in words[-1] if ch.isdigit())
    return f"{COLOUR_CODE[owner] if 0 <= owner < 5 else '?'}{tag}:{ships}{'*' if stone else ''}"


def motion_text(names: Names, cur: int, loc: Sequence[int], motion: str, subject: int, origin: int) -> str:
    """What a motion asks, in words, from public facts only (the current colour and where the
    figures stand), so a state and an observation word it alike."""
    fig, me = names.fig_name, names.colours[cur] if 0 <= cur < 4 else "the current player"
    if motion == "defect":
        return f"{fig[subject]} Defects to {me}"
    if motion == "place_shadow":
        return f"{fig[subject]} stays in {names.galaxy_name(loc[subject])} (else he leaves the game)"
    if motion == "move_shadow":
        return (
            f"{fig[subject]} stays in {names.galaxy_name(loc[subject])} "
            f"(else he returns to {names.galaxy_name(origin)})"
        )
    if motion == "storm":
        return f"a Spacestorm strikes seat {subject} (1d8 Space Ships lost)"
    return f"{me} steals 2 random Power Cards from seat {subject}"
