"""Turn-based tables: a table's mode (``realtime`` or ``turn-based``) and rules, and each seat's
stored deadline (wall clock), reserve left and vacation.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("mode", sa.String(16), nullable=False, server_default="realtime"))
        batch.add_column(sa.Column("turn", sa.JSON, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
        batch.add_column(sa.Column("reserve_ms", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("away_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("away_used_s", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        for column in ("away_used_s", "away_until", "reserve_ms", "deadline"):
            batch.drop_column(column)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn")
        batch.drop_column("mode")
