"""``shadowtable serve``: the game server, configured by options or ``SHADOWTABLE_*`` variables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer

from shadowtable.cli.errors import web_extra_missing


def _setting(name: str, text: str, **limits: Any) -> Any:
    """An option (help ``text``) also read from the environment variable ``SHADOWTABLE_<name>``."""
    return typer.Option(envvar=f"SHADOWTABLE_{name}", help=text, **limits)


Host = Annotated[str, _setting("HOST", "address to listen on")]
Port = Annotated[int, _setting("PORT", "port to listen on", min=0, max=65535)]
Database = Annotated[
    str,
    _setting("DATABASE", "a SQLite file or URL, or postgresql://user@host/db (default: server.db in the data folder)"),
]
AllowedOrigin = Annotated[
    list[str] | None, _setting("ALLOWED_ORIGINS", "another origin whose pages may connect (repeatable)")
]
Grace = Annotated[float, _setting("GRACE", "seconds a player may be away before a bot takes over", min=0)]
BotBudget = Annotated[float, _setting("BOT_BUDGET", "seconds a bot may think per move", min=0.01)]
BotWorkers = Annotated[
    int | None,
    _setting("BOT_WORKERS", "processes that run bots (default: the cores less one, at least 2; 0: a thread)", min=0),
]
AnalysisWorkers = Annotated[
    int,
    _setting("ANALYSIS_WORKERS", "processes that analyse finished games, at the lowest priority (0: none)", min=0),
]
LabAccount = Annotated[
    list[str] | None,
    _setting(
        "LAB_ACCOUNTS",
        "an account that may use the designer's lab (repeatable; * = every signed-in account; default: nobody)",
    ),
]
LabMaxRuns = Annotated[int | None, _setting("LAB_MAX_RUNS", "lab runs one account may keep stored [20]", min=0)]
LabMaxGames = Annotated[int | None, _setting("LAB_MAX_GAMES", "games per arm of one lab run, at most [5000]", min=1)]
AnalysisBudget = Annotated[
    float, _setting("ANALYSIS_BUDGET", "seconds of search one game's analysis may spend (0: no bound)", min=0)
]
BotDelay = Annotated[float, _setting("BOT_DELAY", "seconds a bot waits before moving, so people can follow", min=0)]
DefaultBot = Annotated[
    str, _setting("DEFAULT_BOT", "the bot that takes over a seat: a bot level (or level0-level2), or any bot spec")
]
SqliteSync = Annotated[str, _setting("SQLITE_SYNC", "SQLite synchronous: NORMAL or FULL")]
LogLevel = Annotated[str, _setting("LOG_LEVEL", "debug, info, warning or error")]
Redis = Annotated[
    str, _setting("REDIS", "redis://host:port/db joining several server processes on one PostgreSQL database")
]
Lease = Annotated[float, _setting("LEASE", "seconds a process owns a table without renewing (failover time)", min=1)]
FrameRate = Annotated[
    str, _setting("WS_FRAME_RATE", "frames one WebSocket may send, e.g. 20/2seconds (more are refused; 3x: closed)")
]
ChatRate = Annotated[str, _setting("CHAT_RATE", "chat lines one seat may send, e.g. 5/10seconds")]
SocketsPerClient = Annotated[int, _setting("SOCKETS_PER_CLIENT", "open WebSockets per client address", min=1)]
MaxBody = Annotated[int | None, _setting("MAX_BODY", "largest request body, bytes [65536]", min=0)]
MaxHeader = Annotated[int | None, _setting("MAX_HEADER", "largest request head, bytes [16384]", min=0)]
MaxOpenTables = Annotated[
    int | None, _setting("MAX_OPEN_TABLES", "not started tables one client may create [5]", min=0)
]
MaxFreeSeats = Annotated[
    int | None, _setting("MAX_FREE_SEATS", "seats one client may take at not started tables [8]", min=0)
]
MaxTurnTables = Annotated[
    int | None, _setting("MAX_TURN_TABLES", "turn-based tables one account or browser may sit at [20]", min=0)
]
RateTables = Annotated[str | None, _setting("RATE_TABLES", "tables per client [20/minute;200/hour]")]
RateJoins = Annotated[str | None, _setting("RATE_JOINS", "joins per client [30/minute]")]
RateReplays = Annotated[str | None, _setting("RATE_REPLAYS", "replays and records per client [120/minute]")]
RateAnalyses = Annotated[
    str | None, _setting("RATE_ANALYSES", "analyses of finished games asked for per client [10/minute;60/hour]")
]
AnalysisQueueMax = Annotated[
    int | None, _setting("ANALYSIS_QUEUE_MAX", "analyses queued or running at once, every process [50]", min=0)
]
RateLogins = Annotated[str | None, _setting("RATE_LOGINS", "log-in attempts per client [10/minute]")]
RateSignups = Annotated[str | None, _setting("RATE_SIGNUPS", "accounts made per client [5/hour]")]
RateLoginFailures = Annotated[
    str | None, _setting("RATE_LOGIN_FAILURES", "wrong passwords per account name [5/15minutes]")
]
SecureCookies = Annotated[
    str, _setting("SECURE_COOKIES", "Secure cookies: auto (when served over TLS), always or never")
]
ApiDocs = Annotated[bool, _setting("API_DOCS", "serve the interactive API documentation at /docs")]
BaseUrl = Annotated[
    str, _setting("BASE_URL", "the address players open, e.g. https://play.example.org (links in notifications)")
]
SmtpHost = Annotated[str, _setting("SMTP_HOST", "the SMTP server turn mails go through (empty: no e-mail)")]
SmtpPort = Annotated[int, _setting("SMTP_PORT", "the SMTP server's port", min=1, max=65535)]
SmtpUser = Annotated[str, _setting("SMTP_USER", "the SMTP user name (the password: $SHADOWTABLE_SMTP_PASSWORD)")]
SmtpFrom = Annotated[str, _setting("SMTP_FROM", "the sender of every mail, e.g. ShadowTable <games@example.org>")]
SmtpStarttls = Annotated[bool, _setting("SMTP_STARTTLS", "upgrade the SMTP connection with STARTTLS")]

LIMITS = (
    "max_body",
    "max_header",
    "max_open_tables",
    "max_free_seats",
    "max_turn_tables",
    "rate_tables",
    "rate_joins",
    "rate_replays",
    "rate_analyses",
    "analysis_queue_max",
    "lab_max_runs",
    "lab_max_games",
    "rate_logins",
    "rate_signups",
    "rate_login_failures",
)
"""The request and rate limits; each left unset keeps the server's default."""


