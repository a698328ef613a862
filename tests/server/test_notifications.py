"""Turn notifications by e-mail (a real SMTP server on 127.0.0.1) and by webhook.

Every turn change sends exactly one message to the right account, once its address is confirmed;
messages hold only public facts; one click unsubscribes; a refusing or hanging mail server delays
mail but never a move, and loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

pytest.importorskip("aiosmtpd")

from fastapi.testclient import TestClient  # noqa: E402

from server.account_helpers import Names, log_in, rows, sign_up, wait_until  # noqa: E402
from server.conftest import config_for  # noqa: E402
from server.notify_helpers import (  # noqa: E402
    HookServer,
    SmtpServer,
    body_of,
    link_in,
    mail_overrides,
    token_of,
)
from server.wire import BROWSER, Seat, create  # noqa: E402
from shadowtable.server import schema  # noqa: E402
from shadowtable.server.app import create_app  # noqa: E402

ROUNDS = 2
TURN_BASED = {"mode": "turn-based", "turn": {"move_s": 86400, "reserve_s": 0, "on_timeout": "bot"}}
"""A table played over days: the only kind whose turns are notified."""
"""Tiny Showdown of two for two rounds: seats 0 and 1 alternate, four decisions."""


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def serve_sqlite(sqlite_database: str) -> Callable[..., TestClient]:
    """``serve`` on ``sqlite_database`` only (for the tests that need no second database kind)."""

    def start(**overrides: Any) -> TestClient:
        return TestClient(create_app(config_for(sqlite_database, **overrides)), headers=BROWSER)

    return start


@pytest.fixture
def hook() -> Iterator[HookServer]:
    with HookServer() as server:
        yield server


def addresses(names: Names) -> tuple[str, str]:
    """The e-mail addresses of this test's Ann and Bob."""
    return f"ann-{names.suffix}@example.org", f"bob-{names.suffix}@example.org"


def queued(database: str) -> list[dict[str, Any]]:
    return rows(database, sa.select(schema.notify_queue))


def with_address(client: TestClient, smtp: SmtpServer, name: str, address: str, *, confirm: bool = True) -> None:
    """Sign ``name`` up and give it ``address`` (confirmed by following the mailed link)."""
    sign_up(client, name)
    answer = client.patch("/api/account/notifications", json={"email": address})
    assert answer.status_code == 200, answer.text
    assert answer.json()["email_confirmed"] is False
    mails = wait_until(lambda: smtp.box.to(address, "confirm"))
    assert len(mails) == 1
    if confirm:
        link = link_in(body_of(mails[0]), "/account/email/confirm")
        client.cookies.clear()
        page = client.get(link)
        assert page.status_code == 200, page.text
        assert address in page.text


def table_between(
    client: TestClient, first: str, second: str, mode: dict[str, Any] = TURN_BASED
) -> tuple[str, str, str]:
    """A started Tiny Showdown table (``mode``: turn-based unless said): seat 0 taken as ``first``,
    seat 1 as ``second``."""
    log_in(client, first)
    answer = create(
        client, game="tiny-showdown", players=2, seats=["human", "human"], options={"rounds": ROUNDS}, **mode
    )
    table_id = answer["table"]["id"]
    log_in(client, second)
    joined = client.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return table_id, answer["token"], joined.json()["token"]


def play(
    client: TestClient,
    table_id: str,
    tokens: tuple[str, str],
    between: Callable[[int], None] = lambda _: None,
) -> int:
    """Play the table out, alternating seats, each decision acknowledged; ``between(n)`` runs after
    the n-th decision.  Returns the decisions made."""
    made = 0
    with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
        seats = [Seat(ws0), Seat(ws1)]
        for seat, token in zip(seats, tokens, strict=True):
            seat.hello(token)
        for turn in range(2 * ROUNDS):
            seat = seats[turn % 2]
            assert seat.wait_to_decide()
            assert seat.view is not None
            seat.act(seat.view["legal"][0][0])
            answer = seat.read()
            while answer["t"] not in ("ack", "reject"):
                answer = seat.read()
            assert answer["t"] == "ack", answer
            seat.view = {**seat.view, "legal": None}  # that choice is made: wait for the next view
            made += 1
            between(made)
    assert wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over")
    return made


def settled(client: TestClient, database: str) -> bool:
    """Whether the queue is empty (everything queued was delivered)."""
    return not queued(database)


