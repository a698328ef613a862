"""The designer's lab: each account's runs (their spec, status, progress per arm, a lease on the
running one, the figures once done) and their rows, one small JSON row per game played.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lab_runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("done", sa.Text, nullable=False),
        sa.Column("figures", sa.Text, nullable=True),
        sa.Column("replays", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("claimed_by", sa.String(128), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_lab_runs_owner", "lab_runs", ["owner", "created_at"])
    op.create_index("ix_lab_runs_status", "lab_runs", ["status", "created_at"])
    active = sa.text("status IN ('queued', 'running')")
    # one queued or running run per account, held by the database itself (two requests at once too)
    op.create_index(
        "uq_lab_runs_active", "lab_runs", ["owner"], unique=True, sqlite_where=active, postgresql_where=active
    )
    op.create_table(
        "lab_rows",
        sa.Column("run_id", sa.String(32), sa.ForeignKey("lab_runs.id"), primary_key=True),
        sa.Column("arm", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("row", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lab_rows")
    op.drop_index("uq_lab_runs_active", table_name="lab_runs")
    op.drop_index("ix_lab_runs_status", table_name="lab_runs")
    op.drop_index("ix_lab_runs_owner", table_name="lab_runs")
    op.drop_table("lab_runs")
