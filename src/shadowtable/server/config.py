"""Server configuration: flags of ``shadowtable serve``, each with an environment variable."""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field
from pathlib import Path

from shadowtable.saves import data_dir

ENV_PREFIX = "SHADOWTABLE_"


@dataclass
class ServerConfig:
    """Everything the server reads at start (see ``docs/server.md``)."""

    database: str = ""
    """SQLite path or URL, or ``postgresql://...``; empty: ``server.db`` in the data folder."""
    secret: str = ""
    """The key seat tokens are signed with; empty: kept in ``server-secret`` in the data folder."""
    allowed_origins: list[str] = field(default_factory=list)
    """Origins (``https://host:port``) whose pages may open a WebSocket besides the server's own."""
    token_max_age_s: int = 30 * 24 * 3600
    grace_s: float = 60.0
    """How long a seat may be away before a bot takes it over."""
    bot_budget_s: float = 5.0
    """The time a bot has for one decision; past it the seat's move is a random legal one."""
    bot_workers: int = 1
    """Processes that run bots (0: a thread of the server process, for tests)."""
    default_bot: str = "heuristic"
    """The bot that takes over a seat whose player left or ran out of time."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite's ``synchronous``: NORMAL survives a killed server, FULL also a power cut."""
    max_frame: int = 64 * 1024
    """The largest WebSocket frame accepted, in bytes."""
    bot_delay_s: float = 0.0
    """A pause before each bot move, so people can follow (0 in tests)."""
    redis_url: str = ""
    """``redis://host:port/db`` carrying table events between server processes; empty: one process."""
    lease_s: float = 10.0
    """How long a process owns a table without renewing (a dead owner's tables move after this)."""
    ws_frame_rate: str = "20 per 2 seconds"
    """Frames one WebSocket may send (``limits`` notation); over it a frame is refused unprocessed
    (an ``act`` of the seat that decides now is never counted, pings have their own rate)."""
    ws_ping_rate: str = "100 per second"
    """Pings one WebSocket may send (answered with a constant ``pong``, so counted apart)."""
    ws_flood_factor: int = 3
    """A socket that sends this many times :attr:`ws_frame_rate` (or :attr:`ws_ping_rate`) in one
    window is closed (4429)."""
    ws_outbox_bytes: int = 16 * 1024 * 1024
    """Bytes queued for a socket that does not read before it is closed."""
    ws_outbox_messages: int = 2000
    """Messages queued for a socket that does not read before it is closed."""
    sockets_per_client: int = 32
    """Open WebSockets one client address may hold in this process; more are closed (4429)."""
    chat_rate: str = "5 per 10 seconds"
    """Chat lines one seat may send (``limits`` notation); more are refused with a retry hint."""
    process_id: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}")
    """This process's name in table leases (unique per start)."""

    def database_url(self) -> str:
        """The database to use (the default SQLite file in the data folder)."""
        return self.database or str(data_dir() / "server.db")

    def signing_secret(self) -> str:
        """:attr:`secret`, or the one kept in the data folder (created at first start, mode 600)."""
        if self.secret:
            return self.secret
        path = data_dir() / "server-secret"
        if path.exists():
            return path.read_text("utf-8").strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(secrets.token_urlsafe(32))
        return path.read_text("utf-8").strip()


def env_default(name: str, default: str = "") -> str:
    """``$SHADOWTABLE_<NAME>`` or ``default``."""
    return os.environ.get(ENV_PREFIX + name, default)


def data_path() -> Path:
    """The data folder the server keeps its default database and secret in."""
    return data_dir()
