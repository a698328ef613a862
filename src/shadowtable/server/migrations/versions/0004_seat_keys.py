"""Vacated seats and invites: the key of the player who left a seat in play, one invite per seat
(its code's hash and expiry), and the table's host (the creator's seat).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("left_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("invite_expires", sa.Float, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host_seat", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("host_seat")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_expires")
        batch.drop_column("invite_hash")
        batch.drop_column("left_hash")