@dataclass(frozen=True)
class ServeSettings:
    """The ``serve`` command's parameters, one field each (Click fills them by name)."""

    host: str = "127.0.0.1"
    port: int = 8000
    database: str = ""
    allowed_origin: list[str] | None = None
    grace: float = 60.0
    bot_budget: float = 5.0
    bot_workers: int | None = None
    analysis_workers: int = 1
    lab_account: list[str] | None = None
    lab_max_runs: int | None = None
    lab_max_games: int | None = None
    analysis_budget: float = 90.0
    bot_delay: float = 0.5
    default_bot: str = "heuristic"
    sqlite_sync: str = "NORMAL"
    log_level: str = "info"
    redis: str = ""
    lease: float = 10.0
    ws_frame_rate: str = "20/2seconds"
    chat_rate: str = "5/10seconds"
    sockets_per_client: int = 32
    max_body: int | None = None
    max_header: int | None = None
    max_open_tables: int | None = None
    max_free_seats: int | None = None
    max_turn_tables: int | None = None
    rate_tables: str | None = None
    rate_joins: str | None = None
    rate_replays: str | None = None
    rate_analyses: str | None = None
    analysis_queue_max: int | None = None
    rate_logins: str | None = None
    rate_signups: str | None = None
    rate_login_failures: str | None = None
    secure_cookies: str = "auto"
    api_docs: bool = False
    base_url: str = ""
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_from: str = ""
    smtp_starttls: bool = True

    def limits(self) -> dict[str, Any]:
        """The limits given, by name."""
        return {name: getattr(self, name) for name in LIMITS if getattr(self, name) is not None}


