"""A readable text rendering of an observation: the board as a grid, then the players.

Figure codes and vote motions need names only (figures, colours, galaxies), so the rules, this
rendering and the boards word them alike: the rules pass the content, the boards the printed
tables read from ``game.words.reference()`` (:mod:`.printed`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import STATUS_NAMES

CELL_MARK = {"space_base": "Base", "ruins": "Ruins", "home": "Home", "lost_fortress": "FORT", "galaxy": ""}
SHORT = {"Master": "M", "Warrior": "W", "Merchant": "T", "Diplomat": "D", "Shadowlord": "SL", "Shadow": "S"}
COLOUR_CODE = ["r", "b", "y", "g", "k"]
"""One letter per colour id: the four Alliances, then black (the shadows)."""


class Names(Protocol):
    """The printed names a text needs: figures, the four Alliance colours, galaxies."""

    @property
    def fig_name(self) -> Sequence[str]: ...

    @property
    def colours(self) -> Sequence[str]: ...

    def galaxy_name(self, g: int) -> str: ...


def figure_code(names: Names, f: int, owner: int, ships: int, stone: bool) -> str:
    """``<colour><kind><number>:<ships>`` (``*``: holds the Power Stone); a character found on a
    disc keeps its number (``yW1``), so it never reads like a starting character (``yW``)."""
    name = names.fig_name[f]
    words = name.split()
    if words[0].lower() in names.colours:
        tag = SHORT.get(words[-1], words[-1][:2])
    elif name.startswith("Shadow "):
        tag = f"S{words[-1]}"
    elif len(words) == 1:
        tag = SHORT.get(words[0], words[0][:2])
    else:
        tag = SHORT.get(words[0], words[0][:2]) + "".join(ch for ch in words[-1] if ch.isdigit())
    return f"{COLOUR_CODE[owner] if 0 <= owner < 5 else '?'}{tag}:{ships}{'*' if stone else ''}"


def motion_text(names: Names, cur: int, loc: Sequence[int], motion: str, subject: int, origin: int) -> str:
    """What a motion asks, in words, from public facts only (the current colour and where the
    figures stand), so a state and an observation word it alike."""
    fig, me = names.fig_name, names.colours[cur] if 0 <= cur < 4 else "the current player"
    if motion == "defect":
        return f"{fig[subject]} Defects to {me}"
    if motion == "place_shadow":
        return f"{fig[subject]} stays in {names.galaxy_name(loc[subject])} (else he leaves the game)"
    if motion == "move_shadow":
        return (
            f"{fig[subject]} stays in {names.galaxy_name(loc[subject])} "
            f"(else he returns to {names.galaxy_name(origin)})"
        )
    if motion == "storm":
        return f"a Spacestorm strikes seat {subject} (1d8 Space Ships lost)"
    return f"{me} steals 2 random Power Cards from seat {subject}"


def fig_code(ctx: Context, f: int, owner: int, ships: int, stone: bool) -> str:
    """The figure's code on the board (:func:`figure_code`)."""
    return figure_code(ctx.content, f, owner, ships, stone)


def vote_words(ctx: Context, vote: dict[str, Any], cur: int, loc: list[int]) -> str:
    """The vote in progress: what is voted on (worded as its event is), who votes, the votes
    cast so far (public ones)."""
    motion = motion_text(ctx.content, cur, loc, vote["kind"], vote["subject"], vote["origin"])
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
    loc = [-1] * (vote["subject"] + 1)
    loc[vote["subject"]] = vote["subject_location"]
    motion = motion_text(ctx.content, vote["caller"], loc, vote["kind"], vote["subject"], vote["origin"])
    mine = vote["votes"][seat] if seat is not None and 0 <= seat < len(vote["votes"]) else -1
    own = f" You voted {'yes' if mine == 1 else 'no'}." if mine in (0, 1) else ""
    return f"Last Vote: {motion}: {'passed' if vote['passed'] else 'failed'}.{own}"


def offer_words(ctx: Context, offer: dict[str, Any]) -> str:
    """The open offer's terms, item by item."""
    c = ctx.content
    vals = c.card_values
    items = [f"gives Power Card {vals[v]}" for v, n in enumerate(offer["give"]) for _ in range(n)]
    items += [f"asks for Power Card {vals[v]}" for v, n in enumerate(offer["want"]) for _ in range(n)]
    items += [f"trades {c.fig_name[f]}" for f in offer["characters"]]
    items += [f"releases {c.fig_name[f]}" for f in offer["release"]]
    items += [f"a Space Ship from {c.fig_name[f]}" for f in offer["ships"]]
    items += ["gives permission to pass"] * bool(offer["permission_give"])
    items += ["asks permission to pass"] * bool(offer["permission_want"])
    items += [f"a Truce in {c.galaxy_name(g)}" for g in offer["truce"]]
    terms = "; ".join(items) or "nothing yet"
    return f"Offer from seat {offer['from']} to seat {offer['to']}: {terms}"


