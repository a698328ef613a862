"""The account pages over HTTP: sign up, sign in and out, the header, the leaderboard, a player's
games and the replay of every step from each seat and the spectator's view."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi")


from server.account_helpers import PASSWORD, seat0_wins, table_of  # noqa: E402


def _sign_up(client: Any, name: str, password: str = PASSWORD) -> Any:
    client.cookies.clear()
    return client.post("/signup", data={"name": name, "password": password}, follow_redirects=False)


def test_signing_up_signs_in_and_the_header_says_so(client: Any) -> None:
    page = client.get("/")
    assert 'href="/login"' in page.text and 'href="/signup"' in page.text and 'href="/leaderboard"' in page.text
    form = client.get("/signup")
    assert form.status_code == 200 and 'type="password"' in form.text and 'action="/signup"' in form.text
    made = _sign_up(client, "Ada <b>")
    assert made.status_code == 303 and "shadowtable_account=" in made.headers["set-cookie"]
    page = client.get("/")
    assert "Ada &lt;b&gt;" in page.text and "Sign out" in page.text and "<b>" not in page.text
    assert "You sit as" in page.text, "signed in, the creation form sits you as your account"
    # creating a table from the form takes the seat as the account
    created = client.post("/tables", data={"game": "tiny-showdown", "players": "2"}, follow_redirects=False)
    table = created.headers["location"].rsplit("/", 1)[1]
    assert "you: Ada &lt;b&gt;</span>" in client.get(f"/t/{table}").text
    out = client.post("/logout", follow_redirects=False)
    assert out.status_code == 303 and "shadowtable_account" not in client.cookies
    assert "Sign out" not in client.get("/").text


def test_sign_in_errors_are_pages_with_their_status(client: Any) -> None:
    assert _sign_up(client, "Ada").status_code == 303
    taken = _sign_up(client, "ADA")
    assert taken.status_code == 409 and "error: that name is taken" in taken.text
    short = _sign_up(client, "Bo", "password123")
    assert short.status_code == 400 and "error: name: 3 to 32" in short.text
    weak = _sign_up(client, "Bobby", "short")
    assert weak.status_code == 400 and "error: password: 8 to 256" in weak.text
    client.cookies.clear()
    wrong = client.post("/login", data={"name": "Ada", "password": "wrong password"}, follow_redirects=False)
    unknown = client.post("/login", data={"name": "Nobody", "password": "wrong password"}, follow_redirects=False)
    assert wrong.status_code == unknown.status_code == 403
    assert re.search(r"error: [^<]+", wrong.text)[0] == re.search(r"error: [^<]+", unknown.text)[0]  # type: ignore[index]
    good = client.post("/login", data={"name": "ada", "password": PASSWORD}, follow_redirects=False)
    assert good.status_code == 303 and "shadowtable_account=" in good.headers["set-cookie"]


def test_the_leaderboard_history_and_replay_pages(client: Any) -> None:
    for name in ("Ann", "Bob"):
        client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    table_id, token0, token1 = table_of(client, "Ann", "Bob")
    # a live game is never replayed
    playing = client.get(f"/replay/{table_id}", params={"seat": "0"})
    assert playing.status_code == 409 and "once the game is over" in playing.text
    seat0_wins(client, table_id, token0, token1)
    for _ in range(500):
        board = client.get("/leaderboard", params={"game": "tiny-showdown", "players": "2"})
        if "Bob" in board.text:
            break
    assert board.status_code == 200
    assert board.text.index("Ann") < board.text.index("Bob"), "the winner first"
    default = client.get("/leaderboard")
    assert default.status_code == 200 and "Tiny Showdown, 2 players" in default.text
    assert client.get("/leaderboard", params={"game": "nope"}).status_code == 400

    history = client.get("/players/bob")
    assert history.status_code == 200
    assert "Tiny Showdown" in history.text and "lost (placed 2 of 2)" in history.text
    link = re.search(r'href="(/replay/[^"]+)"', history.text)
    assert link is not None
    assert client.get("/players/nobody").status_code == 404

    steps = len(client.get(f"/api/tables/{table_id}/record").json()["actions"])
    for seat in ("", "0", "1"):
        for step in range(steps + 1):
            page = client.get(f"/replay/{table_id}", params={"seat": seat, "step": str(step)})
            assert page.status_code == 200, (seat, step, page.text)
            assert f"Step {step} of {steps}" in page.text
            assert ('rel="next"' in page.text) == (step < steps) and ('rel="prev"' in page.text) == (step > 0)
            assert "data-act" not in page.text, "a replay offers no actions"

    # the seat's view hides the other card until the end; the spectator sees none before it
    def cards(seat: str, step: int) -> list[str]:
        page = client.get(f"/replay/{table_id}", params={"seat": seat, "step": str(step)}).text
        found = re.search(r"&#34;cards&#34;: \[\s*([^,\s]+),\s*([^\s\]]+)", page)
        assert found is not None, page
        return [found[1], found[2]]

    assert "as Ann<" in client.get(f"/replay/{table_id}", params={"seat": "0", "step": "2"}).text
    assert cards("0", 2)[0] != "null" and cards("0", 2)[1] == "null", "a seat sees its own card only"
    assert cards("1", 2)[0] == "null" and cards("1", 2)[1] != "null"
    assert cards("", 2) == ["null", "null"], "the spectator sees no card before the end"
    assert "null" not in cards("", steps), "every card is shown at the end"
    assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200
    for bad in ({"seat": "9"}, {"seat": "x"}, {"step": str(steps + 1)}, {"step": "-1"}):
        assert client.get(f"/replay/{table_id}", params=bad).status_code == 400
    assert client.get("/replay/nosuchtable").status_code == 404


def test_signing_out_revokes_the_session_a_copied_cookie_included(client: Any) -> None:
    assert _sign_up(client, "Ada").status_code == 303
    copied = client.cookies["shadowtable_account"]
    assert "Sign out" in client.get("/").text
    assert client.post("/logout", follow_redirects=False).status_code == 303
    client.cookies.clear()
    client.cookies.set("shadowtable_account", copied)
    page = client.get("/")
    assert "Sign out" not in page.text and 'href="/login"' in page.text
    assert client.get("/account/password", follow_redirects=False).headers["location"] == "/login"


def test_the_password_page_changes_it_and_signs_other_browsers_out(client: Any) -> None:
    assert _sign_up(client, "Ada").status_code == 303
    other = client.cookies["shadowtable_account"]
    client.cookies.clear()
    client.post("/login", data={"name": "Ada", "password": PASSWORD}, follow_redirects=False)
    form = client.get("/account/password")
    assert form.status_code == 200 and 'name="current_password"' in form.text and 'name="new_password"' in form.text
    assert 'href="/account/password"' in form.text
    wrong = client.post("/account/password", data={"current_password": "wrong", "new_password": "a good new one"})
    assert wrong.status_code == 403 and "error: the current password is wrong" in wrong.text
    weak = client.post("/account/password", data={"current_password": PASSWORD, "new_password": "password"})
    assert weak.status_code == 400 and "error: password: too common" in weak.text
    fields = {"current_password": PASSWORD, "new_password": "a good new one"}
    done = client.post("/account/password", data=fields, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/account/password?changed=yes"
    assert "every other browser was signed out" in client.get(done.headers["location"]).text
    client.cookies.clear()
    client.cookies.set("shadowtable_account", other)
    assert "Sign out" not in client.get("/").text, "the other browser is signed out"


def test_weak_passwords_and_reserved_names_are_error_pages(client: Any) -> None:
    for name, password, why in (
        ("Bobby", "password", "error: password: too common"),
        ("Bobby", "12345678", "error: password: too common"),
        ("Bobby", "bobby's secret", "error: password: it must not contain the account&#39;s name"),
        ("bot heuristic", PASSWORD, "reserved for bots"),
    ):
        answer = _sign_up(client, name, password)
        assert answer.status_code == 400 and why in answer.text, answer.text
    assert _sign_up(client, "Ada").status_code == 303
    client.cookies.clear()
    for name, why in (("ada", "an account&#39;s name"), ("Bot Ada", "reserved for bots"), ("Player 2", "reserved")):
        made = client.post("/tables", data={"game": "tiny-showdown", "players": "2", "name": name})
        assert made.status_code == 400 and why in made.text, made.text
    made = client.post("/tables", data={"game": "tiny-showdown", "players": "2", "name": "Bo"}, follow_redirects=False)
    table = made.headers["location"].rsplit("/", 1)[1]
    client.cookies.clear()
    taken = client.post(f"/t/{table}/join", data={"seat": "1", "name": "ADA"})
    assert taken.status_code == 400 and "an account&#39;s name" in taken.text


def test_a_refused_sign_up_or_sign_in_shows_its_form_again_with_the_error_and_the_name(client: Any) -> None:
    weak = _sign_up(client, "Bobby", "password")
    assert weak.status_code == 400 and 'action="/signup"' in weak.text and 'value="Bobby"' in weak.text
    assert 'role="alert">error: password: too common' in weak.text
    long = _sign_up(client, "x" * 5000, "a good long password")
    assert long.status_code == 400 and 'value="' + "x" * 32 + '"' in long.text and "x" * 33 not in long.text
    assert _sign_up(client, "Ada").status_code == 303
    client.cookies.clear()
    wrong = client.post("/login", data={"name": "<Ada>", "password": "wrong password"}, follow_redirects=False)
    assert wrong.status_code == 403 and 'action="/login"' in wrong.text and 'value="&lt;Ada&gt;"' in wrong.text
