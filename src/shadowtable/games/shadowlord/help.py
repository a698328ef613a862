"""The rule that applies to the pending decision, quoted from the rulebook (``data/rules_help.json``)."""

from __future__ import annotations

from typing import Any

from shadowtable.core.rules_help import help_for, quote
from shadowtable.games.shadowlord.rules.registry import MAIN_KINDS

PACKAGE = "shadowtable.games.shadowlord"


def rules_help(observation: dict[str, Any]) -> str:
    """The quoted rule for the decision on top of the observation's task stack."""
    stack = (observation.get("public") or {}).get("stack") or []
    if not stack:
        return ""
    kind = str(stack[-1][0])
    parts = [help_for(PACKAGE, kind)]
    if kind in MAIN_KINDS:
        parts.append(quote(PACKAGE, "cards"))
    return "\n\n".join(part for part in parts if part)
