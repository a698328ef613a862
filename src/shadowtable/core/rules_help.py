"""Rulebook quotes for the decision a player faces, kept as data beside each game."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_rules_help(package: str) -> dict[str, Any]:
    """``data/rules_help.json`` of a game package: ``rules`` (key -> section and quote) and
    ``modes`` (decision kind -> rule key)."""
    text = resources.files(package).joinpath("data/rules_help.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def quote(package: str, key: str) -> str:
    """The rule ``key`` as its section heading, a blank line, and the quoted text."""
    rule = load_rules_help(package)["rules"][key]
    return f"{rule['section']}\n\n{rule['quote']}"
