"""Presence: which seats are connected, here or (as last heard on the bus) to another process."""

from __future__ import annotations

import time
from typing import TypedDict

from shadowtable.server.connections import tell_all
from shadowtable.server.table import Table, seat_name


class SeatPresence(TypedDict):
    """Who sits at a seat and whether they are connected (``here``; a bot always is)."""

    seat: int
    name: str
    kind: str
    here: bool
    bot_playing: bool


def local_seats(table: Table) -> set[int]:
    """Seats with a greeted connection to this process."""
    return {c.seat for c in table.connections if c.greeted and c.seat is not None}


def here(table: Table) -> set[int]:
    """Seats connected to this process or, as last heard, to another one."""
    seats = local_seats(table)
    now = time.monotonic()
    for until, remote in table.sockets.remote.values():
        if until > now:
            seats |= remote
    return seats


def connected(table: Table, seat: int) -> bool:
    """Whether ``seat`` is connected anywhere."""
    return seat in here(table)


def heard(table: Table, process: str, seats: frozenset[int], valid_s: float) -> None:
    """``process`` says ``seats`` are connected to it (true for ``valid_s``)."""
    table.sockets.remote[process] = (time.monotonic() + valid_s, seats)


def presence(table: Table) -> list[SeatPresence]:
    """Who sits where and who is connected (public)."""
    present = here(table)
    return [
        SeatPresence(
            seat=i,
            name=seat_name(i, seat),
            kind=seat.kind,
            here=seat.kind == "bot" or i in present,
            bot_playing=seat.kind == "bot" or seat.zombie,
        )
        for i, seat in enumerate(table.seats)
    ]


def send_presence(table: Table) -> None:
    """Tell this process's connections of ``table`` who is there."""
    tell_all(table.connections, {"t": "presence", "presence": presence(table)})
