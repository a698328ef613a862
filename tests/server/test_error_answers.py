"""One error handler for every route: ``{"error": ...}`` for the API, the error page for the
browser pages, each with its status, its headers and the security headers (the 500 included,
which is sent outside the middleware that adds them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.conftest import config_for
from server.wire import BROWSER
from shadowtable.core.errors import InvalidOptionError
from shadowtable.server.app import create_app
from shadowtable.server.errors import RateLimited
from shadowtable.server.failures import INTERNAL


@pytest.fixture
def client(sqlite_database: str) -> Iterator[TestClient]:
    app = create_app(config_for(sqlite_database, max_header=4096))
    with TestClient(app, headers=BROWSER, raise_server_exceptions=False) as test_client:
        yield test_client


def lobby_raises(client: TestClient, exc: Exception) -> None:
    """Make the table service's lobby raise ``exc`` (the API's and the page's list of tables)."""

    async def lobby(*_args: Any) -> Any:
        raise exc

    client.app.state.service.lobby = lobby


def assert_secured(answer: Any) -> None:
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], answer.headers
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"


def assert_error_page(answer: Any, status: int, words: str) -> None:
    assert answer.status_code == status and "text/html" in answer.headers["content-type"], answer.text
    assert f"error: {words}" in answer.text


def test_an_unexpected_failure_is_a_500_with_the_security_headers_and_no_detail(client: TestClient) -> None:
    lobby_raises(client, RuntimeError("secret detail"))
    api = client.get("/api/tables")
    assert api.status_code == 500 and api.json() == {"error": INTERNAL}
    assert_secured(api)
    page = client.get("/lobby/tables")
    assert_error_page(page, 500, INTERNAL)
    assert "secret detail" not in page.text
    assert_secured(page)


def test_a_core_error_is_a_400_in_the_api_and_on_a_page(client: TestClient) -> None:
    lobby_raises(client, InvalidOptionError("option x: not one of a, b"))
    api = client.get("/api/tables")
    assert api.status_code == 400 and api.json() == {"error": "option x: not one of a, b"}
    assert_error_page(client.get("/lobby/tables"), 400, "option x: not one of a, b")
    reference = client.get("/api/games/no-such-game/reference", params={"players": 2})
    assert reference.status_code == 400 and "no-such-game" in reference.json()["error"]


def test_a_refusal_keeps_its_status_and_retry_hint_on_both_kinds_of_route(client: TestClient) -> None:
    lobby_raises(client, RateLimited("too many lobbies", 7))
    api = client.get("/api/tables")
    assert api.status_code == 429 and api.headers["retry-after"] == "7"
    assert api.json() == {"error": "too many lobbies; try again in 7 s"}
    page = client.get("/lobby/tables")
    assert_error_page(page, 429, "too many lobbies; try again in 7 s")
    assert page.headers["retry-after"] == "7"
    assert_secured(page)


def test_the_error_page_of_a_reset_link_is_kept_out_of_caches(client: TestClient) -> None:
    page = client.get("/account/reset/" + "x" * 43)
    assert_error_page(page, 409, "this reset link is not valid")
    assert page.headers["cache-control"] == "no-store" and page.headers["referrer-policy"] == "same-origin"
    invite = client.get("/t/nowhere/invite/abc")
    assert invite.status_code == 404 and invite.headers["cache-control"] == "no-store"
    assert client.get("/t/nowhere").headers.get("cache-control") != "no-store", "other pages may be cached"


def test_the_frameworks_refusals_answer_in_words_with_the_security_headers(client: TestClient) -> None:
    unknown = client.get("/api/nothing-here")
    assert unknown.status_code == 404 and unknown.json() == {"error": "Not Found"}
    assert_secured(unknown)
    html = {"Accept": "text/html,application/xhtml+xml"}
    assert client.get("/api/nothing-here", headers=html).json() == {"error": "Not Found"}, "the API answers JSON"
    assert client.get("/nothing-here").json() == {"error": "Not Found"}, "a client that takes no HTML: JSON"
    typo = client.get("/players-of/ada", headers=html)  # a browser at a mistyped address
    assert_error_page(typo, 404, "there is no page at this address")
    too_big = client.get("/api/games", headers={"X-Padding": "x" * 5000})
    assert too_big.status_code == 431 and "headers" in too_big.json()["error"]
    assert_secured(too_big)