def serve(
    ctx: typer.Context,
    host: Host = "127.0.0.1",
    port: Port = 8000,
    database: Database = "",
    allowed_origin: AllowedOrigin = None,
    grace: Grace = 60.0,
    bot_budget: BotBudget = 5.0,
    bot_workers: BotWorkers = None,
    analysis_workers: AnalysisWorkers = 1,
    lab_account: LabAccount = None,
    lab_max_runs: LabMaxRuns = None,
    lab_max_games: LabMaxGames = None,
    analysis_budget: AnalysisBudget = 90.0,
    bot_delay: BotDelay = 0.5,
    default_bot: DefaultBot = "heuristic",
    sqlite_sync: SqliteSync = "NORMAL",
    log_level: LogLevel = "info",
    redis: Redis = "",
    lease: Lease = 10.0,
    ws_frame_rate: FrameRate = "20/2seconds",
    chat_rate: ChatRate = "5/10seconds",
    sockets_per_client: SocketsPerClient = 32,
    max_body: MaxBody = None,
    max_header: MaxHeader = None,
    max_open_tables: MaxOpenTables = None,
    max_free_seats: MaxFreeSeats = None,
    max_turn_tables: MaxTurnTables = None,
    rate_tables: RateTables = None,
    rate_joins: RateJoins = None,
    rate_replays: RateReplays = None,
    rate_analyses: RateAnalyses = None,
    analysis_queue_max: AnalysisQueueMax = None,
    rate_logins: RateLogins = None,
    rate_signups: RateSignups = None,
    rate_login_failures: RateLoginFailures = None,
    secure_cookies: SecureCookies = "auto",
    api_docs: ApiDocs = False,
    base_url: BaseUrl = "",
    smtp_host: SmtpHost = "",
    smtp_port: SmtpPort = 587,
    smtp_user: SmtpUser = "",
    smtp_from: SmtpFrom = "",
    smtp_starttls: SmtpStarttls = True,
) -> None:
    """Run the game server: tables, seats and bots over HTTP and WebSockets (needs the server
    extra: pip install "shadowtable\\[web]").

    The token signing key comes from $SHADOWTABLE_SECRET, else a file kept in the data folder."""
    start_server(ServeSettings(**ctx.params))


def start_server(settings: ServeSettings) -> None:
    """Run the server (:func:`shadowtable.server.run.serve`) with the settings as its options."""
    try:
        from shadowtable.bots.ladder import level_name
        from shadowtable.server.run import ServeOptions
        from shadowtable.server.run import serve as run_server
    except ImportError as exc:
        raise web_extra_missing("the server needs", exc) from exc
    run_server(
        ServeOptions(
            host=settings.host,
            port=settings.port,
            database=settings.database,
            allowed_origins=list(settings.allowed_origin or []),
            grace_s=settings.grace,
            bot_budget_s=settings.bot_budget,
            bot_workers=settings.bot_workers,
            analysis_workers=settings.analysis_workers,
            lab_accounts=list(settings.lab_account or []),
            analysis_budget_s=settings.analysis_budget,
            bot_delay_s=settings.bot_delay,
            default_bot=level_name(settings.default_bot) or settings.default_bot,  # level2 names the level
            sqlite_synchronous=settings.sqlite_sync,
            log_level=settings.log_level,
            redis_url=settings.redis,
            lease_s=settings.lease,
            ws_frame_rate=settings.ws_frame_rate,
            chat_rate=settings.chat_rate,
            sockets_per_client=settings.sockets_per_client,
            limits=settings.limits(),
            secure_cookies=settings.secure_cookies,
            api_docs=settings.api_docs,
            base_url=settings.base_url,
            smtp_host=settings.smtp_host,
            smtp_port=settings.smtp_port,
            smtp_user=settings.smtp_user,
            smtp_from=settings.smtp_from,
            smtp_starttls=settings.smtp_starttls,
        )
    )
