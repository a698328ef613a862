"""The fixed, enumerable action space: id blocks and their decoding.

Blocks (offsets below): ``done`` and ``yes``; choose a figure / galaxy / seat (their meaning
depends on the pending decision); move a figure one galaxy in a direction; drop, pick up, search,
pass the Power Stone; place a card under a portrait; bribe; discard a card for ships; commit a
duel card from a portrait or the Attack Hand; send an ally to either side; propose a Truce;
Power Blast choices; and the negotiation blocks (offer to a seat, give/want cards, a character,
release a captive, permission, Truce, send).
"""

from __future__ import annotations

from shadowtable.games.shadowlord.content import CARD_VALUES, MAX_FIGURES, MAX_GALAXIES

NF, NG, NV = MAX_FIGURES, MAX_GALAXIES, CARD_VALUES
DIRS = ("n", "e", "s", "w")

DONE = 0
YES = 1
FIG0 = 2
GAL0 = FIG0 + NF
SEAT0 = GAL0 + NG
MOVE0 = SEAT0 + 4
DROP0 = MOVE0 + NF * 4
PICK0 = DROP0 + NF
SEARCH0 = PICK0 + NF
STONE0 = SEARCH0 + NF
PLACE0 = STONE0 + NF
BRIBE0 = PLACE0 + NV * NF
BUY0 = BRIBE0 + NV * NF
COMMIT_P0 = BUY0 + NV
COMMIT_H0 = COMMIT_P0 + NV
ALLY_A0 = COMMIT_H0 + NV
ALLY_D0 = ALLY_A0 + NF
TRUCE0 = ALLY_D0 + NF
BLAST_CARD = TRUCE0 + NG
BLAST_SHIPS = BLAST_CARD + 1
OFFER_TO0 = BLAST_SHIPS + 1
OGIVE0 = OFFER_TO0 + 4
OWANT0 = OGIVE0 + NV
OCHAR0 = OWANT0 + NV
ORELEASE0 = OCHAR0 + NF
OPERM_GIVE = ORELEASE0 + NF
OPERM_WANT = OPERM_GIVE + 1
OTRUCE0 = OPERM_WANT + 1
OSEND = OTRUCE0 + NG
OSHIP0 = OSEND + 1
REVOKE_T0 = OSHIP0 + NF
REVOKE_P0 = REVOKE_T0 + NG
NUM_ACTIONS = REVOKE_P0 + 4

BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("done", DONE, 1),
    ("yes", YES, 1),
    ("fig", FIG0, NF),
    ("gal", GAL0, NG),
    ("seat", SEAT0, 4),
    ("move", MOVE0, NF * 4),
    ("drop", DROP0, NF),
    ("pick", PICK0, NF),
    ("search", SEARCH0, NF),
    ("stone", STONE0, NF),
    ("place", PLACE0, NV * NF),
    ("bribe", BRIBE0, NV * NF),
    ("buy", BUY0, NV),
    ("commit_p", COMMIT_P0, NV),
    ("commit_h", COMMIT_H0, NV),
    ("ally_a", ALLY_A0, NF),
    ("ally_d", ALLY_D0, NF),
    ("truce", TRUCE0, NG),
    ("blast_card", BLAST_CARD, 1),
    ("blast_ships", BLAST_SHIPS, 1),
    ("offer_to", OFFER_TO0, 4),
    ("ogive", OGIVE0, NV),
    ("owant", OWANT0, NV),
    ("ochar", OCHAR0, NF),
    ("orelease", ORELEASE0, NF),
    ("operm_give", OPERM_GIVE, 1),
    ("operm_want", OPERM_WANT, 1),
    ("otruce", OTRUCE0, NG),
    ("osend", OSEND, 1),
    ("oship", OSHIP0, NF),
    ("revoke_truce", REVOKE_T0, NG),
    ("revoke_perm", REVOKE_P0, 4),
)


def _decode_slowly(action: int) -> tuple[str, int] | None:
    for name, start, size in reversed(BLOCKS):
        if action >= start:
            return (name, action - start) if action < start + size else None
    return None


DECODED: tuple[tuple[str, int] | None, ...] = tuple(_decode_slowly(action) for action in range(NUM_ACTIONS))
"""Every action id's ``(block name, index within the block)`` (``None``: no action)."""


def decode(action: int) -> tuple[str, int]:
    """``(block name, index within the block)`` of an action id."""
    decoded = DECODED[action] if 0 <= action < NUM_ACTIONS else None
    if decoded is None:
        raise ValueError(f"action {action} outside the action space")
    return decoded


def place_id(value_index: int, fig: int) -> int:
    return PLACE0 + value_index * NF + fig


def bribe_id(value_index: int, fig: int) -> int:
    return BRIBE0 + value_index * NF + fig
