"""Game options in plain words for the table creation form: a label, what the option does and
what each choice means, as the games' notes on the rules decide them.  The option's name stays
the form field's value; a ledger id (``SP-D-PROC-1: ...``) never reaches the player."""

from __future__ import annotations

import re

from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import game_class
from shadowtable.core.spec import OptionSpec, OptionWords

LEDGER_ID = re.compile(r"^\s*[A-Z]{2,3}(?:-[A-Z0-9]+)+:\s*")
"""A rules-ledger id opening an option's documentation (``SP-D-PROC-1: ``)."""


def words_of(game_id: str) -> dict[str, OptionWords]:
    """The options in words that ``game_id``'s manifest names (``option_words``; none: empty)."""
    reference = manifest_of(game_class(game_id)).option_words
    return {} if reference is None else dict(load(reference))


def option_words(game_id: str, option: OptionSpec) -> OptionWords:
    """``option`` of ``game_id`` in words: as the game writes them (:func:`words_of`), else its name and documentation
    without a leading ledger id; every allowed value has its words (the value, spaced, where
    none are written)."""
    found = words_of(game_id).get(option.name)
    if found is None:
        found = OptionWords(option.name.replace("_", " ").capitalize(), LEDGER_ID.sub("", option.doc))
    values = {str(value): found.choices.get(str(value), str(value).replace("_", " ")) for value in option.choices or ()}
    return OptionWords(found.label, found.description, values)
