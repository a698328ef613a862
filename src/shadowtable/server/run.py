"""``shadowtable serve``: check the settings, open the database, then run uvicorn."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from shadowtable.core.errors import ShadowTableError
from shadowtable.server.api_docs import ApiDocsUnavailable, swagger_assets
from shadowtable.server.bot_levels import check_default_bot
from shadowtable.server.config import SECRET_MIN_BYTES, ServerConfig, default_bot_workers
from shadowtable.server.limits import LIMIT_FIELDS, rate_items
from shadowtable.server.notify_sender import startup_lines
from shadowtable.server.security import SECURE_COOKIES
from shadowtable.server.store import Store, shown_url
from shadowtable.server.throttle import rate

SYNC_MODES = ("NORMAL", "FULL")
LOG_LEVELS = ("debug", "info", "warning", "error")


class ServeError(ShadowTableError):
    """A server setting that cannot work (a taken port, a database that does not open)."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    database: str = ""
    allowed_origins: list[str] = field(default_factory=list)
    grace_s: float = 60.0
    bot_budget_s: float = 5.0
    bot_workers: int | None = None
    analysis_workers: int = 1
    lab_accounts: list[str] = field(default_factory=list)
    """Account names that may use the designer's lab (``*``: every signed-in account)."""
    analysis_budget_s: float = 90.0
    bot_delay_s: float = 0.5
    default_bot: str = "heuristic"
    sqlite_synchronous: str = "NORMAL"
    log_level: str = "info"
    redis_url: str = ""
    lease_s: float = 10.0
    ws_frame_rate: str = "20/2seconds"
    chat_rate: str = "5/10seconds"
    sockets_per_client: int = 32
    limits: dict[str, str | int] = field(default_factory=dict)
    """Per-client and size limits: :class:`ServerConfig` field -> value (unset: the default)."""
    secure_cookies: str = "auto"
    api_docs: bool = False
    base_url: str = ""
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_from: str = ""
    smtp_starttls: bool = True


def check_base_url(url: str) -> str:
    """``url`` without a trailing ``/``; :class:`ServeError` unless it is an http(s) address."""
    parts = urlsplit(url)
    if url and (parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment):
        raise ServeError(f"--base-url must be an address like https://play.example.org, got {url[:60]!r}")
    return url.rstrip("/")


def config_from(options: ServeOptions) -> ServerConfig:
    """The server configuration of ``options``; :class:`ServeError` for a bad value."""
    sync = options.sqlite_synchronous.upper()
    if sync not in SYNC_MODES:
        raise ServeError(f"--sqlite-sync must be NORMAL or FULL, got {options.sqlite_synchronous[:20]!r}")
    if options.log_level.lower() not in LOG_LEVELS:
        raise ServeError(f"--log-level must be one of {', '.join(LOG_LEVELS)}")
    check_default_bot(options.default_bot)
    if options.redis_url and not options.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ServeError("--redis must be a redis://host:port/db address")
    if options.redis_url and not options.database.startswith("postgresql"):
        raise ServeError("--redis joins several processes: they need a shared --database postgresql://...")
    for flag, value in (("--ws-frame-rate", options.ws_frame_rate), ("--chat-rate", options.chat_rate)):
        try:
            rate(value)
        except ValueError as exc:
            raise ServeError(f"{flag}: {exc}") from None
    if options.sockets_per_client < 1:
        raise ServeError("--sockets-per-client must be at least 1")
    check_limits(options.limits)
    if options.secure_cookies not in SECURE_COOKIES:
        raise ServeError(f"--secure-cookies must be one of {', '.join(SECURE_COOKIES)}")
    if options.api_docs:
        try:
            swagger_assets()
        except ApiDocsUnavailable as exc:
            raise ServeError(str(exc)) from exc
    origins = [o.strip().rstrip("/") for item in options.allowed_origins for o in item.split(",") if o.strip()]
    return ServerConfig(
        database=options.database,
        secret=os.environ.get("SHADOWTABLE_SECRET", ""),
        allowed_origins=origins,
        grace_s=options.grace_s,
        bot_budget_s=options.bot_budget_s,
        bot_workers=default_bot_workers() if options.bot_workers is None else options.bot_workers,
        analysis_workers=options.analysis_workers,
        lab_accounts=[name.strip() for name in options.lab_accounts if name.strip()],
        analysis_budget_s=options.analysis_budget_s,
        bot_delay_s=options.bot_delay_s,
        default_bot=options.default_bot,
        sqlite_synchronous=sync,
        redis_url=options.redis_url,
        lease_s=options.lease_s,
        secure_cookies=options.secure_cookies,
        api_docs=options.api_docs,
        ws_frame_rate=options.ws_frame_rate,
        chat_rate=options.chat_rate,
        sockets_per_client=options.sockets_per_client,
        base_url=check_base_url(options.base_url),
        smtp_host=options.smtp_host,
        smtp_port=options.smtp_port,
        smtp_user=options.smtp_user,
        smtp_password=os.environ.get("SHADOWTABLE_SMTP_PASSWORD", ""),
        smtp_from=options.smtp_from,
        smtp_starttls=options.smtp_starttls,
        **options.limits,  # type: ignore[arg-type]
    )


