"""The fixed action space: id ranges for every kind of decision, and their notation.

Ids are stable across states; what an id means is the same everywhere (e.g. ``PLAY + card``
plays that card).  Chance outcomes are separate: a card id, an Objective id, a Character id or
a seat, depending on the chance node (see docs/games/shadow-planet.md).
"""

from __future__ import annotations

NUM_CARDS_MAX = 121

PICK = 0  # +Character: take it in the draft
PLAY = 6  # +card: play it from hand
CHOOSE = PLAY + NUM_CARDS_MAX  # +card: choose it (swap, remove, Temple)
PLACE = CHOOSE + NUM_CARDS_MAX  # +card: put it next (from the top) when reordering a search
DISCARD = PLACE + NUM_CARDS_MAX  # +card: discard it face down to the Messages pile
DONE = DISCARD + NUM_CARDS_MAX  # end the current step / stop moving
GOTO = DONE + 1  # +Location: move along a Link (or choose a Vehicle destination)
ENTER = GOTO + 4  # +Section: move into it
DRIVE = ENTER + 7  # +vehicle*4+Location: drive a Vehicle towards that destination
RIDE = DRIVE + 8  # accept a ride
STAY = RIDE + 1  # refuse a ride
CANCEL = STAY + 1  # +Character: Jenna cancels its ability
SEAT = CANCEL + 6  # +seat: choose another player
COLOUR = SEAT + 5  # +colour: take a Marker of that colour from the pool
USE = COLOUR + 5  # use an optional ability
SKIP = USE + 1  # decline an optional ability
RESOLVE = SKIP + 1  # +reveal index: apply the Section effect by revealing its cost
LEAVE = RESOLVE + 2  # do not apply the Section effect
ADVANCE = LEAVE + 1  # advance the Countdown Indicator
MOVE_BACK = ADVANCE + 1  # move the Countdown Indicator back
DECK = MOVE_BACK + 1  # +Location: take the top card of its deck
IDENTITY = DECK + 4  # +Character: choose this identity on a tie
NUM_ACTIONS = IDENTITY + 6

BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("pick", PICK, 6),
    ("play", PLAY, NUM_CARDS_MAX),
    ("choose", CHOOSE, NUM_CARDS_MAX),
    ("place", PLACE, NUM_CARDS_MAX),
    ("discard", DISCARD, NUM_CARDS_MAX),
    ("done", DONE, 1),
    ("goto", GOTO, 4),
    ("enter", ENTER, 7),
    ("drive", DRIVE, 8),
    ("ride", RIDE, 1),
    ("stay", STAY, 1),
    ("cancel", CANCEL, 6),
    ("seat", SEAT, 5),
    ("colour", COLOUR, 5),
    ("use", USE, 1),
    ("skip", SKIP, 1),
    ("resolve", RESOLVE, 2),
    ("leave", LEAVE, 1),
    ("advance", ADVANCE, 1),
    ("move_back", MOVE_BACK, 1),
    ("deck", DECK, 4),
    ("identity", IDENTITY, 6),
)
"""Every block of action ids: ``(name, first id, size)``, in order (the same form as Shadowlord!'s)."""
