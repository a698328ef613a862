"""A player's tables: every table their seats are at, for the "My tables" page and its badge.

A player is an account (the seats taken signed in) and this browser's seats (its seat cookie),
together.  Each line says only what anyone watching may know: the players, who decides (from the
spectators' view), the clocks every seat is shown, and the last line of the spectators' log.
Lines come in the order a player wants them: the tables where it is their turn, then the other
tables in play or waiting for players, then the recently finished ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import game_class
from shadowtable.core.wording import SeatNames, results_from_returns
from shadowtable.server.errors import ServiceError
from shadowtable.server.sending import public_pending, seat_clocks
from shadowtable.server.table import Seat, Table, seat_name
from shadowtable.server.tokens import SeatClaim, matches

if TYPE_CHECKING:
    from shadowtable.server.service import TableService

MOST_TABLES = 100
"""The most tables a player's list holds (the newest first)."""
MOST_FINISHED = 20
"""The most finished tables among them."""
LOG_LOOKBACK = 64
"""How many of the spectators' versions are searched back for the last line told."""

Row = dict[str, Any]


@dataclass(frozen=True)
class MySeat:
    """A seat a player holds (or left in play, a bot playing it) at a table."""

    table: str
    seat: int


@dataclass(frozen=True)
class TableLine:
    """One table of a player's list: nothing a spectator could not know."""

    id: str
    game: str
    title: str
    status: str  # open | playing | over
    seat: int
    you: str
    players: tuple[str, ...]
    yours: bool
    """The player decides now at this table."""
    deciding: str | None
    """Who decides now, by name (``None``: nobody, chance, or the game is not in play)."""
    clock_ms: int | None
    """The time the deciding seat has left on the table's clock (``None``: no clock)."""
    deadline: float | None
    """When the decision is due at a turn-based table (``None``: the table has no such deadline)."""
    last: str | None
    """The last thing that happened, as the spectators' log says it."""
    left: bool
    """The player left this seat in play: a bot plays it until they take it back."""
    at: float
    """When the table was created, or (finished) when its game ended."""

    @property
    def group(self) -> int:
        """0: the player's turn; 1: in play or waiting for players; 2: finished."""
        if self.yours:
            return 0
        return 2 if self.status == "over" else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "status": self.status,
            "seat": self.seat,
            "you": self.you,
            "players": list(self.players),
            "yours": self.yours,
            "deciding": self.deciding,
            "clock_ms": self.clock_ms,
            "deadline": self.deadline,
            "last": self.last,
            "left": self.left,
        }


def held_seat(row: Row, account_id: str | None, claims: dict[str, SeatClaim]) -> bool:
    """Whether the seat ``row`` (a ``seats`` row) is the player's: taken with their account, or
    held (or left in play) with a token of this browser."""
    kept = row["key_hash"] is not None or row["left_hash"] is not None
    if account_id is not None and row["account_id"] == account_id and kept:
        return True
    claim = claims.get(row["table_id"])
    if claim is None or claim.seat != row["seat"]:
        return False
    return matches(claim, row["key_hash"]) or matches(claim, row["left_hash"])


def title_of(game_id: str) -> str:
    """A game's title (its id when this server does not know the game)."""
    try:
        return str(game_class(game_id).SPEC.name)
    except ShadowTableError:
        return game_id


def is_my_turn(table: Table, seat: int) -> bool:
    """Whether ``seat``'s player decides now (the seat knows it: only it is offered choices)."""
    held = table.seats[seat]
    return table.status == "playing" and not held.vacated and table.game.current_player(table.live.state) == seat


def last_public_line(table: Table, names: SeatNames) -> str | None:
    """The last event the spectators were told, in words (seats by name)."""
    channel = table.live.channels.get(None)
    if channel is None:
        return None
    for v in range(channel.v, max(0, channel.v - LOG_LOOKBACK), -1):
        events = channel.version_events(v)
        if events:
            return names.shown(str(events[-1].get("text", "")))
    return None


def over_words(names: list[str], returns: list[float] | None) -> str:
    """How a finished game ended, from its returns: who won, or a draw."""
    results = results_from_returns(returns or [])
    winners = [names[r.seat] for r in results if r.result == "won" and r.seat < len(names)]
    if winners:
        return f"The game is over: {', '.join(winners)} won"
    return "The game is over: a draw" if results else "The game is over"


def status_line(table: Table, people: SeatNames, names: list[str]) -> str | None:
    """The last thing that happened at a live table: its last public line, or where it stands."""
    if table.status == "open":
        return "Waiting for players to sit down"
    if table.status == "over":
        return over_words(names, table.stored.returns)
    return last_public_line(table, people)


