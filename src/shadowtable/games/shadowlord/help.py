"""The rule that applies to the pending decision, quoted from the rulebook (``data/rules_help.json``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from shadowtable.games.shadowlord.rules.registry import MAIN_KINDS


@cache
def rules_help_data() -> dict[str, Any]:
    """The rulebook quotes by decision kind."""
    text = resources.files("shadowtable.games.shadowlord").joinpath("data/rules_help.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _quote(key: str) -> str:
    rule = rules_help_data()["rules"][key]
    return f"{rule['section']}\n\n{rule['quote']}"


def rules_help(observation: dict[str, Any]) -> str:
    """The quoted rule for the decision on top of the observation's task stack."""
    stack = (observation.get("public") or {}).get("stack") or []
    if not stack:
        return ""
    kind = str(stack[-1][0])
    key = rules_help_data()["modes"].get(kind)
    parts = [_quote(key)] if key else []
    if kind in MAIN_KINDS:
        parts.append(_quote("cards"))
    return "\n\n".join(parts)
