"""The printed material of a configured game read back from ``game.words.reference()`` as typed tables.

The heuristic bot, the evaluation, the encoder and both boards read the game through these
tables (and the seat's observation), never through the rules' context: every figure, galaxy and
colour is an id, as in the observation.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shadowtable.core.game import Game
from shadowtable.games.shadowlord.content import KIND_NAMES

NOBODY = -1


@dataclass(frozen=True)
class Printed:
    """Figures, colours, galaxies, Power Cards and the board of one configured game, by id."""

    players: int
    fig_name: tuple[str, ...]
    fig_kind: tuple[int, ...]
    fig_strength: tuple[int, ...]
    colours: tuple[str, ...]
    """The four Alliance colours (id 4, black, is the shadows')."""
    galaxy_names: tuple[str, ...]
    cell_kind: tuple[str, ...]
    card_values: tuple[int, ...]
    rows: int
    cols: int
    steps: tuple[tuple[int, ...], ...]
    """``steps[g][d]``: the galaxy one step from ``g`` in direction n, e, s, w (-1 off the board)."""
    neighbours: tuple[tuple[int, ...], ...]
    fortress: int
    ruins: frozenset[int]
    bases: frozenset[int]
    home_of: tuple[int, ...]
    """The Home Planet of each Alliance colour."""
    timer_notches: int
    timer_every_turn_notches: int
    seat_alliances: tuple[tuple[int, ...], ...]

    @property
    def homes(self) -> frozenset[int]:
        return frozenset(self.home_of)

    @property
    def num_galaxies(self) -> int:
        return len(self.galaxy_names)

    def galaxy_name(self, g: int) -> str:
        return self.galaxy_names[g]

    def alliances_of(self, seat: int | None) -> tuple[int, ...]:
        """The colours ``seat`` plays (none for a spectator)."""
        return self.seat_alliances[seat] if seat is not None and 0 <= seat < len(self.seat_alliances) else ()

    def seat_of(self, colour: int) -> int:
        """The seat playing ``colour``; ``NOBODY`` for shadows and unused colours."""
        return next((seat for seat, mine in enumerate(self.seat_alliances) if colour in mine), NOBODY)


def printed_from_reference(reference: Mapping[str, Any], players: int) -> Printed:
    """The typed tables of a reference (``game.words.reference()``) for ``players`` seats."""
    board = reference["board"]
    figures = reference["figures"]
    return Printed(
        players=players,
        fig_name=tuple(f["name"] for f in figures),
        fig_kind=tuple(KIND_NAMES.index(f["kind"]) for f in figures),
        fig_strength=tuple(int(f["strength"]) for f in figures),
        colours=tuple(reference["colours"][:4]),
        galaxy_names=tuple(g["name"] for g in reference["galaxies"]),
        cell_kind=tuple(g["kind"] for g in reference["galaxies"]),
        card_values=tuple(int(card["value"]) for card in reference["power_cards"]),
        rows=int(board["rows"]),
        cols=int(board["cols"]),
        steps=tuple(tuple(step) for step in board["steps"]),
        neighbours=tuple(tuple(near) for near in board["neighbours"]),
        fortress=int(board["fortress"]),
        ruins=frozenset(board["ruins"]),
        bases=frozenset(board["bases"]),
        home_of=tuple(board["home_of"]),
        timer_notches=int(board["timer_notches"]),
        timer_every_turn_notches=int(board["timer_every_turn_notches"]),
        seat_alliances=tuple(tuple(alliances) for alliances in reference["seat_alliances"]),
    )


_PRINTED: weakref.WeakKeyDictionary[Game[Any], Printed] = weakref.WeakKeyDictionary()


def printed(game: Game[Any]) -> Printed:
    """The typed tables of ``game``'s reference, read once per game."""
    found = _PRINTED.get(game)
    if found is None:
        found = _PRINTED[game] = printed_from_reference(game.words.reference(), game.players)
    return found
