"""Log wording and rules help.

How an action reads to each seat, naming only what that seat may know.

The seat that decides reads its own notation.  Everyone else reads it too, except where the
action handles a card that the reader cannot see (placing it under a portrait, committing it to
a Duel, bribing with it) or casts a secret vote: then the line names the kind
of action and its public part (the portrait, the target), never the card or the vote.  Chance
outcomes that only some seats see (a Power Card drawn into an Attack Hand, a stolen card) are
named to those seats alone; a roll or a disc that the rule resolving it tells in words is not told
twice.  Which case applies follows from the pending task and the action's
block, both public, so a line never depends on a hidden card.  A card discarded for Space Ships
is named: the Space Ships it gives show its value to everyone.
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.kernel import task_kind
from shadowtable.core.rules_help import quote
from shadowtable.games.shadowlord.actions import NF, decode
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.notation import action_to_str, chance_to_str
from shadowtable.games.shadowlord.rules.interjections import MAIN_TASKS
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import (
    D8Roll,
    DrawShadowShips,
    DrawToDuel,
    DrawToHand,
    Reveal,
    RollEvent,
    RollFirstPlayer,
    SeatDecision,
    StealCard,
    Vote,
)

PACKAGE = "shadowtable.games.shadowlord"
MAIN_KINDS = frozenset(task_kind(t) for t in MAIN_TASKS)
"""Pending kinds during which the free actions are legal: their rules help adds the rule on
cards under portraits."""

SECRET_CARD_WORDS = {
    "commit_portrait": "commits a Power Card from a portrait to the Duel",
    "commit_hand": "commits a Power Card from the Attack Hand to the Duel",
}
"""Decisions whose card value is hidden from the other seats, by action block."""

SECRET_TASKS: dict[type[SeatDecision], str] = {Vote: "casts a secret vote"}
"""Decisions that are secret as a whole from the other seats, by pending task."""

TOLD_BY_THE_RULE = (RollFirstPlayer, RollEvent, D8Roll, Reveal, DrawShadowShips)
"""Chance nodes whose outcome the rule that resolves it notes publicly, in words ("Special Event
roll 9: Draw 2 Power Cards", "the disc in b1 is Merchant"; a bribe's first roll with the answer):
the outcome itself is not told again."""


def event_text(ctx: Context, s: State, action: int, seat: int | None) -> str | None:
    """How ``action`` taken in ``s`` reads to ``seat`` (``None``: a spectator)."""
    top = s.stack[-1]
    if not isinstance(top, SeatDecision):
        return _chance_text(ctx, s, action, seat)
    player = top.seat
    if player == seat:
        return f"you: {action_to_str(ctx, s, action)}"
    who = f"seat {player}"
    secret = SECRET_TASKS.get(type(top))
    if secret is not None:
        return f"{who} {secret}"
    block, index = decode(action)
    names = ctx.content.fig_name
    if block == "place":
        return f"{who} places a Power Card under {names[index % NF]}"
    if block == "bribe":
        return f"{who} discards four matching Power Cards to bribe {names[index % NF]}"
    if block in SECRET_CARD_WORDS:
        return f"{who} {SECRET_CARD_WORDS[block]}"
    return f"{who}: {action_to_str(ctx, s, action)}"


def _chance_text(ctx: Context, s: State, outcome: int, seat: int | None) -> str | None:
    """A chance outcome, named only to the seats that see it; nothing where the rule's own public
    line tells it (``TOLD_BY_THE_RULE``, a card drawn into another seat's hand: its draw is told)."""
    task = s.stack[-1]
    if isinstance(task, TOLD_BY_THE_RULE):
        return None
    said = chance_to_str(ctx, s, outcome)
    if isinstance(task, DrawToHand):
        return f"you {said}" if seat == task.seat else None
    if isinstance(task, DrawToDuel) and s.battle is not None and s.battle.duel is not None:
        duellist = ctx.content.fig_name[s.battle.duel.figures[task.side]]
        return f"{duellist} draws Power Card {ctx.content.card_values[outcome]} face up for the Duel"
    if isinstance(task, StealCard):
        victim, thief = task.victim, ctx.seat_of(s.cur)
        if seat == thief:
            return f"you steal from seat {victim}: Power Card {ctx.content.card_values[outcome]}"
        if seat == victim:
            return f"seat {thief} steals your Power Card {ctx.content.card_values[outcome]}"
        return f"seat {thief} steals a Power Card from seat {victim}"
    return f"chance: {said}"


def rules_help(observation: dict[str, Any]) -> str:
    """The quoted rule for the pending decision (``observation["pending"]``); during the
    current player's main decisions, the rule on cards under portraits too."""
    pending = observation.get("pending") or {}
    rule = str(pending.get("rule") or "")
    if not rule:
        return ""
    parts = [quote(PACKAGE, rule)]
    if pending.get("kind") in MAIN_KINDS:
        parts.append(quote(PACKAGE, "cards"))
    return "\n\n".join(parts)
