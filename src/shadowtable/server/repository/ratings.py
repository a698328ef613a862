"""The ratings' statements: counting a finished table once, the players' ratings, leaderboards and
histories (see :mod:`shadowtable.server.ratings`)."""

from __future__ import annotations

import sqlalchemy as sa

from shadowtable.server import schema


def claim_for_rating(table_id: str, at: float) -> sa.Executable:
    """Mark a finished table as counted (its ``rowcount`` is 1 only the first time)."""
    t = schema.tables
    return sa.update(t).where(t.c.id == table_id, t.c.status == "over", t.c.rated_at.is_(None)).values(rated_at=at)


def table_row(table_id: str) -> sa.Executable:
    """A table's row."""
    return sa.select(schema.tables).where(schema.tables.c.id == table_id)


def seat_rows(table_id: str) -> sa.Executable:
    """A table's seats, in order."""
    s = schema.seats
    return sa.select(s).where(s.c.table_id == table_id).order_by(s.c.seat)


def lock_accounts(account_ids: list[str]) -> sa.Executable:
    """Lock the rows of ``account_ids`` in a fixed order (PostgreSQL; SQLite writes one at a time)."""
    a = schema.accounts
    return sa.select(a.c.id).where(a.c.id.in_(sorted(account_ids))).order_by(a.c.id).with_for_update()


def ratings_of(account_ids: list[str], game: str, players: int) -> sa.Executable:
    """The ratings ``account_ids`` have at ``game`` with ``players``."""
    r = schema.ratings
    return sa.select(r).where(r.c.account_id.in_(account_ids), r.c.game == game, r.c.players == players)


def update_rating(account_id: str, game: str, players: int, mu: float, sigma: float, games: int) -> sa.Executable:
    """An account's new rating at a game (after ``games`` counted)."""
    r = schema.ratings
    where = (r.c.account_id == account_id, r.c.game == game, r.c.players == players)
    return sa.update(r).where(*where).values(mu=mu, sigma=sigma, games=games)


def insert_rating(account_id: str, game: str, players: int, mu: float, sigma: float) -> sa.Executable:
    """An account's first rating at a game."""
    return sa.insert(schema.ratings).values(
        account_id=account_id, game=game, players=players, games=1, mu=mu, sigma=sigma
    )


def pending_ratings() -> sa.Executable:
    """Finished tables whose end is not counted yet, oldest end first."""
    t = schema.tables
    return sa.select(t.c.id).where(t.c.status == "over", t.c.rated_at.is_(None)).order_by(t.c.finished_at)


def rated_boards() -> sa.Executable:
    """Every (game, players) that has ratings."""
    r = schema.ratings
    return sa.select(r.c.game, r.c.players).distinct().order_by(r.c.game, r.c.players)


def leaderboard(game: str, players: int, limit: int) -> sa.Executable:
    """The players rated at ``game`` with ``players``, best ordinal (``mu - 3 sigma``) first."""
    r, a = schema.ratings, schema.accounts
    return (
        sa.select(a.c.name, r.c.mu, r.c.sigma, r.c.games)
        .join(a, a.c.id == r.c.account_id)
        .where(r.c.game == game, r.c.players == players)
        .order_by((r.c.mu - 3 * r.c.sigma).desc(), a.c.name_key)
        .limit(limit)
    )


def finished_games(account_id: str, limit: int) -> sa.Executable:
    """The finished tables an account sat at, newest first, with its seat."""
    t, s = schema.tables, schema.seats
    return (
        sa.select(t.c.id, t.c.game, t.c.players, t.c.finished_at, t.c.returns, t.c.rated, t.c.rated_at, s.c.seat)
        .join(s, s.c.table_id == t.c.id)
        .where(s.c.account_id == account_id, t.c.status == "over")
        .order_by(t.c.finished_at.desc())
        .limit(limit)
    )
