"""Revocable sessions and password resets: a row per signed-in browser (the SHA-256 of its session
id), and the SHA-256 of each account's single-use reset code with its expiry.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "password_resets",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_password_resets_account", "password_resets", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_password_resets_account", table_name="password_resets")
    op.drop_table("password_resets")
    op.drop_index("ix_sessions_account", table_name="sessions")
    op.drop_table("sessions")
