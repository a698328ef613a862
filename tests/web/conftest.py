"""Fixtures for the browser pages: a real server on a free port, and Debian's Chromium.

Browser tests skip where Chromium or Playwright is missing, unless ``SHADOWTABLE_REQUIRE_BROWSER``
is set (CI sets it, so a missing browser fails loudly there)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.cluster import free_port
from server.wire import BROWSER
from serving import source_path, wait_healthy

CHROMIUM = os.environ.get("SHADOWTABLE_CHROMIUM", "/usr/bin/chromium")


class LiveServer:
    """``shadowtable serve`` in a subprocess, on SQLite in a temporary folder, running the
    ``shadowtable`` these tests import."""

    def __init__(self, folder: Path, **settings: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "SHADOWTABLE_DATA_DIR": str(folder),
            "SHADOWTABLE_SECRET": "browser-tests-secret-of-at-least-32-bytes",
            "SHADOWTABLE_BOT_DELAY": str(settings.get("bot_delay", 0)),
            "SHADOWTABLE_BOT_WORKERS": "0",
            "SHADOWTABLE_GRACE": str(settings.get("grace", 1.0)),
            "SHADOWTABLE_LOG_LEVEL": "warning",
            "PYTHONPATH": source_path(),
        }
        self.log = (folder / "server.log").open("w")
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("shadowtable")), "serve", "--port", str(self.port)],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_healthy(self.url, self.process, lambda: (folder / "server.log").read_text())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """The server's pages and API in process (FastAPI's test client) on SQLite in a temporary folder."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from server.conftest import config_for
    from shadowtable.server.app import create_app

    app = create_app(config_for(f"sqlite:///{tmp_path / 'pages.db'}"))
    with TestClient(app, base_url="http://testserver", headers=BROWSER) as test_client:
        yield test_client


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []

    def start(**settings: Any) -> LiveServer:
        server = LiveServer(tmp_path, **settings)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def _browser_missing() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt install chromium)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module: Playwright's sync API runs an event loop in the test
    thread while it is open, and a test that calls ``asyncio.run`` later in the same worker
    (the terminal app's, say) would find it running."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("SHADOWTABLE_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests are required here: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """Every page a browser test opens runs under the Content-Security-Policy without a refusal."""
    from web.driver import CSP_VIOLATIONS

    CSP_VIOLATIONS.clear()
    yield
    assert not CSP_VIOLATIONS, f"Content-Security-Policy violations: {CSP_VIOLATIONS[:3]}"