def test_each_turn_change_mails_the_decider_once_with_public_facts_only(
    serve: Callable[..., TestClient], database: str, smtp: SmtpServer
) -> None:
    names = Names()
    ann, bob = addresses(names)
    with serve(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, ann)
        with_address(client, smtp, names.bob, bob)
        table_id, token0, token1 = table_between(client, names.ann, names.bob)
        assert play(client, table_id, (token0, token1)) == 2 * ROUNDS
        assert wait_until(lambda: len(smtp.box.to(ann)) >= ROUNDS and len(smtp.box.to(bob)) >= ROUNDS)
        assert wait_until(lambda: settled(client, database))
        info = client.get(f"/api/tables/{table_id}").json()
    # seat 0 decides at the start and after seat 1's first two moves; seat 1 after each of seat 0's
    assert len(smtp.box.to(ann)) == ROUNDS
    assert len(smtp.box.to(bob)) == ROUNDS
    players = [seat["name"] for seat in info["seats"]]
    assert players == [names.ann, names.bob]
    for address, name in ((ann, names.ann), (bob, names.bob)):
        for mail in smtp.box.to(address):
            body = body_of(mail)
            assert mail["Subject"] == f"Tiny Showdown: {name} to play at table {table_id}"
            unsubscribe = link_in(str(mail["List-Unsubscribe"]), "/notifications/unsubscribe")
            assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            # the text is exactly what the public facts make: nothing else can be in it
            expected = (
                f"It is {name}'s turn at the Tiny Showdown table {table_id}"
                f" (players: {players[0]} and {players[1]}).\n\n"
                f"Play: http://testserver/t/{table_id}\n\n"
                "You get this mail because you asked to be told by e-mail when it is your turn.\n"
                f"No more of these mails: http://testserver{unsubscribe}\n"
            )
            assert body == expected


def test_a_real_time_table_mails_nobody(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer
) -> None:
    names = Names()
    ann, bob = addresses(names)
    with serve_sqlite(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, ann)
        with_address(client, smtp, names.bob, bob)
        table_id, token0, token1 = table_between(client, names.ann, names.bob, mode={})
        assert play(client, table_id, (token0, token1)) == 2 * ROUNDS
        assert settled(client, sqlite_database)
    assert smtp.box.to(ann) == [] and smtp.box.to(bob) == []


def test_nothing_is_mailed_before_the_address_is_confirmed(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer
) -> None:
    names = Names()
    ann, bob = addresses(names)
    with serve_sqlite(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, ann, confirm=False)
        log_in(client, names.ann)
        refused = client.patch("/api/account/notifications", json={"email_on": True})
        assert refused.status_code == 400
        assert "confirm" in refused.json()["error"]
        with_address(client, smtp, names.bob, bob)
        table_id, token0, token1 = table_between(client, names.ann, names.bob)
        play(client, table_id, (token0, token1))
        assert wait_until(lambda: len(smtp.box.to(bob)) >= ROUNDS)
        assert wait_until(lambda: settled(client, sqlite_database))
        client.cookies.clear()
        assert client.get("/api/account/notifications").status_code == 401  # guests have no settings
    assert smtp.box.to(ann) == []
    assert len(smtp.box.to(ann, "confirm")) == 1
    assert len(smtp.box.to(bob)) == ROUNDS


def test_guests_and_bots_are_never_notified(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer
) -> None:
    with serve_sqlite(**mail_overrides(smtp)) as client:
        answer = create(
            client,
            game="tiny-showdown",
            players=2,
            seats=["human", "bot:random"],
            options={"rounds": ROUNDS},
            **TURN_BASED,
        )
        table_id = answer["table"]["id"]
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            seat = Seat(ws)
            seat.hello(answer["token"])
            while seat.wait_to_decide():
                assert seat.view is not None
                seat.act(seat.view["legal"][0][0])
                answer = seat.read()
                while answer["t"] not in ("ack", "reject"):
                    answer = seat.read()
                assert answer["t"] == "ack", answer
                seat.view = {**seat.view, "legal": None}
    assert queued(sqlite_database) == []
    assert smtp.box.mails == []


