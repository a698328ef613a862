"""A readable text rendering of an observation: the board as a grid, then the players."""

from __future__ import annotations

from typing import Any

from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import STATUS_NAMES
from shadowtable.games.shadowlord.words import COLOUR_CODE, figure_code, motion_text

CELL_MARK = {"space_base": "Base", "ruins": "Ruins", "home": "Home", "lost_fortress": "FORT", "galaxy": ""}


def fig_code(ctx: Context, f: int, owner: int, ships: int, stone: bool) -> str:
    """The figure's code on the board (:func:`.words.figure_code`)."""
    return figure_code(ctx.content, f, owner, ships, stone)


def vote_words(ctx: Context, vote: dict[str, Any], cur: int, loc: list[int]) -> str:
    """The vote in progress: what is voted on (worded as its event is), who votes, the votes
    cast so far (public ones)."""
    motion = motion_text(ctx.content, cur, loc, vote["kind"], vote["a"], vote["b"])
    cast = ", ".join(
        f"seat {k}: {'yes' if v == 1 else 'no' if v == 0 else 'voted'}"
        for k, v in enumerate(vote.get("votes", []))
        if v != -1
    )
    return f"Vote: {motion}? Voters: seats {', '.join(map(str, vote['voters']))}; one 'yes' passes it." + (
        f" Cast: {cast}." if cast else ""
    )


def last_vote_words(ctx: Context, vote: dict[str, Any], seat: int | None) -> str:
    """The last closed vote: its motion (worded as when it was put), its result, and the
    reader's own vote when he cast one."""
    loc = [-1] * (vote["a"] + 1)
    loc[vote["a"]] = vote["at"]
    motion = motion_text(ctx.content, vote["cur"], loc, vote["kind"], vote["a"], vote["b"])
    mine = vote["votes"][seat] if seat is not None and 0 <= seat < len(vote["votes"]) else -1
    own = f" You voted {'yes' if mine == 1 else 'no'}." if mine in (0, 1) else ""
    return f"Last Vote: {motion}: {'passed' if vote['passed'] else 'failed'}.{own}"


def offer_words(ctx: Context, offer: dict[str, Any]) -> str:
    """The open offer's terms, item by item."""
    c = ctx.content
    vals = c.card_values
    items = [f"gives Power Card {vals[v]}" for v, n in enumerate(offer["give"]) for _ in range(n)]
    items += [f"asks for Power Card {vals[v]}" for v, n in enumerate(offer["want"]) for _ in range(n)]
    items += [f"trades {c.fig_name[f]}" for f in offer["chars"]]
    items += [f"releases {c.fig_name[f]}" for f in offer["release"]]
    items += [f"a Space Ship from {c.fig_name[f]}" for f in offer["ships"]]
    items += ["gives permission to pass"] * bool(offer["perm_give"])
    items += ["asks permission to pass"] * bool(offer["perm_want"])
    items += [f"a Truce in {c.galaxy_name(g)}" for g in offer["truce"]]
    terms = "; ".join(items) or "nothing yet"
    return f"Offer from seat {offer['from']} to seat {offer['to']}: {terms}"


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
        cards = [str(vals[v]) for v, n in enumerate(obs["private"]["hand"]) for _ in range(n)]
        out.append(f"Your Attack Hand (seat {obs['seat']}): Power Cards {', '.join(cards) or 'none'}")
    if p.get("vote"):
        out.append(vote_words(ctx, p["vote"], p["cur"], p["loc"]))
    if p.get("last_vote"):
        out.append(last_vote_words(ctx, p["last_vote"], obs.get("seat")))
    if p.get("offer"):
        out.append(offer_words(ctx, p["offer"]))
    pending = obs.get("pending") or {}
    if pending.get("seat") is not None and pending["seat"] >= 0:
        out.append(f"Seat {pending['seat']} to decide: {pending['prompt']}")
    elif pending.get("seat") is not None:
        out.append("Chance decides next (a draw or a roll)")
    if obs.get("outcome"):
        out.append(f"GAME OVER: {obs['outcome']}")
    return "\n".join(out)
