"""Rematch reservations: a rematch keeps each seat for the player who held it in the finished game
(the SHA-256 of their old seat key, their account) until they take it, decline it, or it expires.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("reserved_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("reserved_account", sa.String(32), nullable=True))
        batch.add_column(sa.Column("reserved_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("reserved_until")
        batch.drop_column("reserved_account")
        batch.drop_column("reserved_hash")
