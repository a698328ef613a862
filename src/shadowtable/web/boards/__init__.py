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

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardHtml:
    """The game-specific parts of the table page.

    ``board``: the SVG board with its legend; ``panel``: the seat's own material and the state of
    the current step (hand, Objective, draft, offers, battle, vote, the end-of-game reveal);
    ``goal``: how this seat's role wins, in one or two sentences (empty for a spectator)."""

    board: str
    panel: str
    goal: str
