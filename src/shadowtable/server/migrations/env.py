"""Alembic environment: runs on the connection the server hands over (``config.attributes``)."""

from __future__ import annotations

from alembic import context

from shadowtable.server.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
