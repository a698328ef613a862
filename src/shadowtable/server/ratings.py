"""Ratings of account holders: openskill (Plackett-Luce) per game and player count.

A finished table is **rated** when every seat was taken by a human signed in to an account (each
seat a different account) and no bot ever played a human seat (a takeover, a seat left in play, a
clock's skipped move: the service stores ``rated = false`` with that change).  Its end is counted
once: :meth:`Ratings.apply` claims the table by setting ``rated_at`` in the same transaction that
updates the ratings, so calling it again (a second hook, a restart) changes nothing.  The end is
applied after the game's last action is stored; a table whose end was stored but not yet counted
(the server stopped in between) is counted by :meth:`Ratings.apply_pending` at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from shadowtable.server.repository.failures import store_failures
from shadowtable.server.repository.ratings import (
    claim_for_rating,
    finished_games,
    insert_rating,
    leaderboard,
    lock_accounts,
    pending_ratings,
    rated_boards,
    ratings_of,
    seat_rows,
    table_row,
    update_rating,
)
from shadowtable.server.repository.tables import table_unrated
from shadowtable.server.store import Store, StoreError

log = logging.getLogger("shadowtable.server.ratings")

BOARD_LIMIT = 100


def model() -> PlackettLuce:
    """The rating model: openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate the leaderboard sorts by: ``mu - 3 sigma``."""
    return mu - 3 * sigma


def rank_by_return(returns: Sequence[float]) -> list[int]:
    """Rank 1 for the highest return; equal returns share a rank."""
    return [1 + sum(1 for other in returns if other > value) for value in returns]


@dataclass(frozen=True)
class Rated:
    """One player's rating on a board."""

    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}


class Ratings:
    """Reads and updates the ``ratings`` table."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        self._running: set[asyncio.Task[bool]] = set()

    def _store(self) -> Store:
        if self.store is None:
            raise StoreError("the ratings are not open yet")
        return self.store

    async def _fetch(self, query: sa.Executable) -> list[dict[str, Any]]:
        with store_failures(conflict=False):
            return await self._store().fetch(query)

    async def table_over(self, table_id: str) -> None:
        """The service's end hook: count the table in the ratings (a failure is logged; the table
        is counted at the next start)."""
        # its own task, shielded: a transaction cut off half way would leave the driver waiting
        task = asyncio.ensure_future(self.apply(table_id))
        self._running.add(task)
        task.add_done_callback(self._done)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)

    def _done(self, task: asyncio.Task[bool]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("rating not applied", extra={"event": "rating_failed"}, exc_info=task.exception())

    async def drain(self) -> None:
        """Wait for the ratings being applied (before the store closes)."""
        if self._running:
            await asyncio.wait(list(self._running), timeout=10)

    async def apply(self, table_id: str) -> bool:
        """Count a finished table in its players' ratings, in one transaction, once.  Returns
        whether ratings changed (``False``: not over, counted already, or not a rated table)."""
        engine = self._store().engine
        if engine is None:
            raise StoreError("the store is closed")
        try:
            async with engine.begin() as connection:
                rated = await _rate(connection, table_id)
        except (OSError, sa.exc.SQLAlchemyError) as exc:
            raise StoreError(f"the ratings could not be saved: {type(exc).__name__}") from exc
        if rated:
            log.info("table rated", extra={"event": "rated", "table": table_id})
        return rated

    async def apply_pending(self) -> int:
        """Count every finished table whose end is stored but not yet counted; returns how many
        were rated."""
        try:
            rows = await self._store().fetch(pending_ratings())
        except StoreError:
            log.warning("pending ratings not read", extra={"event": "rating_failed"})
            return 0
        done = 0
        for row in rows:
            try:
                done += await self.apply(row["id"])
            except StoreError:
                log.warning("rating not applied", extra={"event": "rating_failed", "table": row["id"]})
        return done

    async def boards(self) -> list[tuple[str, int]]:
        """Every (game, players) that has ratings."""
        rows = await self._fetch(rated_boards())
        return [(row["game"], row["players"]) for row in rows]

    async def leaderboard(self, game: str, players: int, limit: int = BOARD_LIMIT) -> list[Rated]:
        """The players rated at ``game`` with ``players``, best ordinal first."""
        rows = await self._fetch(leaderboard(game, players, limit))
        return [Rated(row["name"], row["mu"], row["sigma"], row["games"]) for row in rows]

    async def history(self, account_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The finished games of an account, newest first: game, players, date, seat, result."""
        rows = await self._fetch(finished_games(account_id, limit))
        out = []
        for row in rows:
            returns = row["returns"] if isinstance(row["returns"], list) else []
            seat = row["seat"]
            out.append(
                {
                    "table": row["id"],
                    "game": row["game"],
                    "players": row["players"],
                    "finished_at": row["finished_at"],
                    "seat": seat,
                    "return": returns[seat] if 0 <= seat < len(returns) else None,
                    "result": result_words(returns, seat),
                    "rated": bool(row["rated"]) and row["rated_at"] is not None,
                }
            )
        return out


async def _rate(connection: AsyncConnection, table_id: str) -> bool:
    """In ``connection``'s transaction: claim the table (once) and, if it is a rated one, update its
    players' ratings; whether ratings changed."""
    claimed = await connection.execute(claim_for_rating(table_id, time.time()))
    if claimed.rowcount != 1:
        return False
    row = (await connection.execute(table_row(table_id))).mappings().one()
    seats = (await connection.execute(seat_rows(table_id))).mappings().all()
    if not _eligible(row, seats):
        await connection.execute(table_unrated(table_id))
        return False
    accounts = [seat["account_id"] for seat in seats]
    # lock the players' rows (in a fixed order) so two tables ending together cannot both read a
    # rating before either writes it (PostgreSQL; SQLite writes one at a time)
    await connection.execute(lock_accounts(accounts))
    game, players = row["game"], row["players"]
    found = {r["account_id"]: r for r in (await connection.execute(ratings_of(accounts, game, players))).mappings()}
    rater = model()
    teams = [
        [rater.rating(mu=found[a]["mu"], sigma=found[a]["sigma"])] if a in found else [rater.rating()] for a in accounts
    ]
    new = rater.rate(teams, ranks=[float(rank) for rank in rank_by_return(row["returns"])])
    for account, team in zip(accounts, new, strict=True):
        mu, sigma = float(team[0].mu), float(team[0].sigma)
        if account in found:
            await connection.execute(update_rating(account, game, players, mu, sigma, found[account]["games"] + 1))
        else:
            await connection.execute(insert_rating(account, game, players, mu, sigma))
    return True


def _eligible(row: Any, seats: Sequence[Any]) -> bool:
    """Whether a finished table counts: rated, every seat a human of a different account, none
    ever played by a bot."""
    accounts = [seat["account_id"] for seat in seats]
    returns = row["returns"]
    return (
        bool(row["rated"])
        and isinstance(returns, list)
        and len(returns) == len(seats) >= 2
        and all(seat["kind"] == "human" and not seat["zombie"] for seat in seats)
        and all(accounts)
        and len(set(accounts)) == len(accounts)
    )


def result_words(returns: Sequence[float], seat: int) -> str:
    """``won``, ``tied for first``, or ``lost (placed k of n)`` for ``seat``."""
    if not 0 <= seat < len(returns):
        return "unknown"
    ranks = rank_by_return(returns)
    if ranks[seat] == 1:
        return "won" if ranks.count(1) == 1 else "tied for first"
    return f"lost (placed {ranks[seat]} of {len(returns)})"
