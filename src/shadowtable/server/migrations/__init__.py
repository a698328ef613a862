"""Alembic migrations of the server database, applied at start."""
