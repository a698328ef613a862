"""Accounts and ratings: accounts, per-game ratings, the account of each seat, rated tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("rated_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated_at")
        batch.drop_column("rated")
    op.drop_index("ix_seats_account", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("accounts")
