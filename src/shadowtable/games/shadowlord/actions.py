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
FIGURE0 = 2
GALAXY0 = FIGURE0 + NF
SEAT0 = GALAXY0 + NG
MOVE0 = SEAT0 + 4
DROP0 = MOVE0 + NF * 4
PICK0 = DROP0 + NF
SEARCH0 = PICK0 + NF
STONE0 = SEARCH0 + NF
PLACE0 = STONE0 + NF
BRIBE0 = PLACE0 + NV * NF
BUY0 = BRIBE0 + NV * NF
COMMIT_PORTRAIT0 = BUY0 + NV
COMMIT_HAND0 = COMMIT_PORTRAIT0 + NV
ALLY_ATTACKER0 = COMMIT_HAND0 + NV
ALLY_DEFENDER0 = ALLY_ATTACKER0 + NF
TRUCE0 = ALLY_DEFENDER0 + NF
BLAST_CARD = TRUCE0 + NG
BLAST_SHIPS = BLAST_CARD + 1
OFFER_TO0 = BLAST_SHIPS + 1
OFFER_GIVE0 = OFFER_TO0 + 4
OFFER_WANT0 = OFFER_GIVE0 + NV
OFFER_CHARACTER0 = OFFER_WANT0 + NV
OFFER_RELEASE0 = OFFER_CHARACTER0 + NF
OFFER_PERMISSION_GIVE = OFFER_RELEASE0 + NF
OFFER_PERMISSION_WANT = OFFER_PERMISSION_GIVE + 1
OFFER_TRUCE0 = OFFER_PERMISSION_WANT + 1
OFFER_SEND = OFFER_TRUCE0 + NG
OFFER_SHIP0 = OFFER_SEND + 1
REVOKE_TRUCE0 = OFFER_SHIP0 + NF
REVOKE_PERMISSION0 = REVOKE_TRUCE0 + NG
NUM_ACTIONS = REVOKE_PERMISSION0 + 4

BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("done", DONE, 1),
    ("yes", YES, 1),
    ("figure", FIGURE0, NF),
    ("galaxy", GALAXY0, NG),
    ("seat", SEAT0, 4),
    ("move", MOVE0, NF * 4),
    ("drop", DROP0, NF),
    ("pick", PICK0, NF),
    ("search", SEARCH0, NF),
    ("stone", STONE0, NF),
    ("place", PLACE0, NV * NF),
    ("bribe", BRIBE0, NV * NF),
    ("buy", BUY0, NV),
    ("commit_portrait", COMMIT_PORTRAIT0, NV),
    ("commit_hand", COMMIT_HAND0, NV),
    ("ally_attacker", ALLY_ATTACKER0, NF),
    ("ally_defender", ALLY_DEFENDER0, NF),
    ("truce", TRUCE0, NG),
    ("blast_card", BLAST_CARD, 1),
    ("blast_ships", BLAST_SHIPS, 1),
    ("offer_to", OFFER_TO0, 4),
    ("offer_give", OFFER_GIVE0, NV),
    ("offer_want", OFFER_WANT0, NV),
    ("offer_character", OFFER_CHARACTER0, NF),
    ("offer_release", OFFER_RELEASE0, NF),
    ("offer_permission_give", OFFER_PERMISSION_GIVE, 1),
    ("offer_permission_want", OFFER_PERMISSION_WANT, 1),
    ("offer_truce", OFFER_TRUCE0, NG),
    ("offer_send", OFFER_SEND, 1),
    ("offer_ship", OFFER_SHIP0, NF),
    ("revoke_truce", REVOKE_TRUCE0, NG),
    ("revoke_permission", REVOKE_PERMISSION0, 4),
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
