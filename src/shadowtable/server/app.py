"""The FastAPI application: its state, its routers (the API in :mod:`shadowtable.server.routes`,
the pages in :mod:`shadowtable.web`), its middleware and its one error handler."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI

import shadowtable
from shadowtable.server.accounts import AccountMiddleware, Accounts
from shadowtable.server.analysis_jobs import AnalysisQueue
from shadowtable.server.api_docs import add_api_docs
from shadowtable.server.bots import runner_for
from shadowtable.server.config import ServerConfig
from shadowtable.server.failures import HANDLED, answer_error
from shadowtable.server.lab_runs import LabRuns
from shadowtable.server.limits import ClientLimits
from shadowtable.server.notify_links import NotifyLinks
from shadowtable.server.notify_sender import NotificationSender
from shadowtable.server.notify_settings import Notifications
from shadowtable.server.ratings import Ratings
from shadowtable.server.replays import FinishedTables
from shadowtable.server.routes import ROUTERS, learn, rules
from shadowtable.server.security import SecurityMiddleware
from shadowtable.server.service import TableService
from shadowtable.server.sizes import SizeLimits
from shadowtable.server.store import Store
from shadowtable.server.throttle import SocketCount
from shadowtable.server.tokens import SeatTokens
from shadowtable.server.worker_pool import WorkerPool
from shadowtable.web import account_pages, lab_pages, my_tables_pages, pages
from shadowtable.web.render import view_fragments, warm_pages
from shadowtable.web.responses import error_page

log = logging.getLogger("shadowtable.server")

DESCRIPTION = "Online play of The Shadow Planet and Shadowlord!: tables, seats, bots and the game protocol."


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server application for ``config`` (the defaults: SQLite in the data folder)."""
    config = config or ServerConfig()
    app = FastAPI(
        title="ShadowTable",
        version=shadowtable.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    set_state(app, config)
    if config.api_docs:
        add_api_docs(app)
    for router in ROUTERS:
        app.include_router(router)
    pages.mount_static(app)
    app.include_router(pages.router)
    app.include_router(account_pages.router)
    app.include_router(my_tables_pages.router)
    app.include_router(lab_pages.router)
    app.include_router(my_tables_pages.counts)
    app.include_router(rules.router)
    app.include_router(learn.router)
    for kind in HANDLED:
        app.add_exception_handler(kind, answer_error)
    app.add_middleware(AccountMiddleware, accounts=app.state.accounts, lab_allows=config.lab_allows)
    app.add_middleware(
        SecurityMiddleware,
        allowed_origins=config.allowed_origins,
        cookie_setting=config.secure_cookies,
        html_refusal=lambda why: error_page(403, why),
    )
    app.add_middleware(SizeLimits, max_body=config.max_body, max_header=config.max_header)  # outermost
    return app


def set_state(app: FastAPI, config: ServerConfig) -> None:
    """What the routes find on ``app.state`` (the table service itself once the server has started)."""
    state = app.state
    state.config = config
    state.accounts, state.ratings = Accounts(), Ratings()
    state.notifications = Notifications(config)
    state.limits = ClientLimits(config)
    state.finished = FinishedTables(lambda: state.service, config.replay_cache)
    state.workers = WorkerPool(config)
    state.analyses = AnalysisQueue(config, state.finished, workers=state.workers)
    state.lab = LabRuns(config, state.workers)
    state.sockets = SocketCount(config.sockets_per_client)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the database, the bot workers, the table service and the analyses; close them in turn
    at the end."""
    config: ServerConfig = app.state.config
    store = Store(config.database_url(), sqlite_synchronous=config.sqlite_synchronous)
    await store.open()
    bots = app.state.bots = runner_for(config)
    await bots.start()  # workers warm (games, bots, PyTorch) before the first request
    warm_pages()  # boards loaded and templates compiled: no first render holds up the event loop
    await warm_routes(app)
    service = await start_service(app, config, store)
    sender = app.state.notify_sender = start_notifications(app, config, store)
    service.notify_wake = sender.wake
    analyses: AnalysisQueue = app.state.analyses
    app.state.lab.open(store)
    analyses.start(store)  # the worker pool's slots take analyses and lab runs alike
    resumed = asyncio.ensure_future(service.resume_all())
    log.info("server started", extra={"event": "start"})
    if config.ready_message:
        print(config.ready_message, flush=True)
    try:
        yield
    finally:
        resumed.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await resumed  # a resume cut short by the stop: awaited, so no task outlives the server
        try:
            await analyses.stop()  # the worker pool's slots awaited, its workers killed: nothing outlives the server
            await service.stop()
        finally:
            await sender.stop()  # even if the service's stop failed: no loop outlives the server
        await app.state.ratings.drain()
        await store.close()
        bots.close()
        log.info("server stopped", extra={"event": "stop"})


async def warm_routes(app: FastAPI) -> None:
    """Answer one request for a path no route has, in this process, before the first client:
    FastAPI prepares a router's routes on the first request it matches against them (tens of
    milliseconds for the largest), and a path no route has is matched against every router."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": WARM_PATH,
        "raw_path": WARM_PATH.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
        "state": {},
    }

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: object) -> None:
        return None

    await app(scope, receive, send)


WARM_PATH = "/.warm-up"
"""A path no route answers (:func:`warm_routes`)."""


async def start_service(app: FastAPI, config: ServerConfig, store: Store) -> TableService:
    """The table service on ``store`` (``app.state.service``), with the accounts and ratings open on it."""
    tokens = SeatTokens(config.signing_secret(), config.token_max_age_s)
    service = app.state.service = TableService(config, store, tokens, app.state.bots, view_fragments)
    accounts: Accounts = app.state.accounts
    ratings: Ratings = app.state.ratings
    accounts.open(store, config.signing_secret())
    ratings.store = store
    service.on_over.append(ratings.table_over)
    await service.start()
    # what start-up made (modules, the app, the schema) lives as long as the server: kept out of
    # the garbage collector's full passes, which pause every connection while they run
    gc.collect()
    gc.freeze()
    await ratings.apply_pending()  # ends stored but not counted (the server stopped in between)
    return service


def start_notifications(app: FastAPI, config: ServerConfig, store: Store) -> NotificationSender:
    """The account settings of notifications open on ``store``, and their sender started."""
    links = NotifyLinks(config.signing_secret())
    notifications: Notifications = app.state.notifications
    sender = NotificationSender(config, store, links)
    notifications.open(store, links)
    notifications.wake = sender.wake
    sender.start()
    return sender
