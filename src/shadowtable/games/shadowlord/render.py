"""A readable text rendering of an observation: the board as a grid, then the players."""

from __future__ import annotations

from typing import Any

from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import STATUS_NAMES

CELL_MARK = {"space_base": "Base", "ruins": "Ruins", "home": "Home", "lost_fortress": "FORT", "galaxy": ""}
SHORT = {"Master": "M", "Warrior": "W", "Merchant": "T", "Diplomat": "D", "Shadowlord": "SL", "Shadow": "S"}
COLOUR_CODE = ["r", "b", "y", "g", "k"]


def fig_code(ctx: Context, f: int, owner: int, ships: int, stone: bool) -> str:
    name = ctx.content.fig_name[f]
    kind = name.split()[-1] if name.split()[0].lower() in ctx.content.colours else name.split()[0]
    kind = "Shadow" if name.startswith("Shadow ") else kind
    tag = SHORT.get(kind, kind[:2])
    suffix = name.split()[-1] if name.startswith("Shadow ") else ""
    return f"{COLOUR_CODE[owner] if 0 <= owner < 5 else '?'}{tag}{suffix}:{ships}{'*' if stone else ''}"


def render(ctx: Context, obs: dict[str, Any]) -> str:
    """The board grid (cell name, kind, rings ``<colour><kind>:<ships>``, ``*`` = Power Stone,
    loose ships ``+n<colour>``, ``?`` = a face-down disc), then hands, timer, the pending
    decision (the log is the game's events: :meth:`Game.events`)."""
    c = ctx.content
    p = obs["public"]
    width = 24
    cells: list[list[str]] = []
    for g in range(c.num_galaxies):
        lines = [f"{c.galaxy_name(g)} {CELL_MARK[c.cell_kind[g]]}{' ?' if p['disc'][g] else ''}"]
        figs = [
            fig_code(ctx, f, p["owner"][f], p["ships"][f], p["stone"] == f)
            for f in range(len(p["owner"]))
            if p["loc"][f] == g and p["status"][f] == 1
        ]
        if p["loose_n"][g]:
            figs.append(f"+{p['loose_n'][g]}{COLOUR_CODE[p['loose_col'][g]]}")
        row = ""
        for code in figs:
            if len(row) + len(code) + 1 > width:
                lines.append(row)
                row = ""
            row = f"{row} {code}".strip()
        if row:
            lines.append(row)
        cells.append(lines)
    out: list[str] = []
    sep = "+" + "+".join("-" * width for _ in range(c.cols)) + "+"
    for r in range(c.rows):
        out.append(sep)
        block = cells[r * c.cols : (r + 1) * c.cols]
        height = max(len(b) for b in block)
        for i in range(height):
            out.append("|" + "|".join((b[i] if i < len(b) else "").ljust(width) for b in block) + "|")
    out.append(sep)
    colour = c.colours[p["cur"]] if 0 <= p["cur"] < 4 else "-"
    out.append(
        f"turn {p['turn'] + 1}, {colour} to play; timer {p['timer'] if p['timer'] >= 0 else 'removed'}; "
        f"deck {p['deck_count']}, discard {p['discard_count']}"
    )
    out.append("Attack Hands: " + ", ".join(f"seat {k}: {n}" for k, n in enumerate(p["hand_counts"][: ctx.players])))
    captives = [
        f"{c.fig_name[f]} (held by {c.fig_name[p['captor'][f]]})"
        for f in range(len(p["owner"]))
        if STATUS_NAMES[p["status"][f]] == "captive"
    ]
    if captives:
        out.append("Captives: " + "; ".join(captives))
    if obs["private"]["hand"] is not None:
        vals = c.card_values
        out.append(
            f"Your hand (seat {obs['seat']}): "
            + ", ".join(f"{n}x{vals[v]}" for v, n in enumerate(obs["private"]["hand"]) if n)
        )
    pending = obs.get("pending") or {}
    if pending.get("seat") is not None and pending["seat"] >= 0:
        out.append(f"Pending (seat {pending['seat']}, {pending['kind']}): {pending['prompt']}")
    elif pending.get("seat") is not None:
        out.append(f"Pending: chance ({pending['kind']})")
    if obs.get("outcome"):
        out.append(f"GAME OVER: {obs['outcome']}")
    return "\n".join(out)
