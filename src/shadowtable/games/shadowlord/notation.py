"""Readable, unique notation for every action in its context, and its inverse.

Names are stable: figures by their printed names ("Red Warrior", "Merchant M2", "Shadow 3"),
galaxies by chess-like coordinates ("c3" is the Lost Fortress), cards by value.
"""

from __future__ import annotations

from shadowtable.core.game import normalise_notation
from shadowtable.core.kernel import Task
from shadowtable.games.shadowlord.actions import DIRS, NF, NUM_ACTIONS, decode
from shadowtable.games.shadowlord.content import EVENT_NAMES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import State
from shadowtable.games.shadowlord.tasks import (
    AnswerOffer,
    AnswerTruce,
    Build,
    BuildOffer,
    CallOwnCharacter,
    ChallengeLooseShips,
    ChanceNode,
    ChooseEventTarget,
    ChooseNextBattle,
    Commit,
    D8Roll,
    DiscardStormShip,
    Dismiss,
    Draw,
    Enlist,
    Face,
    GiveDismissed,
    GiveStone,
    Move,
    MoveShadow,
    PlaceAttacker,
    PlaceCharacter,
    PlaceDefender,
    PlacePortraitCards,
    PlaceShadow,
    PlaceStartingShip,
    PlaceTraded,
    ProposeTruce,
    Reveal,
    RollEvent,
    RollFirstPlayer,
    SendAlly,
    ShiftFrom,
    ShiftTo,
    StealCard,
    Surrender,
    Teleport,
    Vote,
    Want,
)

FIG_VERBS: dict[type[Task], str] = {
    PlaceStartingShip: "ship to",
    Build: "ship to",
    ChooseEventTarget: "target",
    DiscardStormShip: "lose ship of",
    Dismiss: "dismiss",
    CallOwnCharacter: "call in",
    PlaceAttacker: "attack with",
    PlaceDefender: "defend with",
    Face: "face",
    GiveStone: "stone to",
    ShiftFrom: "shift ship from",
    ShiftTo: "shift ship to",
}
GAL_VERBS: dict[type[Task], str] = {
    Build: "loose ship in",
    ChooseEventTarget: "discover in",
    DiscardStormShip: "lose loose ship in",
    PlaceShadow: "place shadow in",
    PlaceTraded: "put traded character in",
    PlaceCharacter: "place in",
    ChooseNextBattle: "fight in",
}
SEAT_VERBS: dict[type[Task], str] = {
    ChooseEventTarget: "target seat",
    Enlist: "give to seat",
    GiveDismissed: "dismiss to seat",
}
DONE_WORDS: dict[type[Task], str] = {
    Build: "end building",
    Move: "end movement",
    MoveShadow: "no shadow move",
    ChooseEventTarget: "skip event",
    Vote: "vote no",
    Enlist: "remove from game",
    Want: "decline",
    ProposeTruce: "fight",
    AnswerTruce: "refuse truce",
    ChallengeLooseShips: "ignore loose ships",
    CallOwnCharacter: "call nobody",
    SendAlly: "send nobody",
    Commit: "commit no more cards",
    Teleport: "stay",
    BuildOffer: "withdraw offer",
    AnswerOffer: "refuse offer",
    ShiftFrom: "stop shifting",
    Surrender: "play on",
    PlacePortraitCards: "end turn",
}
YES_WORDS: dict[type[Task], str] = {
    Vote: "vote yes",
    Enlist: "enlist",
    Want: "take character",
    AnswerTruce: "accept truce",
    ChallengeLooseShips: "challenge loose ships",
    Teleport: "teleport home",
    AnswerOffer: "accept offer",
    Surrender: "surrender",
}


def chance_to_str(ctx: Context, s: State, action: int) -> str:
    """Notation of a chance outcome at the chance node on top of the stack."""
    task = s.stack[-1] if s.stack else None
    values = ctx.content.card_values
    if isinstance(task, Draw) and 0 <= action < len(values):
        return f"draw Power Card: {values[action]}"
    if isinstance(task, StealCard) and 0 <= action < len(values):
        return f"steal Power Card: {values[action]}"
    if isinstance(task, D8Roll):
        return f"roll d8 ({task.purpose}): {action}"
    if isinstance(task, RollEvent):
        name = EVENT_NAMES[ctx.content.events[action]] if 2 <= action <= 16 else "?"
        return f"roll 2d8: {action} ({name})"
    if isinstance(task, Reveal) and 0 <= action < len(ctx.content.disc_names):
        return f"reveal disc: {ctx.content.disc_names[action]}"
    if isinstance(task, RollFirstPlayer):
        return f"first player: seat {action}"
    return f"outcome {action}"


def is_chance(s: State) -> bool:
    """A chance node is on top of the stack."""
    return bool(s.stack) and isinstance(s.stack[-1], ChanceNode)


