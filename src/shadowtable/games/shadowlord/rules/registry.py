"""Task registry: every pending piece of work on the state's stack is a small tuple whose first
element names its kind.  Automatic tasks run at once; decision tasks wait for a seat (``task[1]``);
chance tasks wait for the runner to pick an outcome.
"""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import SLState, Task

AutoFn = Callable[[Context, SLState, Task], None]
LegalFn = Callable[[Context, SLState, Task], list[int]]
ApplyFn = Callable[[Context, SLState, Task, int], None]
OutcomesFn = Callable[[Context, SLState, Task], list[tuple[int, float]]]

AUTO: dict[str, AutoFn] = {}
DECISION: dict[str, tuple[LegalFn, ApplyFn]] = {}
CHANCE: dict[str, tuple[OutcomesFn, ApplyFn]] = {}
MAIN_KINDS = {"event", "build", "move", "shadow_move"}
"""Decisions of the current player during which free actions (cards under portraits, Bribery)
may be taken."""
NO_OFFER_KINDS = {"offer_build", "offer_reply", "vote", "commit", "storm_discard", "portrait_cards"}
"""Decisions during which no negotiation offer may be started (``portrait_cards``, after the
last Battle, only places cards under portraits)."""


def auto(kind: str) -> Callable[[AutoFn], AutoFn]:
    def register(fn: AutoFn) -> AutoFn:
        AUTO[kind] = fn
        return fn

    return register


def decision(kind: str, legal: LegalFn) -> Callable[[ApplyFn], ApplyFn]:
    def register(fn: ApplyFn) -> ApplyFn:
        DECISION[kind] = (legal, fn)
        return fn

    return register


def chance(kind: str, outcomes: OutcomesFn) -> Callable[[ApplyFn], ApplyFn]:
    def register(fn: ApplyFn) -> ApplyFn:
        CHANCE[kind] = (outcomes, fn)
        return fn

    return register


def log(s: SLState, text: str, keep: int = 12) -> None:
    """Append a public log line (never hidden values)."""
    s.log.append(text)
    if len(s.log) > keep:
        del s.log[: len(s.log) - keep]
