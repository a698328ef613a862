"""Shadowlord!'s decisions sorted into kinds by action block (the designer's lab's restricted play).

Blocks the table page groups keep its words (:data:`notation.GROUP_LABELS`); the blocks whose
words depend on the step (a character, a galaxy, a seat, done, yes) get words that fit every step.
Shadowlord! names no roles: the lab restricts seats by number.
"""

from __future__ import annotations

from shadowtable.core.action_kinds import ActionKinds
from shadowtable.games.shadowlord.actions import BLOCKS, NUM_ACTIONS
from shadowtable.games.shadowlord.notation import GROUP_LABELS

STEP_BLOCK_WORDS = {
    "done": "end, decline or refuse (done)",
    "yes": "accept (yes)",
    "figure": "choose a character",
    "galaxy": "choose a galaxy",
    "seat": "choose a seat",
    "move": "move a character",
    "blast_card": "blast: lose a Power Card",
    "blast_ships": "blast: lose Space Ships",
    "offer_permission_give": "offer: give a permission",
    "offer_permission_want": "offer: ask for a permission",
    "offer_send": "send the offer",
}
"""Words for the blocks the table page does not group under one label."""


def block_words(name: str) -> str:
    """The kind of every action of block ``name``."""
    return GROUP_LABELS.get(name) or STEP_BLOCK_WORDS.get(name) or name.replace("_", " ")


ACTION_KINDS = ActionKinds(
    ranges=tuple((start, start + size, block_words(name)) for name, start, size in BLOCKS), size=NUM_ACTIONS
)