def live_line(table: Table, seat: int) -> TableLine:
    """The line of a table open or in play, at ``seat``."""
    names = [seat_name(i, s) for i, s in enumerate(table.seats)]
    people = SeatNames.of(names)
    pending = public_pending(table) if table.status == "playing" else None
    deciding_seat = pending.get("seat") if pending is not None else None
    deciding = names[deciding_seat] if isinstance(deciding_seat, int) and 0 <= deciding_seat < len(names) else None
    if deciding_seat is None and is_my_turn(table, seat):
        deciding_seat = seat  # the reader knows it decides, even where spectators are not told who does
    clock_ms = None
    for clock in seat_clocks(table) or []:
        if clock["seat"] == deciding_seat:
            clock_ms = clock["ms_left"]
    return TableLine(
        id=table.id,
        game=table.game.spec.id,
        title=table.game.spec.name,
        status=table.status,
        seat=seat,
        you=names[seat],
        players=tuple(names),
        yours=is_my_turn(table, seat),
        deciding=deciding,
        clock_ms=clock_ms,
        deadline=table.seats[deciding_seat].deadline if isinstance(deciding_seat, int) and table.stored.turn else None,
        last=status_line(table, people, names),
        left=table.seats[seat].vacated,
        at=table.stored.created_at,
    )


def finished_line(row: Row, seat: int, seats: list[Row]) -> TableLine:
    """The line of a finished table from its stored rows (its game is not replayed for it)."""
    names = [seat_name(i, Seat.from_row(s)) for i, s in enumerate(sorted(seats, key=lambda s: int(s["seat"])))]
    return TableLine(
        id=row["table_id"],
        game=row["game"],
        title=title_of(row["game"]),
        status="over",
        seat=seat,
        you=names[seat] if seat < len(names) else "",
        players=tuple(names),
        yours=False,
        deciding=None,
        clock_ms=None,
        deadline=None,
        last=over_words(names, row["returns"]),
        left=False,
        at=row["finished_at"] or row["created_at"],
    )


def ordered(lines: Iterable[TableLine]) -> list[TableLine]:
    """Your turn first, then the other tables (newest first), then the finished ones (latest first)."""
    return sorted(lines, key=lambda line: (line.group, -line.at))


class MyTables:
    """A player's tables, read from the store and the tables in memory."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def _claims(self, tokens: dict[str, str]) -> dict[str, SeatClaim]:
        return {claim.table: claim for claim in self.service.claims(list(tokens.values()))}

    async def seats(self, account_id: str | None, tokens: dict[str, str], *, playing_only: bool = False) -> list[Row]:
        """The player's seats (``seats`` rows with their table's fields), at most
        :data:`MOST_TABLES` of them, and the finished ones at most :data:`MOST_FINISHED`."""
        claims = self._claims(tokens)
        held = [(claim.table, claim.seat) for claim in claims.values()]
        rows = await self.service.repository.player_seats(account_id, held, MOST_TABLES, playing_only=playing_only)
        mine: list[Row] = []
        finished = 0
        for row in rows:
            if not held_seat(row, account_id, claims) or any(r["table_id"] == row["table_id"] for r in mine):
                continue
            if row["status"] == "over":
                finished += 1
                if finished > MOST_FINISHED:
                    continue
            mine.append(row)
        return mine

    async def lines(self, account_id: str | None, tokens: dict[str, str]) -> list[TableLine]:
        """Every table of the player, in the order of :func:`ordered`."""
        mine = await self.seats(account_id, tokens)
        over = [row["table_id"] for row in mine if row["status"] == "over"]
        seats_of = await self.service.repository.seats_of(over) if over else {}
        lines = []
        for row in mine:
            if row["status"] == "over":
                lines.append(finished_line(row, int(row["seat"]), seats_of.get(row["table_id"], [])))
                continue
            with contextlib.suppress(ServiceError):
                lines.append(live_line(await self.service.table(row["table_id"]), int(row["seat"])))
        return ordered(lines)

    async def waiting(self, account_id: str | None, tokens: dict[str, str]) -> list[Table]:
        """The tables in play where it is the player's turn (for the badge: no log is read)."""
        found = []
        for row in await self.seats(account_id, tokens, playing_only=True):
            with contextlib.suppress(ServiceError):
                table = await self.service.table(row["table_id"])
                if is_my_turn(table, int(row["seat"])):
                    found.append(table)
        return found
