"""The database schema (SQLAlchemy Core): one schema for SQLite and PostgreSQL.

``actions`` is append-only and the source of truth: a table's state is its actions replayed.
Alembic migrations (``shadowtable/server/migrations``) create and change it; this module is what
the code reads and writes with.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("version", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # open | playing | over
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("listed", sa.Boolean, nullable=False),
    sa.Column("returns", sa.JSON, nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    # false once a bot plays a human seat, or when a seat is not a human with an account (revision 0002)
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("rated_at", sa.Float, nullable=True),  # when the end was counted in the ratings (once)
    # the creator's seat: only its holder may invite to a seat vacated in play (revision 0004)
    sa.Column("host_seat", sa.Integer, nullable=True),
    # the bots' pace (table.BOT_PACES); null: the server's delay (revision 0006)
    sa.Column("pace", sa.String(16), nullable=True),
    # realtime | turn-based, and a turn-based table's rules (table.TurnRules) (revision 0007)
    sa.Column("mode", sa.String(16), nullable=False, server_default="realtime"),
    sa.Column("turn", sa.JSON, nullable=True),
    # whether a seat may take back its last decisions while they revealed nothing (revision 0010);
    # a table that allows it is never rated
    sa.Column("undo", sa.Boolean, nullable=False, server_default=sa.false()),
)
sa.Index("ix_tables_status", tables.c.status, tables.c.created_at)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),  # human | bot
    sa.Column("bot", sa.String(200), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("key_hash", sa.String(64), nullable=True),  # null: nobody holds the seat's token
    sa.Column("zombie", sa.Boolean, nullable=False),
    sa.Column("clock_ms", sa.BigInteger, nullable=True),
    sa.Column("account_id", sa.String(32), nullable=True),  # the signed-in player who took the seat
    # revision 0004: the SHA-256 of the key of the player who left the seat in play (they may take it
    # back), and the seat's one invite: the SHA-256 of its single-use code and when it expires
    sa.Column("left_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
    sa.Column("invite_expires", sa.Float, nullable=True),
    # revision 0007, turn-based tables: when the decision in progress runs out (wall clock), the
    # reserve left, and the seat's vacation (until when, and how much it has taken)
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("reserve_ms", sa.BigInteger, nullable=True),
    sa.Column("away_until", sa.Float, nullable=True),
    sa.Column("away_used_s", sa.Float, nullable=True),
    # revision 0009: a rematch keeps the seat for the player who held it in the finished game (the
    # SHA-256 of their old seat key, their account) until they take it, decline it, or it expires
    sa.Column("reserved_hash", sa.String(64), nullable=True),
    sa.Column("reserved_account", sa.String(32), nullable=True),
    sa.Column("reserved_until", sa.Float, nullable=True),
)
sa.Index("ix_seats_account", seats.c.account_id)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),  # -1: chance
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("client_id", sa.String(64), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.UniqueConstraint("table_id", "seat", "client_id", name="uq_actions_client_id"),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(500), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("name_key", sa.String(128), nullable=False),  # the name casefolded: unique
    sa.Column("password_hash", sa.String(256), nullable=False),  # argon2id, never the password
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),  # the SHA-256 of the session id, never the id
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),  # updated at most hourly
    sa.Column("expires_at", sa.Float, nullable=False),
)
sa.Index("ix_sessions_account", sessions.c.account_id)
"""Signed-in browsers (revision 0005): deleted on logout, all of an account's on a password change."""

password_resets = sa.Table(
    "password_resets",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),  # the SHA-256 of the single-use code
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)
sa.Index("ix_password_resets_account", password_resets.c.account_id)
"""Password reset codes an operator made (revision 0005): one per account, deleted when used."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)
sa.Index("ix_ratings_board", ratings.c.game, ratings.c.players)

leases = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(128), nullable=False),  # the process id (ServerConfig.process_id)
    sa.Column("expires_at", sa.Float, nullable=False),  # time.time() past which another may take it
)
"""Which process owns a live table (several processes on one database, ``--redis``)."""

notify_settings = sa.Table(
    "notify_settings",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_confirmed", sa.Boolean, nullable=False),
    sa.Column("email_on", sa.Boolean, nullable=False),  # e-mail on my turn
    sa.Column("webhook", sa.String(500), nullable=True),
    sa.Column("updated_at", sa.Float, nullable=False),
)
"""An account's notification settings (revision 0008): no row, nothing is sent."""

notify_queue = sa.Table(
    "notify_queue",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # turn_email | turn_webhook | confirm_email
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),  # the table's steps when queued (0: not a table's)
    sa.Column("payload", sa.Text, nullable=False),  # JSON of public facts only (notifications.TurnFacts)
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_at", sa.Float, nullable=False),  # time.time() from which it may be (re)tried
    sa.Column("created_at", sa.Float, nullable=False),
)
sa.Index("ix_notify_queue_due", notify_queue.c.next_at)
sa.Index("ix_notify_queue_account", notify_queue.c.account_id)
"""Notifications to deliver (revision 0008): queued with the move that causes them, deleted once sent."""

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # queued | running | done | failed
    sa.Column("progress", sa.Float, nullable=False),  # 0..1: decisions (and beliefs) worked out
    sa.Column("attempts", sa.Integer, nullable=False),  # times started
    sa.Column("error", sa.Text, nullable=True),  # why it failed, in words
    sa.Column("result", sa.Text, nullable=True),  # JSON (analysis_jobs.RESULT_FORMAT), once done
    sa.Column("claimed_by", sa.String(128), nullable=True),  # the process running it
    sa.Column("lease_until", sa.Float, nullable=True),  # time.time() past which another may take it
    sa.Column("requested_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
)
sa.Index("ix_analyses_status", analyses.c.status, analyses.c.requested_at)
"""Analyses of finished tables (revision 0011): the job queue and, once done, the result."""

lab_runs = sa.Table(
    "lab_runs",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),  # the account
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),  # JSON: the checked LabSpec (lab.spec)
    sa.Column("status", sa.String(16), nullable=False),  # queued | running | stopped | done | failed
    sa.Column("games", sa.Integer, nullable=False),  # games per arm
    sa.Column("done", sa.Text, nullable=False),  # JSON list: games stored per arm
    sa.Column("figures", sa.Text, nullable=True),  # JSON {"figures", "odd"}, once done
    sa.Column("replays", sa.Text, nullable=True),  # JSON {"arm:index": table id} of odd games opened
    sa.Column("error", sa.Text, nullable=True),  # why it failed, in words
    sa.Column("attempts", sa.Integer, nullable=False),  # times its current piece was started
    sa.Column("claimed_by", sa.String(128), nullable=True),  # the process playing a piece of it
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
)
sa.Index("ix_lab_runs_owner", lab_runs.c.owner, lab_runs.c.created_at)
sa.Index("ix_lab_runs_status", lab_runs.c.status, lab_runs.c.created_at)
_lab_active = lab_runs.c.status.in_(("queued", "running"))
sa.Index("uq_lab_runs_active", lab_runs.c.owner, unique=True, sqlite_where=_lab_active, postgresql_where=_lab_active)
"""One queued or running run per account, held by the database (two requests at once too)."""
"""The designer's lab's runs (revision 0012)."""

lab_rows = sa.Table(
    "lab_rows",
    metadata,
    sa.Column("run_id", sa.String(32), sa.ForeignKey("lab_runs.id"), primary_key=True),
    sa.Column("arm", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),  # the game's index in its arm
    sa.Column("row", sa.Text, nullable=False),  # JSON: lab.run.play_game_row
)
"""One small row per game of a lab run (revision 0012): what its figures are computed from."""
