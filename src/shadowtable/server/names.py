"""Names nobody may take as a guest or for a new account: what could pass for a bot, a default
seat name or the server's staff.

A guest may still sit under the default name of the seat it takes (``Player 2`` at seat 1): that
is the name it would get anyway.  Names of existing accounts are refused to guests too, but that
needs the database (:meth:`shadowtable.server.service.TableService.seat_name`).
"""

from __future__ import annotations

import re

from shadowtable.bots.registry import available_bots
from shadowtable.core.wording import default_seat_name
from shadowtable.server.bot_levels import LEVELS

STAFF = ("host", "admin", "administrator", "system", "server", "moderator", "mod", "operator", "root", "staff")
"""Words a name may not be (with or without digits after): they would pass for the people running it."""
_BOT = re.compile(r"\Abot(?![a-z])|(?<![a-z])bot\)?\Z")
_DEFAULT = re.compile(r"(player|seat|spectator)\s*#?\s*\d*", re.IGNORECASE)
_STAFF = re.compile(r"(" + "|".join(STAFF) + r"|shadowtable)\d*")


def name_key(name: str) -> str:
    """The form of a name that must be unique among accounts: casefolded."""
    return name.casefold()


def default_name(seat: int) -> str:
    """The name a seat shows when its player gave none."""
    return default_seat_name(seat)


def reserved_problem(shown: str) -> str | None:
    """Why ``shown`` (spaces already collapsed) is reserved; ``None`` when anyone may use it."""
    compact = re.sub(r"[\W_]+", "", shown.casefold())
    if _BOT.search(shown.casefold()) or compact in {b.casefold() for b in (*available_bots(), *LEVELS)}:
        return f"name: {shown!r} is reserved for bots; choose another"
    if _DEFAULT.fullmatch(shown):
        return f"name: {shown!r} is reserved for seats without a name; choose another"
    if _STAFF.fullmatch(compact):
        return f"name: {shown!r} is reserved; choose another"
    return None
