"""Notifications: each account's settings (e-mail address and whether it is confirmed, e-mail on my
turn, webhook) and the durable queue of notifications to deliver.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_settings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_confirmed", sa.Boolean, nullable=False),
        sa.Column("email_on", sa.Boolean, nullable=False),
        sa.Column("webhook", sa.String(500), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "notify_queue",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_notify_queue_due", "notify_queue", ["next_at"])
    op.create_index("ix_notify_queue_account", "notify_queue", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_notify_queue_account", table_name="notify_queue")
    op.drop_index("ix_notify_queue_due", table_name="notify_queue")
    op.drop_table("notify_queue")
    op.drop_table("notify_settings")
