"""Per-client limits over HTTP: rates (tables, joins, replays, log-in, sign-up) and counts (open
tables, free seats), each refused with 429, ``Retry-After`` and words; request size limits."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.account_helpers import PASSWORD
from server.conftest import config_for
from shadowtable.server.app import create_app
from shadowtable.server.sizes import SizeLimits

TINY = {"game": "tiny-showdown", "players": 2}


class ClientFromHeader:
    """The app, seeing each request as coming from its ``X-Test-Client`` address (one test client
    stands for several)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in {"http", "websocket"}:
            address = dict(scope["headers"]).get(b"x-test-client", b"10.0.0.1").decode()
            scope = {**scope, "client": (address, 50000)}
        await self.app(scope, receive, send)


class As:
    """Requests through ``http`` from ``address``."""

    def __init__(self, http: TestClient, address: str) -> None:
        self.http, self.address = http, address

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.http.get(url, headers={"X-Test-Client": self.address, **kwargs.pop("headers", {})}, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        self.http.cookies.clear()  # each stands for a browser of its own
        return self.http.post(url, headers={"X-Test-Client": self.address, **kwargs.pop("headers", {})}, **kwargs)


@pytest.fixture
def served(sqlite_database: str) -> Iterator[Any]:
    """``served(**config)``: a started test client of an app with that configuration."""
    started: list[TestClient] = []

    def start(**overrides: Any) -> TestClient:
        http = TestClient(ClientFromHeader(create_app(config_for(sqlite_database, **overrides))))
        started.append(http.__enter__())
        return http

    yield start
    for http in started:
        http.__exit__(None, None, None)


def assert_limited(answer: Any, words: str) -> None:
    """A 429 with a retry hint in its header and its words."""
    assert answer.status_code == 429, answer.text
    wait = int(answer.headers["retry-after"])
    assert wait >= 1
    text = answer.json()["error"] if answer.headers["content-type"].startswith("application/json") else answer.text
    assert words in text and f"try again in {wait} s" in text, text


def finished_table(test_client: Any) -> str:
    made = test_client.post("/api/tables", json={**TINY, "seats": ["bot:random"] * 2, "sit": False})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    for _ in range(500):
        if test_client.get(f"/api/tables/{table_id}").json()["status"] == "over":
            return table_id
        time.sleep(0.01)
    raise AssertionError("the bots' game did not end")


# -- rates ------------------------------------------------------------------------------------------
def test_table_creation_is_rate_limited_per_client_in_the_api_and_the_form(served: Any) -> None:
    http = served(rate_tables="3/minute", max_open_tables=0)
    one, other = As(http, "10.0.0.1"), As(http, "10.0.0.2")
    for _ in range(3):
        assert one.post("/api/tables", json=TINY).status_code == 201
    assert_limited(one.post("/api/tables", json=TINY), "too many tables created from your address")
    form = {"game": "tiny-showdown", "players": "2", "name": "Ann"}
    assert_limited(one.post("/tables", data=form, follow_redirects=False), "too many tables")
    assert other.post("/api/tables", json=TINY).status_code == 201, "another client is not limited"
    assert other.post("/tables", data=form, follow_redirects=False).status_code == 303


def test_joins_are_rate_limited_per_client(served: Any) -> None:
    http = served(rate_joins="2/minute", max_free_seats=0)
    host, joiner = As(http, "10.0.0.9"), As(http, "10.0.0.1")
    tables = [host.post("/api/tables", json={**TINY, "players": 3, "game": "tiny-showdown"}) for _ in range(3)]
    ids = [t.json()["table"]["id"] for t in tables if t.status_code == 201]
    assert len(ids) == 3, [t.text for t in tables]
    for table_id in ids[:2]:
        assert joiner.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    assert_limited(joiner.post(f"/api/tables/{ids[2]}/join", json={}), "too many seats taken")
    page = joiner.post(f"/t/{ids[2]}/join", data={}, follow_redirects=False)
    assert_limited(page, "too many seats taken")


def test_records_and_replay_pages_are_rate_limited_per_client(served: Any) -> None:
    http = served(rate_replays="3/minute")
    viewer = As(http, "10.0.0.1")
    table_id = finished_table(viewer)
    assert viewer.get(f"/api/tables/{table_id}/record").status_code == 200
    assert viewer.get(f"/replay/{table_id}").status_code == 200
    assert viewer.get(f"/replay/{table_id}", params={"step": "end"}).status_code == 200
    assert_limited(viewer.get(f"/api/tables/{table_id}/record"), "too many replays")
    assert_limited(viewer.get(f"/replay/{table_id}"), "too many replays")


def test_log_in_attempts_are_rate_limited_per_client(served: Any) -> None:
    http = served(rate_logins="3/minute", rate_login_failures="")
    guesser = As(http, "10.0.0.1")
    for _ in range(3):
        assert guesser.post("/api/session", json={"name": "nobody", "password": "x" * 10}).status_code == 403
    assert_limited(guesser.post("/api/session", json={"name": "nobody", "password": "x" * 10}), "log-in")
    page = guesser.post("/login", data={"name": "nobody", "password": "x" * 10}, follow_redirects=False)
    assert_limited(page, "too many log-in attempts")


def test_wrong_passwords_for_one_account_lock_its_log_in_from_every_client(served: Any) -> None:
    http = served(rate_login_failures="3/15minutes", rate_logins="")
    owner = As(http, "10.0.0.5")
    assert owner.post("/api/accounts", json={"name": "Ada", "password": PASSWORD}).status_code == 201
    assert owner.post("/api/accounts", json={"name": "Bea", "password": PASSWORD}).status_code == 201
    for i in range(3):
        guesser = As(http, f"10.1.0.{i}")
        wrong = guesser.post("/api/session", json={"name": "ada", "password": f"guess {i} wrong"})
        assert wrong.status_code == 403
    guesser = As(http, "10.1.1.1")
    assert_limited(guesser.post("/api/session", json={"name": "ADA", "password": PASSWORD}), "wrong passwords")
    page = guesser.post("/login", data={"name": "Ada", "password": PASSWORD}, follow_redirects=False)
    assert_limited(page, "wrong passwords for this account")
    assert guesser.post("/api/session", json={"name": "Bea", "password": PASSWORD}).status_code == 200


def test_account_creation_is_rate_limited_per_client(served: Any) -> None:
    http = served(rate_signups="2/hour")
    maker = As(http, "10.0.0.1")
    for name in ("Ann", "Bob"):
        assert maker.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    assert_limited(maker.post("/api/accounts", json={"name": "Cid", "password": PASSWORD}), "accounts made")
    page = maker.post("/signup", data={"name": "Dee", "password": PASSWORD}, follow_redirects=False)
    assert_limited(page, "too many accounts made")
    other = As(http, "10.0.0.3")
    assert other.post("/api/accounts", json={"name": "Cid", "password": PASSWORD}).status_code == 201


# -- counts -----------------------------------------------------------------------------------------
def test_a_client_may_have_only_so_many_tables_waiting_for_players(served: Any) -> None:
    http = served(max_open_tables=2)
    creator, other = As(http, "10.0.0.1"), As(http, "10.0.0.2")
    first = creator.post("/api/tables", json=TINY).json()
    assert creator.post("/api/tables", json={**TINY, "sit": False}).status_code == 201
    assert_limited(creator.post("/api/tables", json=TINY), "2 tables created from your address are waiting")
    form = {"game": "tiny-showdown", "players": "2"}
    assert_limited(creator.post("/tables", data=form, follow_redirects=False), "waiting for players")
    assert other.post("/api/tables", json=TINY).status_code == 201, "another client's tables are its own"
    # once one of them starts, it no longer counts
    started = creator.post(
        f"/api/tables/{first['table']['id']}/start", headers={"Authorization": f"Bearer {first['token']}"}
    )
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert creator.post("/api/tables", json=TINY).status_code == 201
    lobby = other.get("/api/tables").json()
    assert len(lobby) == 3


def test_a_client_may_hold_only_so_many_free_seats(served: Any) -> None:
    http = served(max_free_seats=2)
    host, taker, other = As(http, "10.0.0.9"), As(http, "10.0.0.1"), As(http, "10.0.0.3")
    ids = [host.post("/api/tables", json={**TINY, "players": 3}).json()["table"]["id"] for _ in range(3)]
    tokens = []
    for table_id in ids[:2]:
        joined = taker.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200
        tokens.append(joined.json()["token"])
    assert_limited(taker.post(f"/api/tables/{ids[2]}/join", json={}), "holds 2 seats at tables")
    assert_limited(taker.post(f"/t/{ids[2]}/join", data={}, follow_redirects=False), "the most allowed")
    assert other.post(f"/api/tables/{ids[2]}/join", json={}).status_code == 200
    # a seat given up no longer counts
    left = taker.post(f"/api/tables/{ids[0]}/leave", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert left.status_code == 200
    assert taker.post(f"/api/tables/{ids[2]}/join", json={}).status_code == 200


def test_concurrent_creations_cannot_pass_the_count_together(sqlite_database: str) -> None:
    from httpx import ASGITransport, AsyncClient

    app = create_app(config_for(sqlite_database, max_open_tables=3))

    async def burst() -> list[int]:
        transport = ASGITransport(app=app, client=("10.0.0.7", 1))
        async with app.router.lifespan_context(app), AsyncClient(transport=transport, base_url="http://t") as http:
            answers = await asyncio.gather(*(http.post("/api/tables", json=TINY) for _ in range(10)))
        return [answer.status_code for answer in answers]

    codes = asyncio.run(burst())
    assert sorted(codes) == [201] * 3 + [429] * 7


# -- bad options ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "words"),
    [({"players": 4}, "'players' is not a game option"), ({"game_id": "x"}, "game_id"), ({"nope": 1}, "nope")],
)
def test_unknown_or_conflicting_options_are_refused_with_words(served: Any, options: Any, words: str) -> None:
    http = served()
    test_client = As(http, "10.0.0.1")
    answer = test_client.post("/api/tables", json={**TINY, "options": options})
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]
    assert test_client.get("/api/tables").json() == [], "nothing created"