def check_limits(limits: dict[str, str | int]) -> None:
    """:class:`ServeError` for a limit that is not one, or a value that does not fit it."""
    for name, value in limits.items():
        kind = LIMIT_FIELDS.get(name)
        if kind is None:
            raise ServeError(f"no limit is called {name!r}")
        if kind is int and (not isinstance(value, int) or value < 0):
            raise ServeError(f"--{name.replace('_', '-')} must be a whole number, 0 or more")
        if kind is str:
            try:
                rate_items(str(value))
            except ValueError as exc:
                raise ServeError(f"--{name.replace('_', '-')}: {exc}") from None


def check_secret(config: ServerConfig) -> None:
    """:class:`ServeError` unless the signing secret is at least :data:`SECRET_MIN_BYTES` long."""
    if len(config.signing_secret().encode()) < SECRET_MIN_BYTES:
        raise ServeError(
            f"the signing secret (SHADOWTABLE_SECRET or server-secret in the data folder) is shorter than "
            f"{SECRET_MIN_BYTES} bytes: use a long random one, e.g. python -c 'import secrets; "
            f"print(secrets.token_urlsafe(32))'"
        )


async def _check_database(config: ServerConfig) -> None:
    store = Store(config.database_url(), sqlite_synchronous=config.sqlite_synchronous)
    await store.open()  # applies the migrations; raises StoreError with the reason
    await store.close()


def _check_port(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            why = "it is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
            raise ServeError(f"cannot listen on {host}:{port}: {why} (choose another with --port)") from exc


def serve(options: ServeOptions) -> None:
    """Run the server until interrupted (Ctrl+C or SIGTERM finish the writes first)."""
    import uvicorn

    from shadowtable.server import logs
    from shadowtable.server.app import create_app

    config = config_from(options)
    check_secret(config)
    asyncio.run(_check_database(config))
    _check_port(options.host, options.port)
    logs.configure(options.log_level)
    shown_host = f"[{options.host}]" if ":" in options.host else options.host
    print("ShadowTable server: starting (the bot workers load first, a few seconds)...", flush=True)
    config.ready_message = (
        f"ShadowTable server: open http://{shown_host}:{options.port}/ (database: {shown_url(config.database_url())})"
        "\nStop it with Ctrl+C." + "".join(f"\nShadowTable server: {line}" for line in startup_lines(config))
    )
    uvicorn.run(
        create_app(config),
        host=options.host,
        port=options.port,
        log_config=None,
        ws_max_size=config.max_frame,
        http="h11",  # h11 bounds a request's head (httptools would buffer any size)
        h11_max_incomplete_event_size=config.max_header or None,
        timeout_graceful_shutdown=10,
        access_log=True,
    )