FIGURE_BLOCK_WORDS = {
    "drop": "drop ship from",
    "pick": "pick up ship to",
    "search": "search with",
    "stone": "pass stone to",
    "ally_attacker": "send to attacker",
    "ally_defender": "send to defender",
    "offer_character": "offer trade of",
    "offer_release": "offer release of",
    "offer_ship": "offer a ship from",
}
"""Blocks whose actions name one figure, whatever the task."""
CARD_BLOCK_WORDS = {
    "commit_portrait": "commit portrait card",
    "commit_hand": "commit hand card",
    "offer_give": "offer to give card",
    "offer_want": "offer to want card",
}
"""Blocks whose actions name one card value."""
GALAXY_BLOCK_WORDS = {
    "truce": "propose truce in",
    "offer_truce": "offer truce in",
    "revoke_truce": "revoke truce in",
}
"""Blocks whose actions name one galaxy, whatever the task."""
SEAT_BLOCK_WORDS = {"revoke_permission": "revoke permission of seat", "offer_to": "make offer to seat"}
"""Blocks whose actions name one seat, whatever the task."""
FIXED_BLOCK_WORDS = {
    "blast_card": "blast: extra card",
    "blast_ships": "blast: destroy ships",
    "offer_permission_give": "offer permission",
    "offer_permission_want": "ask permission",
    "offer_send": "send offer",
}
"""Blocks of one action each."""


def action_to_str(ctx: Context, s: State, action: int) -> str:
    """Notation of ``action`` in ``s`` (any id of the action space, legal or not)."""
    if is_chance(s):
        return chance_to_str(ctx, s, action)
    kind = type(s.stack[-1]) if s.stack else Task
    block, i = decode(action)
    words = _task_words(ctx, kind, block, i)
    return words if words is not None else _block_words(ctx, block, i)


def _task_words(ctx: Context, kind: type[Task], block: str, i: int) -> str | None:
    """The notation of an action whose words depend on the task on top (``None``: they do not)."""
    c = ctx.content
    if block == "done":
        return DONE_WORDS.get(kind, "done")
    if block == "yes":
        return YES_WORDS.get(kind, "yes")
    if block == "figure":
        return f"{FIG_VERBS.get(kind, 'choose')} {c.fig_name[i]}"
    if block == "galaxy":
        return f"{GAL_VERBS.get(kind, 'choose')} {c.galaxy_name(i)}"
    if block == "seat":
        return f"{SEAT_VERBS.get(kind, 'seat')} {i}"
    return None


def _block_words(ctx: Context, block: str, i: int) -> str:
    """The notation of action ``i`` of ``block``, the same in every task."""
    c = ctx.content
    names, vals = c.fig_name, c.card_values
    if block == "move":
        f, d = divmod(i, 4)
        return f"move {names[f]} {DIRS[d]}"
    if block in FIGURE_BLOCK_WORDS:
        return f"{FIGURE_BLOCK_WORDS[block]} {names[i]}"
    if block in ("place", "bribe"):
        v, f = divmod(i, NF)
        if block == "place":
            return f"place card {vals[v]} under {names[f]}"
        return f"bribe {names[f]} with four {vals[v]}s"
    if block == "buy":
        return f"discard card {vals[i]} for {vals[i]} Space Ships"
    if block in CARD_BLOCK_WORDS:
        return f"{CARD_BLOCK_WORDS[block]} {vals[i]}"
    if block in GALAXY_BLOCK_WORDS:
        return f"{GALAXY_BLOCK_WORDS[block]} {c.galaxy_name(i)}"
    if block in SEAT_BLOCK_WORDS:
        return f"{SEAT_BLOCK_WORDS[block]} {i}"
    return FIXED_BLOCK_WORDS[block]


def action_from_str(ctx: Context, s: State, text: str) -> int | None:
    """The action id whose notation (in this context) is ``text``, legal or not; else ``None``."""
    wanted = normalise_notation(text)
    if is_chance(s):
        for o in range(17):
            if normalise_notation(chance_to_str(ctx, s, o)) == wanted:
                return o
        return None
    for a in range(NUM_ACTIONS):
        if normalise_notation(action_to_str(ctx, s, a)) == wanted:
            return a
    return None


GROUP_LABELS = {
    "place": "place a Power Card under a portrait",
    "bribe": "bribe a character with four matching Power Cards",
    "drop": "drop a Space Ship from a character",
    "pick": "pick up a Space Ship to a character",
    "search": "search for allies with a character",
    "stone": "pass the Power Stone",
    "buy": "discard a Power Card for Space Ships",
    "commit_portrait": "commit a Power Card from the portrait",
    "commit_hand": "commit a Power Card from the Attack Hand",
    "ally_attacker": "send an ally to the attacker",
    "ally_defender": "send an ally to the defender",
    "truce": "propose a Truce",
    "offer_to": "make an offer to a player",
    "offer_give": "offer: give a Power Card",
    "offer_want": "offer: ask for a Power Card",
    "offer_character": "offer: trade a character",
    "offer_release": "offer: release a captive",
    "offer_ship": "offer: a Space Ship from a character",
    "offer_truce": "offer: a Truce",
    "revoke_truce": "revoke a Truce",
    "revoke_permission": "revoke a permission",
}
"""The group of each action block whose actions differ only in a detail (a card, a figure...)."""


def action_group(ctx: Context, s: State, action: int) -> str | None:
    """The label of the choice ``action`` belongs to (see :meth:`Game.action_group`)."""
    if is_chance(s):
        return None
    kind = type(s.stack[-1]) if s.stack else Task
    block, i = decode(action)
    if block == "move":
        return f"move {ctx.content.fig_name[i // 4]}"
    if block == "figure":
        return f"{FIG_VERBS.get(kind, 'choose')} a character"
    if block == "galaxy":
        return f"{GAL_VERBS.get(kind, 'choose')} a galaxy"
    if block == "seat":
        return f"{SEAT_VERBS.get(kind, 'seat')} ..."
    return GROUP_LABELS.get(block)
