"""The seat-cookie pile-up through nginx: one browser joining table after table keeps one bounded
cookie, so nginx never answers ``400 Request Header Or Cookie Too Large``."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from hostile.harness import Canary, Server
from server.cluster import free_port
from shadowtable.server.cookies import SEATS_COOKIE, parse_seats

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TABLES = 80


class Nginx:
    """nginx from ``docs/deploy/nginx.conf`` (as ``scripts/cluster.sh`` fills it in) in front of one server."""

    def __init__(self, folder: Path, server: Server) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.run = folder / "nginx"
        (self.run / "tmp").mkdir(parents=True)
        fields = {
            "@@USER@@": "user root;" if os.geteuid() == 0 else "",
            "@@RUN@@": str(self.run),
            "@@LISTEN@@": f"127.0.0.1:{self.port}",
            "@@SERVERS@@": f"        server 127.0.0.1:{server.port};",
        }
        lines = []
        for line in (ROOT / "docs/deploy/nginx.conf").read_text().splitlines():
            if not line.lstrip().startswith("#"):
                for field, value in fields.items():
                    line = line.replace(field, value)
            lines.append(line)
        config = self.run / "nginx.conf"
        config.write_text("\n".join(lines) + "\n")
        self.command = [NGINX, "-p", str(self.run), "-c", str(config), "-e", str(self.run / "nginx-error.log")]
        subprocess.run(self.command, check=True, timeout=30)

    def stop(self) -> None:
        subprocess.run([*self.command, "-s", "stop"], check=False, timeout=30)


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Callable[[Server], Nginx]]:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed")
    started: list[Nginx] = []

    def start(server: Server) -> Nginx:
        started.append(Nginx(tmp_path, server))
        return started[-1]

    yield start
    for proxy in started:
        proxy.stop()


async def open_tables(server: Server, count: int) -> list[str]:
    """``count`` open Shadow Planet tables, each made by a client of its own (no cookie kept)."""
    tables = []
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for i in range(count):
            http.cookies.clear()
            made = await http.post(
                "/api/tables",
                json={"game": "shadow-planet", "players": 3, "listed": False, "name": "Ada"},
                headers={"X-Forwarded-For": f"10.7.{i // 200}.{i % 200 + 1}"},
            )
            assert made.status_code == 201, made.text
            tables.append(made.json()["table"]["id"])
    return tables


def test_joining_many_tables_through_nginx_never_overflows_the_headers(
    live_server: Callable[..., Server], nginx: Callable[[Server], Nginx]
) -> None:
    # one browser joining many tables over days: the per-client join limits (tested elsewhere) are off
    server = live_server("--max-free-seats", "0", "--rate-joins", "0/minute")
    proxy = nginx(server)
    statuses: list[int] = []
    cookie_sizes: list[int] = []

    async def main() -> Canary:
        tables = await open_tables(server, TABLES)
        headers = {"Origin": proxy.url, "X-Forwarded-For": "10.6.6.6"}
        async with Canary(server) as canary, httpx.AsyncClient(base_url=proxy.url, headers=headers, timeout=30) as jar:
            for table in tables:  # one browser's cookie jar takes a seat at every table
                joined = await jar.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Joiner"})
                info = await jar.get(f"/api/tables/{table}")
                lobby = await jar.get("/")
                statuses.extend([joined.status_code, info.status_code, lobby.status_code])
                cookie_sizes.append(len(lobby.request.headers.get("cookie", "")))
                await asyncio.sleep(0.02)  # a person clicking quickly, not a flood (floods are other tests')
            page = await jar.get(f"/t/{tables[-1]}")  # the table page knows this browser's seat
            assert page.status_code == 200 and "you: Joiner</span>" in page.text
            held = parse_seats(jar.cookies.get(SEATS_COOKIE))
            assert list(held) == tables[-len(held) :] and 0 < len(held) < TABLES
        return canary

    canary = asyncio.run(main())
    assert statuses == [200] * (3 * TABLES), sorted(set(statuses))
    assert max(cookie_sizes) < 4096, max(cookie_sizes)
    assert canary.acks >= 20, canary.summary()
    assert canary.p99_ms() < canary.bound_ms(), canary.summary()