def test_one_click_unsubscribes(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer
) -> None:
    names = Names()
    ann, bob = addresses(names)
    with serve_sqlite(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, ann)
        with_address(client, smtp, names.bob, bob)
        table_id, token0, token1 = table_between(client, names.ann, names.bob)
        assert wait_until(lambda: smtp.box.to(ann))  # seat 0 decides first
        link = link_in(str(smtp.box.to(ann)[0]["List-Unsubscribe"]), "/notifications/unsubscribe")
        client.cookies.clear()
        shown = client.get(link)  # opening the link (a mail scanner does) changes nothing
        assert shown.status_code == 200 and "Stop them" in shown.text
        log_in(client, names.ann)
        assert client.get("/api/account/notifications").json()["email_on"] is True
        client.cookies.clear()
        # RFC 8058: the mail client posts this body to the List-Unsubscribe address, no cookie
        clicked = client.post(
            link,
            content=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert clicked.status_code == 200, clicked.text
        log_in(client, names.ann)
        assert client.get("/api/account/notifications").json()["email_on"] is False
        client.cookies.clear()
        forged = client.post(link.replace(token_of(link)[:8], "AAAAAAAA"))
        assert forged.status_code == 409
        play(client, table_id, (token0, token1))
        assert wait_until(lambda: len(smtp.box.to(bob)) >= ROUNDS)
        assert wait_until(lambda: settled(client, sqlite_database))
    assert len(smtp.box.to(ann)) == 1  # the one before the click
    assert len(smtp.box.to(bob)) == ROUNDS


@pytest.mark.parametrize("failure", ["refuse", "hang"])
def test_a_failing_mail_server_delays_mail_never_a_move_and_loses_nothing(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer, failure: str
) -> None:
    names = Names()
    ann, bob = addresses(names)
    with serve_sqlite(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, ann)
        with_address(client, smtp, names.bob, bob)
        smtp.box.mode = failure
        table_id, token0, token1 = table_between(client, names.ann, names.bob)
        # every move is acknowledged while the mail server fails (play() asserts each ack)
        assert play(client, table_id, (token0, token1)) == 2 * ROUNDS
        tried = (lambda: smtp.box.refused >= 2) if failure == "refuse" else (lambda: smtp.box.hung >= 1)
        assert wait_until(tried)
        waiting = queued(sqlite_database)
        assert len(waiting) == 2 * ROUNDS  # all kept
        assert smtp.box.to(ann) == [] and smtp.box.to(bob) == []
        smtp.box.mode = "accept"
        assert wait_until(lambda: settled(client, sqlite_database), 30.0)
    assert len(smtp.box.to(ann)) == ROUNDS
    assert len(smtp.box.to(bob)) == ROUNDS


def test_a_webhook_gets_the_same_events(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, hook: HookServer
) -> None:
    names = Names()
    with serve_sqlite(**mail_overrides(None)) as client:
        for name, path in ((names.ann, "/ann"), (names.bob, "/bob")):
            sign_up(client, name)
            answer = client.patch("/api/account/notifications", json={"webhook": hook.url + path})
            assert answer.status_code == 200, answer.text
        sign_up(client, names.cy)
        for bad in ("http://example.org/hook", "ftp://127.0.0.1/x", "https://10.0.0.1/x", "https://x/" + "a" * 600):
            refused = client.patch("/api/account/notifications", json={"webhook": bad})
            assert refused.status_code in (400, 422), bad
        refused_mail = client.patch("/api/account/notifications", json={"email": "cy@example.org"})
        assert refused_mail.status_code == 400  # this server has no mail server
        hook.hooks.status = 503  # the first tries fail: kept and tried again
        table_id, token0, token1 = table_between(client, names.ann, names.bob)
        play(client, table_id, (token0, token1))
        assert wait_until(lambda: hook.hooks.failed >= 1)
        hook.hooks.status = 204
        assert wait_until(lambda: settled(client, sqlite_database), 30.0)
    by_path: dict[str, list[dict[str, Any]]] = {}
    for path, body in zip(hook.hooks.paths, hook.hooks.bodies, strict=True):
        by_path.setdefault(path, []).append(body)
    assert len(by_path["/ann"]) == ROUNDS and len(by_path["/bob"]) == ROUNDS
    url = f"http://testserver/t/{table_id}"
    for path, name in (("/ann", names.ann), ("/bob", names.bob)):
        for body in by_path[path]:
            assert body == {"table": table_id, "game": "Tiny Showdown", "url": url, "to_decide": [name]}


def test_changing_the_address_needs_a_new_confirmation(
    serve_sqlite: Callable[..., TestClient], sqlite_database: str, smtp: SmtpServer
) -> None:
    names = Names()
    old, new = f"old-{names.suffix}@example.org", f"new-{names.suffix}@example.org"
    with serve_sqlite(**mail_overrides(smtp)) as client:
        with_address(client, smtp, names.ann, old, confirm=False)
        stale = link_in(body_of(smtp.box.to(old, "confirm")[0]), "/account/email/confirm")
        log_in(client, names.ann)
        answer = client.patch("/api/account/notifications", json={"email": new})
        assert answer.json() | {"webhook": None} == {
            "email": new,
            "email_confirmed": False,
            "email_on": False,
            "webhook": None,
            "mail_available": True,
        }
        client.cookies.clear()
        assert client.get(stale).status_code == 409  # the link of the old address confirms nothing
        assert wait_until(lambda: smtp.box.to(new, "confirm"))
        assert client.get(link_in(body_of(smtp.box.to(new, "confirm")[0]), "/account/email/confirm")).status_code == 200
        log_in(client, names.ann)
        settings = client.get("/api/account/notifications").json()
    assert settings["email"] == new and settings["email_confirmed"] and settings["email_on"]


def test_the_settings_page(serve_sqlite: Callable[..., TestClient], hook: HookServer) -> None:
    names = Names()
    with serve_sqlite(**mail_overrides(None)) as client:
        client.cookies.clear()
        assert client.get("/account/notifications", follow_redirects=False).headers["location"] == "/login"
        sign_up(client, names.ann)
        shown = client.get("/account/notifications")
        assert shown.status_code == 200 and "This server sends no e-mail" in shown.text
        saved = client.post("/account/notifications", data={"webhook": hook.url + "/ann"}, follow_redirects=False)
        assert saved.status_code == 303
        assert client.get("/api/account/notifications").json()["webhook"] == hook.url + "/ann"
        refused = client.post("/account/notifications", data={"webhook": "http://example.org/"})
        assert refused.status_code == 400
        assert client.get("/api/account/notifications").json()["webhook"] == hook.url + "/ann"  # unchanged