JSONObject = dict[str, Any]
"""An observation, or a part of one, as JSON."""


def render(ctx: Context, obs: JSONObject) -> str:
    """The board grid (cell name, kind, rings ``<colour><kind>:<ships>``, ``*`` = Power Stone,
    loose ships ``+n<colour>``, ``?`` = a face-down disc), then hands, timer, the pending
    decision (the log is the game's events: :meth:`Game.events`)."""
    width = 24
    p = obs["public"]
    cells = [_cell_lines(ctx, p, g, width) for g in range(ctx.content.num_galaxies)]
    return "\n".join(
        [*_grid(ctx, cells, width), *_table_lines(ctx, p), *_private_lines(ctx, obs), *_news_lines(ctx, obs)]
    )


def _cell_lines(ctx: Context, p: JSONObject, g: int, width: int) -> list[str]:
    """Galaxy ``g``'s lines in the grid: its name and kind, then its figures and loose ships
    wrapped to ``width``."""
    c = ctx.content
    lines = [f"{c.galaxy_name(g)} {CELL_MARK[c.cell_kind[g]]}{' ?' if p['disc'][g] else ''}"]
    figs = [
        fig_code(ctx, f, p["owner"][f], p["ships"][f], p["stone"] == f)
        for f in range(len(p["owner"]))
        if p["loc"][f] == g and p["status"][f] == 1
    ]
    if p["loose_count"][g]:
        figs.append(f"+{p['loose_count'][g]}{COLOUR_CODE[p['loose_colour'][g]]}")
    row = ""
    for code in figs:
        if len(row) + len(code) + 1 > width:
            lines.append(row)
            row = ""
        row = f"{row} {code}".strip()
    if row:
        lines.append(row)
    return lines


def _grid(ctx: Context, cells: list[list[str]], width: int) -> list[str]:
    """The board as a grid of ``cells`` (each galaxy's lines) in columns ``width`` wide."""
    c = ctx.content
    out: list[str] = []
    sep = "+" + "+".join("-" * width for _ in range(c.cols)) + "+"
    for r in range(c.rows):
        out.append(sep)
        block = cells[r * c.cols : (r + 1) * c.cols]
        height = max(len(b) for b in block)
        for i in range(height):
            out.append("|" + "|".join((b[i] if i < len(b) else "").ljust(width) for b in block) + "|")
    out.append(sep)
    return out


def _table_lines(ctx: Context, p: JSONObject) -> list[str]:
    """Whose turn it is, the timer and the decks, the Attack Hands' sizes and the captives."""
    c = ctx.content
    colour = p["current_colour"]
    whose = "setting up, before the first turn"
    if 0 <= colour < 4:
        whose = f"turn {p['turn'] + 1}, {c.colours[colour]} to play"
    out = [
        f"{whose}; timer {p['timer'] if p['timer'] >= 0 else 'removed'}; "
        f"deck {p['deck_count']}, discard {p['discard_count']}",
        "Attack Hands: " + ", ".join(f"seat {k}: {n}" for k, n in enumerate(p["hand_counts"][: ctx.players])),
    ]
    captives = [
        f"{c.fig_name[f]} (held by {c.fig_name[p['captor'][f]]})"
        for f in range(len(p["owner"]))
        if STATUS_NAMES[p["status"][f]] == "captive"
    ]
    if captives:
        out.append("Captives: " + "; ".join(captives))
    return out


def _private_lines(ctx: Context, obs: JSONObject) -> list[str]:
    """The reader's own Attack Hand, if it has one."""
    if obs["private"]["hand"] is None:
        return []
    vals = ctx.content.card_values
    cards = [str(vals[v]) for v, n in enumerate(obs["private"]["hand"]) for _ in range(n)]
    return [f"Your Attack Hand (seat {obs['seat']}): Power Cards {', '.join(cards) or 'none'}"]


def _news_lines(ctx: Context, obs: JSONObject) -> list[str]:
    """The vote, the last vote's result, the offer, the pending decision and the game's end."""
    p = obs["public"]
    out: list[str] = []
    if p.get("vote"):
        out.append(vote_words(ctx, p["vote"], p["current_colour"], p["loc"]))
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
    return out
