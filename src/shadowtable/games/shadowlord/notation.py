"""Readable, unique notation for every action in its context, and its inverse.

Names are stable: figures by their printed names ("Red Warrior", "Merchant M2", "Shadow 3"),
galaxies by chess-like coordinates ("c3" is the Lost Fortress), cards by value.
"""

from __future__ import annotations

from shadowtable.games.shadowlord.actions import DIRS, NF, NUM_ACTIONS, decode
from shadowtable.games.shadowlord.content import EVENTS
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.registry import CHANCE
from shadowtable.games.shadowlord.state import SLState

FIG_VERBS = {
    "setup_ship": "ship to",
    "build": "ship to",
    "event": "target",
    "storm_discard": "lose ship of",
    "dismiss": "dismiss",
    "call_own": "call in",
    "place_a": "attack with",
    "place_d": "defend with",
    "face": "face",
    "give_stone": "stone to",
    "shift_from": "shift ship from",
    "shift_to": "shift ship to",
}
GAL_VERBS = {
    "build": "loose ship in",
    "event": "discover in",
    "storm_discard": "lose loose ship in",
    "place_shadow": "place shadow in",
    "place_traded": "put traded character in",
    "place_char": "place in",
    "fight_order": "fight in",
}
DONE_WORDS = {
    "build": "end building",
    "move": "end movement",
    "shadow_move": "no shadow move",
    "event": "skip event",
    "vote": "vote no",
    "enlist": "remove from game",
    "want": "decline",
    "truce_q": "fight",
    "truce_a": "refuse truce",
    "challenge_q": "ignore loose ships",
    "call_own": "call nobody",
    "send_ally": "send nobody",
    "commit": "commit done",
    "teleport": "stay",
    "offer_build": "withdraw offer",
    "offer_reply": "refuse offer",
    "shift_from": "stop shifting",
    "surrender": "play on",
    "portrait_cards": "end turn",
}
YES_WORDS = {
    "vote": "vote yes",
    "enlist": "enlist",
    "want": "take character",
    "truce_a": "accept truce",
    "challenge_q": "challenge loose ships",
    "teleport": "teleport home",
    "offer_reply": "accept offer",
    "surrender": "surrender",
}


def chance_to_str(ctx: Context, s: SLState, action: int) -> str:
    kind = s.stack[-1][0] if s.stack else ""
    task = s.stack[-1] if s.stack else ("",)
    values = ctx.content.card_values
    if kind == "draw" and 0 <= action < len(values):
        return f"draw Power Card: {values[action]}"
    if kind == "steal" and 0 <= action < len(values):
        return f"steal Power Card: {values[action]}"
    if kind == "d8":
        return f"roll d8 ({task[1]}): {action}"
    if kind == "event_roll":
        name = EVENTS[ctx.content.events[action]] if 2 <= action <= 16 else "?"
        return f"roll 2d8: {action} ({name})"
    if kind == "reveal" and 0 <= action < len(ctx.content.disc_names):
        return f"reveal disc: {ctx.content.disc_names[action]}"
    if kind == "first":
        return f"first player: seat {action}"
    return f"outcome {action}"


def action_to_str(ctx: Context, s: SLState, action: int) -> str:
    """Notation of ``action`` in ``s`` (any id of the action space, legal or not)."""
    if s.stack and s.stack[-1][0] in CHANCE:
        return chance_to_str(ctx, s, action)
    kind = s.stack[-1][0] if s.stack else ""
    block, i = decode(action)
    c = ctx.content
    names = c.fig_name
    vals = c.card_values
    if block == "done":
        return DONE_WORDS.get(kind, "done")
    if block == "yes":
        return YES_WORDS.get(kind, "yes")
    if block == "fig":
        return f"{FIG_VERBS.get(kind, 'choose')} {names[i]}"
    if block == "gal":
        return f"{GAL_VERBS.get(kind, 'choose')} {c.galaxy_name(i)}"
    if block == "seat":
        return {"event": "target seat", "enlist": "give to seat", "dismiss_to": "dismiss to seat"}.get(
            kind, "seat"
        ) + f" {i}"
    if block == "move":
        f, d = divmod(i, 4)
        return f"move {names[f]} {DIRS[d]}"
    simple_fig = {
        "drop": "drop ship from",
        "pick": "pick up ship to",
        "search": "search with",
        "stone": "pass stone to",
        "ally_a": "send to attacker",
        "ally_d": "send to defender",
        "ochar": "offer trade of",
        "orelease": "offer release of",
        "oship": "offer a ship from",
    }
    if block in simple_fig:
        return f"{simple_fig[block]} {names[i]}"
    if block in ("place", "bribe"):
        v, f = divmod(i, NF)
        if block == "place":
            return f"place card {vals[v]} under {names[f]}"
        return f"bribe {names[f]} with four {vals[v]}s"
    value_blocks = {
        "buy": "discard for ships",
        "commit_p": "commit portrait card",
        "commit_h": "commit hand card",
        "ogive": "offer to give card",
        "owant": "offer to want card",
    }
    if block in value_blocks:
        return f"{value_blocks[block]} {vals[i]}"
    if block == "truce":
        return f"propose truce in {c.galaxy_name(i)}"
    if block == "otruce":
        return f"offer truce in {c.galaxy_name(i)}"
    if block == "revoke_truce":
        return f"revoke truce in {c.galaxy_name(i)}"
    if block == "revoke_perm":
        return f"revoke permission of seat {i}"
    if block == "offer_to":
        return f"make offer to seat {i}"
    return {
        "blast_card": "blast: extra card",
        "blast_ships": "blast: destroy ships",
        "operm_give": "offer permission",
        "operm_want": "ask permission",
        "osend": "send offer",
    }[block]


def normal(text: str) -> str:
    return " ".join(text.strip().lower().split())


def action_from_str(ctx: Context, s: SLState, text: str) -> int | None:
    """The action id whose notation (in this context) is ``text``, legal or not; else ``None``."""
    wanted = normal(text)
    if s.stack and s.stack[-1][0] in CHANCE:
        for o in range(17):
            if normal(chance_to_str(ctx, s, o)) == wanted:
                return o
        return None
    for a in range(NUM_ACTIONS):
        if normal(action_to_str(ctx, s, a)) == wanted:
            return a
    return None