# -- sizes ------------------------------------------------------------------------------------------
def test_a_body_over_the_limit_is_refused_in_the_api_and_the_forms(served: Any) -> None:
    http = served(max_body=4096)
    test_client = As(http, "10.0.0.1")
    big = {**TINY, "name": "A", "options": {}, "seats": None, "listed": True, "padding": "x" * 5000}
    answer = test_client.post("/api/tables", json=big)
    assert answer.status_code == 413 and "larger than 4096 bytes" in answer.json()["error"]
    form = test_client.post("/tables", data={"game": "tiny-showdown", "name": "x" * 5000})
    assert form.status_code == 413
    streamed = test_client.post(
        "/api/accounts", content=iter([b"{" + b" " * 1000] * 10), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413, "a chunked body is counted as it comes"
    assert test_client.get("/api/tables").json() == []
    assert test_client.post("/api/tables", json=TINY).status_code == 201, "a body within the limit passes"


def test_headers_over_the_limit_are_refused(served: Any) -> None:
    test_client = As(served(max_header=2048), "10.0.0.1")
    answer = test_client.get("/api/games", headers={"X-Padding": "x" * 3000})
    assert answer.status_code == 431 and "headers" in answer.json()["error"]
    assert test_client.get("/api/games").status_code == 200


def test_a_huge_streamed_body_is_never_read_past_the_limit() -> None:
    """300 MB offered in 64 KiB chunks: the application sees at most the limit, then 413."""
    pulled = 0
    seen = 0
    sent: list[dict[str, Any]] = []

    async def application(scope: Any, receive: Any, send: Any) -> None:
        nonlocal seen
        from starlette.requests import Request

        async for chunk in Request(scope, receive).stream():
            seen += len(chunk)
        raise AssertionError("the whole body was read")

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 65536, "more_body": pulled < 300 * 16}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "raw_path": b"/", "query_string": b"", "headers": []}
    asyncio.run(SizeLimits(application, max_body=65536, max_header=0)(scope, receive, send))
    assert sent[0]["status"] == 413
    assert pulled == 2 and seen <= 65536, "nothing read past the limit"


