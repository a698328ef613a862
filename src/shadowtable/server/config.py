"""Server configuration: flags of ``shadowtable serve``, each with an environment variable."""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shadowtable.saves import data_dir

ENV_PREFIX = "SHADOWTABLE_"
SECRET_MIN_BYTES = 32
"""The shortest signing secret accepted (the generated one is 43 characters)."""


def default_bot_workers() -> int:
    """One bot worker per core the server may use but one, and at least two: with a single worker,
    one table's search would hold every other table's bots."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(2, cores - 1)


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
    """The time a bot has for one decision, waiting for a worker included; past it the seat's move
    is a random legal one and a worker still deciding is killed and replaced."""
    bot_workers: int = field(default_factory=lambda: default_bot_workers())
    """Processes that run bots (default: the cores less one, at least 2; 0: a thread, for tests)."""
    default_bot: str = "heuristic"
    """The bot that takes over a seat whose player left or ran out of time: a bot level, or any bot
    spec (the operator's choice; clients only pick levels)."""
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
    ws_frame_rate: str = "20/2seconds"
    """Frames one WebSocket may send (``limits`` notation); over it a frame is refused unprocessed
    (an ``act`` of the seat that decides now is never counted, pings have their own rate)."""
    ws_ping_rate: str = "100/second"
    """Pings one WebSocket may send (answered with a constant ``pong``, so counted apart)."""
    ws_sync_rate: str = "10/10seconds"
    """``sync`` frames one client address may send over all its sockets (each is answered with a
    whole view, which may hold a long game's log and page: tens of kilobytes to compress and
    send); over it a ``sync`` is refused unprocessed.  The page never sends one."""
    ws_flood_factor: int = 3
    """A socket that sends this many times :attr:`ws_frame_rate` (or :attr:`ws_ping_rate`) in one
    window is closed (4429)."""
    ws_outbox_bytes: int = 16 * 1024 * 1024
    """Bytes queued for a socket that does not read before it is closed."""
    ws_outbox_messages: int = 2000
    """Messages queued for a socket that does not read before it is closed."""
    sockets_per_client: int = 32
    """Open WebSockets one client address may hold in this process; more are closed (4429)."""
    chat_rate: str = "5/10seconds"
    """Chat lines one seat may send (``limits`` notation); more are refused with a retry hint."""
    rate_tables: str = "20/minute;200/hour"
    """Tables one client may create (``count/period``, several joined by ``;``; empty: no limit)."""
    rate_joins: str = "30/minute"
    """Seats one client may take by joining."""
    rate_replays: str = "120/minute"
    """Replay pages and game records one client may ask for."""
    rate_logins: str = "10/minute"
    """Log-in attempts from one client."""
    rate_signups: str = "5/hour"
    """Accounts one client may make."""
    rate_login_failures: str = "5/15minutes"
    """Wrong passwords for one account name, from anywhere; past them that name's log-in is refused."""
    max_open_tables: int = 5
    """Tables one client created that have not started (0: no limit)."""
    max_free_seats: int = 8
    """Seats one client took by joining at tables that have not started (0: no limit)."""
    max_body: int = 64 * 1024
    """The largest request body accepted, in bytes (0: no limit)."""
    max_header: int = 16 * 1024
    """The largest request head (request line and headers) accepted, in bytes (0: no limit)."""
    replay_cache: int = 32
    """Finished tables whose replay (checkpoints and each audience's log) is kept in memory."""
    process_id: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}")
    """This process's name in table leases (unique per start)."""
    secure_cookies: str = "auto"
    """``Secure`` on cookies: ``auto`` (served over TLS, or X-Forwarded-Proto https), ``always``, ``never``."""
    api_docs: bool = False
    """Serve the interactive API documentation at ``/docs`` (``/openapi.json`` is always served)."""
    seat_cookie_max: int = 20
    """The most seats one browser's seat cookie holds (the oldest is dropped past it)."""
    seat_cookie_keep_s: float = 900.0
    """How long after a game ends the seat cookie still holds its seat (for the rematch)."""
    rematch_keep_s: float = 600.0
    """How long a rematch keeps each seat for the player who held it in the finished game (until
    they take it or decline); then anyone may take it."""
    base_url: str = ""
    """The address players open the server at (``https://play.example.org``): the links in e-mails
    and webhooks; empty: no notifications are sent."""
    smtp_host: str = ""
    """The SMTP server notifications are mailed through; empty: no e-mail is sent."""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = ""
    """The sender address of every mail (``ShadowTable <games@example.org>``)."""
    smtp_starttls: bool = True
    """Upgrade the SMTP connection with STARTTLS (off only for a local relay or tests)."""
    smtp_timeout_s: float = 20.0
    """How long one mail may take to hand over; past it the mail stays queued and is tried again."""
    webhook_local: bool = False
    """Accept ``http://`` webhooks to this machine (127.0.0.1, localhost): for tests and a local
    bridge only, since a player could otherwise make the server post to its own private services."""
    webhook_timeout_s: float = 5.0
    """How long one webhook call may take; past it it stays queued and is tried again."""
    notify_poll_s: float = 5.0
    """How often the queue of notifications is looked at when no move woke the sender."""
    notify_retry_s: float = 30.0
    """The first wait after a failed delivery; it doubles with each failure up to :attr:`notify_retry_max_s`."""
    notify_retry_max_s: float = 3600.0
    notify_concurrency: int = 4
    """Deliveries under way at once (all accounts together)."""
    notify_account_hourly: int = 30
    """Notifications one account is sent per hour at most; more wait their turn in the queue."""
    notify_account_queue: int = 100
    """Notifications that may wait for one account; past it new ones for it are not queued."""

    analysis_workers: int = 1
    """Processes that analyse finished games (at the lowest priority, :attr:`analysis_nice`); 0:
    no analysis is offered by this process (a request is refused with 503)."""
    analysis_budget_s: float = 90.0
    """Seconds one game's analysis may spend, its decisions and its deduction panel together, all
    seats (0: no bound); a 3-player game of The Shadow Planet at 16 rollouts would otherwise take
    about six minutes of one core."""
    analysis_rollouts: int = 8
    """Rollouts per legal alternative at each decision, at most (the budget may stop it sooner)."""
    analysis_policy: str = "heuristic"
    """The bot every seat plays in the analysis's rollouts."""
    analysis_queue_max: int = 50
    """Analyses queued or running at once, every process together; past it a request is refused
    (503 with a retry hint)."""
    analysis_attempts: int = 3
    """Times an analysis is started before it is given up as failed (a worker killed, a process
    that died holding it)."""
    analysis_lease_s: float = 60.0
    """How long a process holds a running analysis without renewing it; past it another process
    starts it again (its owner died)."""
    analysis_poll_s: float = 2.0
    """How often an idle analysis worker looks for queued analyses (one queued here wakes it at once)."""
    analysis_progress_s: float = 1.0
    """Seconds between two reports of a running analysis's progress, at least (a worker sends it
    after each decision or belief, this often at most; the job stores it as often)."""
    analysis_nice: int = 19
    """The niceness of the analysis worker processes (19: they take only the CPU nothing else wants)."""
    analysis_idle: bool = True
    """Whether the analysis worker processes are also put in Linux's idle scheduling class
    (``SCHED_IDLE``: a process sharing their core takes it back as soon as it wakes). A machine
    kept busy by other work of its own, such as a test suite, may never give them a core."""
    rate_analyses: str = "10/minute;60/hour"
    """Analyses one client may ask for (``POST /api/tables/{id}/analysis``)."""
    rate_analysis_reads: str = "240/minute"
    """Reads of an analysis's status and result one client may make (a page polls it)."""
    lab_accounts: list[str] = field(default_factory=list)
    """Account names that may use the designer's lab (``*``: every signed-in account); empty:
    nobody (``shadowtable serve --lab-account NAME``, repeatable; ``bash start.sh`` passes ``*``)."""
    lab_max_runs: int = 20
    """Lab runs one account may keep stored (the oldest finished one must be deleted first)."""
    lab_max_games: int = 5000
    """Games per arm one lab run may ask for, at most (the lab's own bound applies too)."""
    lab_chunk: int = 10
    """Games a worker plays in one piece of a lab run (progress is stored after each)."""
    rate_lab_runs: str = "10/minute;60/hour"
    """Lab runs one client may start or resume."""
    rate_lab_reads: str = "240/minute"
    """Reads of lab runs one client may make (a run's page polls it)."""
    max_turn_tables: int = 20
    """Turn-based tables not over that one account (or one browser's guest seats) may sit at (0: no limit)."""
    turn_check_s: float = 60.0
    """The longest a turn-based table's timer sleeps before it reads :attr:`now` again (a deadline
    is an absolute time: a clock set forward, or a restart, is seen within this)."""
    now: Callable[[], float] = field(default=time.time, repr=False)
    """The wall clock turn-based deadlines are read against (tests pass one they move forward)."""

    ready_message: str = ""
    """Printed on standard output once the server is ready to answer (``shadowtable serve``: the
    address to open)."""

    def database_url(self) -> str:
        """The database to use (the default SQLite file in the data folder)."""
        return self.database or str(data_dir() / "server.db")

    def lab_allows(self, account_name: str | None) -> bool:
        """Whether the signed-in account ``account_name`` may use the lab (``None``: a guest, never)."""
        if account_name is None:
            return False
        return "*" in self.lab_accounts or account_name.casefold() in {n.casefold() for n in self.lab_accounts}

    def mail_problem(self) -> str | None:
        """Why no e-mail is sent (``None``: it is)."""
        if not self.base_url:
            return "no base URL (--base-url) for the links"
        if not self.smtp_host:
            return "no SMTP server (--smtp-host)"
        if not self.smtp_from:
            return "no sender address (--smtp-from)"
        return None

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
