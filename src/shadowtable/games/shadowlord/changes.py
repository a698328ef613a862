"""What changed for a seat between two of its views of Shadowlord!, in words.

Pure: it compares two :class:`LordObservation` of the same seat, with the printed material and
the seat names, and nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shadowtable.core.changes import Change, moved, seat_word
from shadowtable.core.game import Game
from shadowtable.games.shadowlord.view import LordObservation, LordPublic

VOTE_WORDS = {
    "defect": "a Defection",
    "move_shadow": "moving a Shadow",
    "place_shadow": "placing a Shadow",
    "steal": "a theft",
    "storm": "a Storm",
}


def view_changes(
    game: Game[Any], before: LordObservation, after: LordObservation, names: Sequence[str]
) -> list[Change]:
    """Turn, Power Stone Timer, figures moved, captured or changing sides, the Space Ships they
    carry, players out, the Duels fought, the Votes closed and the offers made."""
    old, new = before.public, after.public
    changes = moved(old.turn, new.turn, "Turn") + _timer(old.timer, new.timer)
    changes += _figures(game, old, new) + _ships(game, old, new)
    for seat, (was, now) in enumerate(zip(old.seat_out, new.seat_out, strict=True)):
        if now and not was:
            changes.append(Change(f"{seat_word(names, seat)} is out of the game"))
    return changes + _duel(game, old, new) + _vote(old, new) + _offer(old, new, names)


def _timer(was: int, now: int) -> list[Change]:
    """The Power Stone Timer's move; a negative value is the Timer taken out of the game."""
    if now < 0 <= was:
        return [Change(f"Power Stone Timer removed from the game (it stood at {was})", (".sl-timer",))]
    return moved(was, now, "Power Stone Timer", ".sl-timer")


def _figures(game: Game[Any], old: LordPublic, new: LordPublic) -> list[Change]:
    figures = [f["name"] for f in game.words.reference()["figures"]]
    galaxies = [g["name"] for g in game.words.reference()["galaxies"]]
    colours = game.words.reference()["colours"]
    changes = []
    for index, name in enumerate(figures[: len(new.loc)]):
        was, now = old.loc[index], new.loc[index]
        if was != now and 0 <= now < len(galaxies):
            start = galaxies[was] if 0 <= was < len(galaxies) else "off the board"
            changes.append(Change(f"{name}: {start} -> {galaxies[now]}", (f'[data-galaxy="{galaxies[now]}"]',)))
        elif was != now and 0 <= was < len(galaxies):
            changes.append(Change(f"{name} leaves {galaxies[was]}", (f'[data-galaxy="{galaxies[was]}"]',)))
        if old.captor[index] != new.captor[index] and new.captor[index] >= 0:
            changes.append(Change(f"{name} is captured"))
        owner = new.owner[index]
        if old.owner[index] != owner and old.owner[index] >= 0 and 0 <= owner < len(colours):
            changes.append(Change(f"{name} now belongs to {colours[owner]}"))
    return changes


def _ships(game: Game[Any], old: LordPublic, new: LordPublic) -> list[Change]:
    """Space Ships carried by a figure on the board that changed in number."""
    figures = [f["name"] for f in game.words.reference()["figures"]]
    galaxies = [g["name"] for g in game.words.reference()["galaxies"]]
    changes = []
    for index, name in enumerate(figures[: len(new.ships)]):
        where = new.loc[index]
        if old.ships[index] != new.ships[index] and 0 <= where < len(galaxies):
            mark = f'[data-galaxy="{galaxies[where]}"]'
            changes += moved(old.ships[index], new.ships[index], f"{name}: Space Ships", mark)
    return changes


def _duel(game: Game[Any], old: LordPublic, new: LordPublic) -> list[Change]:
    last = new.last_duel
    if last is None or last == old.last_duel:
        return []
    figures = [f["name"] for f in game.words.reference()["figures"]]
    sides = [f"{figures[f]} {total}" for f, total in zip(last.figures, last.totals, strict=True)]
    return [Change(f"Duel: {' vs '.join(sides)}: {figures[last.winner]} wins")]


def _vote(old: LordPublic, new: LordPublic) -> list[Change]:
    last = new.last_vote
    if last is None or last == old.last_vote:
        return []
    result = "passed" if last.passed else "failed"
    return [Change(f"Vote on {VOTE_WORDS.get(last.kind, last.kind)}: {result}")]


def _offer(old: LordPublic, new: LordPublic, names: Sequence[str]) -> list[Change]:
    offer = new.offer
    if offer is None or offer == old.offer:
        return []
    return [Change(f"{seat_word(names, offer.sender)} offers a deal to {seat_word(names, offer.receiver)}")]
