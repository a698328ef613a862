"""Each game's board for the browser: HTML (with an SVG board) built only from what a seat is sent.

A board module exposes ``render_board(game, message) -> BoardHtml`` where ``message`` is the
``view`` message the seat receives (``obs``, ``legal``, ``groups``, ``pending``, ``events``, ...):
nothing else, so the page can never show more than the seat's own message holds.

Conventions shared by both games:

- an element the player can click to take a legal action carries ``data-act="<action id>"``,
  ``role="button"``, ``tabindex="0"`` and an ``aria-label`` with the action in words;
- the SVG board has ``role="img"`` and a text alternative (``<title>`` and ``<desc>``) that says
  in words what the board shows;
- colour is never the only cue: every colour also carries a name, a letter or a pattern.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shadowtable.core.table import Choice, ChoiceGroup, Decision, Told


@dataclass(frozen=True)
class BoardHtml:
    """The game-specific parts of the table page.

    ``board``: the SVG board with its legend; ``panel``: the seat's own material and the state of
    the current step (hand, Objective, draft, offers, battle, vote, the end-of-game reveal);
    ``goal``: how this seat's role wins, in one or two sentences (empty for a spectator)."""

    board: str
    panel: str
    goal: str


@dataclass(frozen=True)
class SeatMessage:
    """A ``view`` message read into the seat view's types (its ``obs`` stays the game's JSON:
    a board reads it as the game's typed observation).

    ``choices``, ``groups`` and ``turn`` are ``None`` unless the reader decides; ``groups``
    falls back to one group per choice where the message has none; ``names`` are the seat
    names of its ``presence``."""

    obs: dict[str, Any]
    decision: Decision | None
    choices: tuple[Choice, ...] | None
    groups: tuple[ChoiceGroup, ...]
    turn: int | None
    after: int
    events: tuple[Told, ...]
    names: Mapping[int, str]

    @classmethod
    def from_json(cls, message: Mapping[str, Any]) -> SeatMessage:
        legal = message.get("legal")
        choices = None if legal is None else tuple(Choice(int(a), str(w)) for a, w in legal)
        return cls(
            obs=message["obs"],
            decision=Decision.from_pending(message.get("pending") or None),
            choices=choices,
            groups=_groups(choices or (), message.get("groups") or []),
            turn=message.get("turn"),
            after=message.get("after") or 0,
            events=tuple(_told(event) for event in message.get("events") or []),
            names=_names(message.get("presence") or []),
        )

    @property
    def legal(self) -> dict[int, str]:
        """The legal actions in words, by id (empty unless the reader decides)."""
        return {choice.action: choice.text for choice in self.choices or ()}


def _groups(choices: tuple[Choice, ...], groups: list[dict[str, Any]]) -> tuple[ChoiceGroup, ...]:
    """The message's groups of legal choices (those it names), or one group per choice."""
    if not groups:
        return tuple(ChoiceGroup(choice.text, (choice,)) for choice in choices)
    by_id = {choice.action: choice for choice in choices}
    return tuple(
        ChoiceGroup(group["label"], tuple(by_id[a] for a in group["actions"] if a in by_id)) for group in groups
    )


def _told(event: Mapping[str, Any]) -> Told:
    return Told(str(event.get("kind", "")), str(event.get("text", "")), str(event.get("rule") or ""))


def _names(presence: list[Any]) -> dict[int, str]:
    return {
        p["seat"]: str(p["name"])
        for p in presence
        if isinstance(p, dict) and isinstance(p.get("seat"), int) and p.get("name")
    }
