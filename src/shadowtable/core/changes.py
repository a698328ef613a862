"""What changed between two views of one reader, in words: the "since your last decision" summary.

A game's ``changes`` module compares two of its typed observations of the same seat (what the
seat saw when it last decided, and what it sees now) and says what moved. It reads nothing else
but the game's printed material and the seat names, so it can only repeat what the seat knows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """One difference, in words, and the board elements it concerns (CSS selectors, for a
    highlight; empty: none)."""

    text: str
    marks: tuple[str, ...] = ()


def seat_word(names: Sequence[str], seat: int) -> str:
    """The name of ``seat`` (``seat N`` where the names do not reach it)."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def moved(before: int, after: int, what: str, mark: str = "") -> list[Change]:
    """``what before -> after`` when the number changed (nothing otherwise)."""
    if before == after:
        return []
    return [Change(f"{what} {before} -> {after}", (mark,) if mark else ())]
