"""Server test fixtures: a database of each kind, an app on it, and seat clients.

PostgreSQL tests run against the server at ``$SHADOWTABLE_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/test``) in a fresh database made for the session.  They
are skipped when it cannot be reached, unless ``SHADOWTABLE_REQUIRE_POSTGRES=1`` (CI sets it), in
which case they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from server.wire import BROWSER
from shadowtable.server.app import create_app  # noqa: E402
from shadowtable.server.config import ServerConfig  # noqa: E402

POSTGRES = os.environ.get("SHADOWTABLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _admin(sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(POSTGRES, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _postgres_url(name: str) -> str:
    return POSTGRES.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (dropped at the end)."""
    name = f"shadowtable_test_{secrets.token_hex(4)}"
    try:
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
    except Exception as exc:  # noqa: BLE001 - unreachable server
        if os.environ.get("SHADOWTABLE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL at {POSTGRES} is required but not reachable: {exc}")
        pytest.skip(f"PostgreSQL at {POSTGRES} not reachable: {exc}")
    yield _postgres_url(name)
    with contextlib.suppress(Exception):  # best effort
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL of each kind the server supports."""
    if request.param == "sqlite":
        return str(tmp_path / "server.db")
    return str(request.getfixturevalue("postgres_database"))


@pytest.fixture
def sqlite_database(tmp_path: Path) -> str:
    return str(tmp_path / "server.db")


def config_for(database: str, **overrides: Any) -> ServerConfig:
    """A test configuration: bots in a thread, no bot pause, a fixed secret, WebSocket limits off."""
    values: dict[str, Any] = {
        "database": database,
        "secret": "test-secret",
        "bot_workers": 0,
        "bot_delay_s": 0.0,
        "grace_s": 60.0,
        "default_bot": "random",
        # the rate and count limits of the WebSocket path out of the way (their own tests set them)
        "ws_frame_rate": "100000 per second",
        "ws_ping_rate": "100000 per second",
        "ws_sync_rate": "100000 per second",
        "chat_rate": "100000 per second",
        "sockets_per_client": 100000,
    }
    values.update(overrides)
    return ServerConfig(**values)


@pytest.fixture
def serve(database: str) -> Callable[..., TestClient]:
    """``serve(**config)``: a started test client on ``database`` (use as a context manager)."""

    def start(**overrides: Any) -> TestClient:
        return TestClient(create_app(config_for(database, **overrides)), headers=BROWSER)

    return start
