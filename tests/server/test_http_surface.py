"""The HTTP surface: forged requests refused, security headers, Secure cookies, the API docs off
by default and the one bounded seat cookie."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.account_helpers import PASSWORD, sign_up
from server.conftest import config_for
from server.wire import BROWSER, Seat, create, play_out
from shadowtable.cli import main
from shadowtable.server.app import create_app
from shadowtable.server.cookies import SEATS_COOKIE, parse_seats

EVIL = {"Origin": "https://evil.example"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def client_for(sqlite_database: str, headers: dict[str, str] | None = None, **overrides: Any) -> TestClient:
    return TestClient(create_app(config_for(sqlite_database, **overrides)), headers=headers)


def set_cookies(response: Any) -> list[str]:
    return response.headers.get_list("set-cookie")


# -- forged requests ---------------------------------------------------------------------------------
def test_log_in_from_another_site_is_refused(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        sign_up(client, "Mallory")
        client.cookies.clear()
        form = {"name": "Mallory", "password": PASSWORD}
        forged = client.post("/login", data=form, headers=EVIL, follow_redirects=False)
        assert forged.status_code == 403 and "text/html" in forged.headers["content-type"]
        assert "another site" in forged.text and not set_cookies(forged)  # nobody is signed in
        api = client.post("/api/session", json=form, headers=EVIL)
        assert api.status_code == 403 and "another site" in api.json()["error"] and not set_cookies(api)
        own = client.post("/login", data=form, follow_redirects=False)
        assert own.status_code == 303 and any(c.startswith("shadowtable_account=") for c in set_cookies(own))


def test_a_form_post_from_another_site_is_refused_and_changes_nothing(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        table = create(client, game="tiny-showdown", players=3)["table"]["id"]
        forged = client.post(f"/t/{table}/leave", headers={**EVIL, **FORM}, follow_redirects=False)
        assert forged.status_code == 403
        assert client.get(f"/api/tables/{table}").json()["seats"][0]["taken"] is True
        referred = client.post(
            f"/t/{table}/start", headers={"Origin": "", "Referer": "https://evil.example/page", **FORM}
        )
        assert referred.status_code == 403
        assert client.get(f"/api/tables/{table}").json()["status"] == "open"


def test_cookies_without_origin_or_referer_are_refused_but_bearer_tokens_pass(sqlite_database: str) -> None:
    with client_for(sqlite_database) as client:  # no Origin: a script, not a browser
        answer = create(client, game="tiny-showdown", players=3)  # no cookie yet: allowed
        table, token = answer["table"]["id"], answer["token"]
        assert client.cookies.get(SEATS_COOKIE)  # the jar now holds the seat cookie
        with_cookie = client.post(f"/api/tables/{table}/start")
        assert with_cookie.status_code == 403 and "neither Origin nor Referer" in with_cookie.json()["error"]
        bearer = client.post(f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"})
        assert bearer.status_code == 200 and bearer.json()["status"] == "playing"


def test_a_same_origin_referer_and_the_allowed_origins_pass(sqlite_database: str) -> None:
    with client_for(sqlite_database, allowed_origins=["https://friends.example"]) as client:
        table = create(client, game="tiny-showdown", players=3)["table"]["id"]
        referred = client.post(f"/api/tables/{table}/leave", headers={"Referer": f"http://testserver/t/{table}"})
        assert referred.status_code == 200
        allowed = client.post(f"/api/tables/{table}/join", json={}, headers={"Origin": "https://friends.example"})
        assert allowed.status_code == 200
        other_port = client.post(f"/api/tables/{table}/leave", headers={"Origin": "http://testserver:8001"})
        assert other_port.status_code == 403


# -- headers -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/login", "/api/games", "/api/tables/nowhere", "/static/table.js"])
def test_every_answer_has_the_security_headers(sqlite_database: str, path: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"


def test_pages_have_no_inline_script_or_style(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        table = create(client, game="shadow-planet", players=3, seats=["human", "bot:random", "bot:random"])
        pages = [
            client.get(path).text for path in ("/", "/lobby/setup?game=shadow-planet", f"/t/{table['table']['id']}")
        ]
    for html in pages:
        assert "<script>" not in html and "<style" not in html and " style=" not in html
        assert " onclick=" not in html and " onload=" not in html and "load[" not in html


def test_an_invite_page_keeps_its_no_referrer(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        answer = client.get("/t/nowhere/invite/abc")
    assert answer.headers["content-security-policy"]  # the error page of a bad link has them too
    assert answer.headers["referrer-policy"] == "same-origin"


# -- Secure cookies ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "setting, proto, secure",
    [("auto", None, False), ("auto", "https", True), ("always", None, True), ("never", "https", False)],
)
def test_cookies_are_secure_over_tls(sqlite_database: str, setting: str, proto: str | None, secure: bool) -> None:
    tls = {"X-Forwarded-Proto": proto, "Origin": f"{proto}://testserver"} if proto else {}
    headers = {**BROWSER, **tls}
    with client_for(sqlite_database, headers, secure_cookies=setting) as client:
        seat = client.post("/api/tables", json={"game": "tiny-showdown", "players": 3})
        account = client.post("/api/accounts", json={"name": "Trent", "password": PASSWORD})
    cookies = set_cookies(seat) + set_cookies(account)
    assert len(cookies) == 2
    assert all(("; secure" in c.lower()) is secure for c in cookies), cookies


def test_a_https_request_gets_secure_cookies(sqlite_database: str) -> None:
    with TestClient(
        create_app(config_for(sqlite_database)), base_url="https://testserver", headers={"Origin": "https://testserver"}
    ) as client:
        seat = client.post("/api/tables", json={"game": "tiny-showdown", "players": 3})
    assert seat.status_code == 201 and "; secure" in seat.headers["set-cookie"].lower()


# -- the API docs ------------------------------------------------------------------------------------
def test_the_api_docs_are_off_unless_asked_for(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        assert client.get("/docs").status_code == 404
        assert client.get("/redoc").status_code == 404
        assert client.get("/openapi.json").status_code == 200


def test_the_api_docs_load_nothing_from_another_site(sqlite_database: str) -> None:
    pytest.importorskip("swagger_ui")
    with client_for(sqlite_database, BROWSER, api_docs=True) as client:
        page = client.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        assert "//" not in page.text  # no URL of another host
        sources = re.findall(r'(?:src|href)="([^"]*)"', page.text)
        assert len(sources) == 3 and all(src.startswith("/") for src in sources)
        for src in sources:
            assert client.get(src).status_code == 200, src
        assert "<script>" not in page.text  # started from a static script


# -- the signing secret ------------------------------------------------------------------------------
def test_a_short_secret_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SHADOWTABLE_SECRET", "x")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "32 bytes" in err[0]


# -- the seat cookie ---------------------------------------------------------------------------------
def test_one_seat_cookie_stays_bounded_after_a_hundred_tables(sqlite_database: str) -> None:
    unlimited = {"max_open_tables": 0, "rate_tables": ""}  # one client makes every table here
    with client_for(sqlite_database, BROWSER, **unlimited) as client:
        tables = [create(client, game="tiny-showdown", players=3)["table"]["id"] for _ in range(100)]
        seat_cookies = [name for name in client.cookies if name.startswith("shadowtable_seat")]
        assert seat_cookies == [SEATS_COOKIE]
        value = client.cookies[SEATS_COOKIE]
        header = "; ".join(f"{name}={v}" for name, v in client.cookies.items())
        assert len(header) < 4096
        held = parse_seats(value)
        assert list(held) == tables[-20:]  # the newest seats, the oldest dropped
        newest = client.get(f"/t/{tables[-1]}")
        assert "you: Player 1</span>" in newest.text


def test_the_seat_of_an_ended_game_leaves_the_cookie(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER, seat_cookie_keep_s=0) as client:
        kept = create(client, game="tiny-showdown", players=3)["table"]["id"]
        table = create(client, game="tiny-showdown", players=2, seats=["human", "bot:random"])["table"]["id"]
        with client.websocket_connect(f"/ws/{table}") as ws:  # the socket knows the seat by the cookie
            seat = Seat(ws)
            assert seat.hello()["seat"] == 0
            play_out(seat)
        assert set(parse_seats(client.cookies[SEATS_COOKIE])) == {kept, table}
        page = client.get(f"/t/{table}")
        assert page.status_code == 200
        assert set(parse_seats(client.cookies[SEATS_COOKIE])) == {kept}
        left = client.post(f"/api/tables/{kept}/leave")
        assert left.status_code == 200 and SEATS_COOKIE not in client.cookies  # the last seat: removed


def test_the_older_per_table_cookies_are_read_then_replaced(sqlite_database: str) -> None:
    with client_for(sqlite_database, BROWSER) as client:
        answer = create(client, game="tiny-showdown", players=3)
        old, token = answer["table"]["id"], answer["token"]
        client.cookies.clear()
        client.cookies.set(f"shadowtable_seat_{old}", token)
        assert "you: Player 1</span>" in client.get(f"/t/{old}").text  # still read
        created = client.post("/api/tables", json={"game": "tiny-showdown", "players": 3})
        assert any(c.startswith(f'shadowtable_seat_{old}=""') for c in set_cookies(created))  # deleted
        assert set(parse_seats(client.cookies[SEATS_COOKIE])) == {old, created.json()["table"]["id"]}
