"""Fixtures of the hostile-client suite: ``live_server`` starts real servers (see harness.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hostile.harness import Server, drop_postgres_database, new_postgres_database


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """A factory: ``live_server(*serve_args, database="sqlite"|"postgresql", env={...})`` starts
    ``shadowtable serve`` on a free port (bot delay 0; a temporary SQLite file or a fresh PostgreSQL
    database) and stops it, and drops the database, at teardown."""
    servers: list[Server] = []
    databases: list[str] = []

    def start(*args: str, database: str = "sqlite", env: dict[str, str] | None = None) -> Server:
        url = ""
        if database == "postgresql":
            url = new_postgres_database()
            databases.append(url)
        elif database != "sqlite":
            raise ValueError(f"database must be sqlite or postgresql, not {database!r}")
        server = Server(tmp_path, args, url, env or {})
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
    for url in databases:
        drop_postgres_database(url)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is ``hostile``: CI runs them alone, after the rest (the canary times its acks)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.hostile)
