"""Game options from ``--option key=value`` (values read by :mod:`shadowtable.core.keyvalue`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shadowtable.cli.checks import read_json_file
from shadowtable.core.keyvalue import parse_pairs


def game_options(pairs: Iterable[str] | None) -> dict[str, Any]:
    """``["key=value", ...]`` to the game's options; a ``content=FILE.json`` must be readable JSON.

    A pair without ``=`` raises :class:`~shadowtable.core.errors.InvalidOptionError`."""
    options = parse_pairs(pairs or [], what="--option")
    content = options.get("content")
    if isinstance(content, str) and content.endswith(".json") and os.path.isfile(content):
        read_json_file(Path(content), "--option content=")
    return options
