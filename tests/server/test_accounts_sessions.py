"""Sessions that can be revoked: logging out, changing the password, an operator's reset link; on
both databases, and across two server processes on one database."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import sqlalchemy as sa

from server.account_helpers import PASSWORD, Names, log_in, rows, sign_up
from shadowtable.cli import main
from shadowtable.server import schema

COOKIE = "shadowtable_account"
NEW_PASSWORD = "a brand new passphrase"


def who(client: Any, cookie: str | None) -> int:
    """The status of ``GET /api/session`` with the session cookie ``cookie`` (200: signed in)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return int(client.get("/api/session").status_code)


def seated_name(client: Any, cookie: str) -> str:
    """The name a new table's first seat is taken under with the session cookie ``cookie``."""
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)
    answer = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "name": "Someone"})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["seats"][0]["name"])


def reset_link(database: str, name: str, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    """The link ``shadowtable account reset-password`` prints for ``name``."""
    capsys.readouterr()
    assert main(["account", "reset-password", name, "--database", database, "--url", "http://games.test/", *extra]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith(f"Password reset link for {name} (works once, until ")
    assert out[1].startswith("http://games.test/account/reset/")
    return out[1]


def test_logout_revokes_the_session_a_copied_cookie_included(serve: Any) -> None:
    n = Names()
    with serve() as client:
        sign_up(client, n.ann)
        copied = client.cookies[COOKIE]
        assert who(client, copied) == 200 and client.get("/api/session").json() == {"name": n.ann}
        assert seated_name(client, copied) == n.ann
        client.cookies.set(COOKIE, copied)
        out = client.delete("/api/session")
        assert out.status_code == 204 and "max-age=0" in out.headers["set-cookie"].lower()
        # the copy no longer signs anyone in: a guest, who sits under the name given
        assert who(client, copied) == 401
        assert client.get("/api/session").json() == {"error": "nobody is signed in"}
        assert seated_name(client, copied) == "Someone"
        assert (
            client.post(
                "/api/account/password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
            ).status_code
            == 401
        )
        # logging in again starts a new session; the old one stays revoked
        log_in(client, n.ann)
        current = client.cookies[COOKIE]
        assert who(client, current) == 200 and who(client, copied) == 401
        # a log-in from a signed-in browser replaces its session: the old id stops working
        client.cookies.set(COOKIE, current)
        again = client.post("/api/session", json={"name": n.ann, "password": PASSWORD})
        assert again.status_code == 200 and who(client, current) == 401
        assert who(client, again.cookies[COOKIE]) == 200


def test_logout_in_one_process_revokes_the_session_in_another(serve: Any) -> None:
    n = Names()
    with serve() as one, serve() as other:
        sign_up(one, n.ann)
        cookie = one.cookies[COOKIE]
        assert who(other, cookie) == 200, "a session is good in every process on the database"
        one.cookies.set(COOKIE, cookie)
        assert one.delete("/api/session").status_code == 204
        assert who(other, cookie) == 401, "and revoked in every process at once"


def test_a_password_change_needs_the_current_password_and_revokes_every_other_session(
    serve: Any, database: str
) -> None:
    n = Names()
    with serve() as client:
        sign_up(client, n.ann)
        first = client.cookies[COOKIE]
        log_in(client, n.ann)
        second = client.cookies[COOKIE]
        assert first != second and who(client, first) == who(client, second) == 200
        stored = rows(database, sa.select(schema.sessions.c.id_hash).where(schema.sessions.c.id_hash != ""))
        assert all(first not in row["id_hash"] and second not in row["id_hash"] for row in stored)

        def change(current: str, new: str) -> Any:
            client.cookies.clear()
            client.cookies.set(COOKIE, second)
            return client.post("/api/account/password", json={"current_password": current, "new_password": new})

        wrong = change("not the password", NEW_PASSWORD)
        assert wrong.status_code == 403 and wrong.json() == {"error": "the current password is wrong"}
        weak = change(PASSWORD, "password")
        assert weak.status_code == 400 and "too common" in weak.json()["error"]
        assert who(client, first) == who(client, second) == 200, "a refused change changes nothing"
        client.cookies.clear()
        log_in(client, n.ann)  # the old password still works
        changed = change(PASSWORD, NEW_PASSWORD)
        assert changed.status_code == 200 and changed.json() == {"name": n.ann}
        third = changed.cookies[COOKIE]
        assert who(client, first) == 401 and who(client, second) == 401, "every other session is revoked"
        assert who(client, third) == 200, "the browser that changed it is signed in anew"
        client.cookies.clear()
        assert client.post("/api/session", json={"name": n.ann, "password": PASSWORD}).status_code == 403
        log_in(client, n.ann, NEW_PASSWORD)


def test_an_operator_reset_link_works_once_and_revokes_every_session(
    serve: Any, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    n = Names()
    with serve() as client:
        sign_up(client, n.ann)
        before = client.cookies[COOKIE]
        link = reset_link(database, n.ann, capsys)
        code = link.rsplit("/", 1)[1]
        stored = rows(database, sa.select(schema.password_resets))
        assert hashlib.sha256(code.encode()).hexdigest() in {row["code_hash"] for row in stored}
        assert all(code not in str(row) for row in stored), "only the code's hash is stored"
        path = "/account/reset/" + code
        client.cookies.clear()
        form = client.get(path)
        assert form.status_code == 200 and n.ann in form.text and 'name="new_password"' in form.text
        assert form.headers["cache-control"] == "no-store"
        weak = client.post(path, data={"new_password": "12345678"}, follow_redirects=False)
        assert weak.status_code == 400 and "too common" in weak.text
        assert who(client, before) == 200, "a refused password changes nothing"
        done = client.post(path, data={"new_password": NEW_PASSWORD}, follow_redirects=False)
        assert done.status_code == 303 and COOKIE in done.cookies
        assert who(client, done.cookies[COOKIE]) == 200
        assert who(client, before) == 401, "the reset revokes the sessions the account had"
        again = client.post(path, data={"new_password": "yet another passphrase"}, follow_redirects=False)
        assert again.status_code == 409 and "not valid" in again.text
        assert client.get(path).status_code == 409
        client.cookies.clear()
        assert client.post("/api/session", json={"name": n.ann, "password": PASSWORD}).status_code == 403
        log_in(client, n.ann, NEW_PASSWORD)
        # a newer link replaces an older one; an expired one does not work
        older = reset_link(database, n.ann, capsys).rsplit("/", 1)[1]
        newer = reset_link(database, n.ann, capsys).rsplit("/", 1)[1]
        assert client.get("/account/reset/" + older).status_code == 409
        assert client.get("/account/reset/" + newer).status_code == 200
        _account, expired, _until = client.portal.call(client.app.state.accounts.reset_code, n.ann, -1.0)
        assert client.get("/account/reset/" + expired).status_code == 409
        assert client.get("/account/reset/" + "x" * 43).status_code == 409


def test_the_reset_command_refuses_an_unknown_name_or_database_in_one_line(
    serve: Any, database: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve() as client:  # the database exists, with its schema
        assert client.get("/healthz").status_code == 200
    capsys.readouterr()
    assert main(["account", "reset-password", Names().nobody, "--database", database]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: no account is called ")
    assert len(captured.err.strip().splitlines()) == 1
    missing = str(tmp_path / "nothing-here.db")
    assert main(["account", "reset-password", "Ann", "--database", missing]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"error: no server database at {missing}: pass the server's --database"
    assert not (tmp_path / "nothing-here.db").exists()