def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    sent: list[dict[str, Any]] = []

    async def application(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the application was called")

    async def receive() -> dict[str, Any]:
        raise AssertionError("the body was read")

    async def send(message: Any) -> None:
        sent.append(message)

    headers = [(b"content-length", str(300 * 1024 * 1024).encode())]
    scope = {"type": "http", "method": "POST", "path": "/", "raw_path": b"/", "query_string": b"", "headers": headers}
    asyncio.run(SizeLimits(application, max_body=65536, max_header=0)(scope, receive, send))
    assert sent[0]["status"] == 413 and re.search(rb"larger than 65536 bytes", sent[1]["body"])


# -- storage ----------------------------------------------------------------------------------------
def _three_log_ins(limits: list[Any]) -> list[bool]:
    """Three log-in attempts from one client, through ``limits`` in turn: which were let through."""
    from shadowtable.server.errors import RateLimited

    async def run() -> list[bool]:
        passed = []
        for i in range(3):
            try:
                await limits[i % len(limits)].hit("logins", "10.0.0.1")
                passed.append(True)
            except RateLimited:
                passed.append(False)
        return passed

    return asyncio.run(run())


def test_the_processes_of_a_cluster_count_together_in_redis(tmp_path: Any) -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    from shadowtable.server.config import ServerConfig
    from shadowtable.server.limits import ClientLimits

    config = ServerConfig(database=str(tmp_path / "a.db"), redis_url="redis://127.0.0.1:6379/0", rate_logins="2/minute")
    assert _three_log_ins([ClientLimits(config), ClientLimits(config)]) == [True, True, False]
    elsewhere = ServerConfig(**{**config.__dict__, "database": str(tmp_path / "b.db")})
    assert _three_log_ins([ClientLimits(elsewhere)])[0], "another service (database) counts apart"


def test_without_redis_each_process_counts_in_memory(tmp_path: Any) -> None:
    from shadowtable.server.config import ServerConfig
    from shadowtable.server.limits import ClientLimits

    config = ServerConfig(database=str(tmp_path / "a.db"), redis_url="redis://127.0.0.1:1/0", rate_logins="2/minute")
    assert _three_log_ins([ClientLimits(config)]) == [True, True, False]


def test_holdings_of_clients_that_never_come_back_are_swept() -> None:
    from shadowtable.server.limits import SWEEP_EVERY, Holdings

    holdings = Holdings()
    for i in range(SWEEP_EVERY):
        holdings.add_table(f"10.2.{i // 256}.{i % 256}", f"t{i}", lambda table_id: table_id == "t0")
    assert holdings.tables == {"10.2.0.0": {"t0"}}, "only what still counts is kept"
