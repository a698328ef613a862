"""What a password and a name may be: common passwords and the account's name refused at sign-up
and on a change; reserved names and accounts' names refused to guests."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from server.account_helpers import PASSWORD, Names, rows, sign_up
from shadowtable.server import schema
from shadowtable.server.names import reserved_problem
from shadowtable.server.passwords import common_passwords, password_problem


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "too common"),
        ("12345678", "too common"),
        ("PassWord", "too common"),
        (" qwertyuiop ", "too common"),
        ("shadowtable", "too common"),
        ("my annabel lee password", "the account's name"),
        ("xxANNABELLEExx!", "the account's name"),
        ("Annabel Lee", "the account's name"),
        ("short", "8 to 256"),
        ("p" * 257, "8 to 256"),
    ],
)
def test_weak_passwords_are_refused(password: str, why: str) -> None:
    problem = password_problem(password, "Annabel Lee")
    assert problem is not None and why in problem


def test_long_and_unusual_passwords_are_accepted() -> None:
    assert len(common_passwords()) > 19_000  # 20,000 lines, some the same once stripped
    for password in ("correct horse battery", "x" * 64, "é" * 256, "  spaces  inside  ", "tr0ub4dor&3 xq"):
        assert password_problem(password, "Annabel Lee") is None, password


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "password: too common"),
        ("12345678", "password: too common"),
        ("{name}2024!", "password: it must not contain the account's name"),
    ],
)
def test_sign_up_refuses_weak_passwords_and_stores_nothing(serve: Any, database: str, password: str, why: str) -> None:
    name = Names().ann
    with serve() as client:
        answer = client.post("/api/accounts", json={"name": name, "password": password.format(name=name.lower())})
        assert answer.status_code == 400 and answer.json()["error"].startswith(why)
        assert "shadowtable_account" not in answer.headers.get("set-cookie", "")
    assert rows(database, sa.select(schema.accounts).where(schema.accounts.c.name_key == name.casefold())) == []


def test_a_password_change_refuses_weak_passwords(serve: Any) -> None:
    name = Names().ann
    with serve() as client:
        sign_up(client, name)
        for weak, why in (("12345678", "too common"), (name.upper() + "?!", "name"), ("short", "8 to 256")):
            answer = client.post("/api/account/password", json={"current_password": PASSWORD, "new_password": weak})
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text


@pytest.mark.parametrize(
    "name",
    [
        "bot heuristic",
        "Bot Alice",
        "bot:ismcts",
        "heuristic",
        "ISMCTS",
        "Random",
        "Heuristic bot",
        "Player 3",
        "player2",
        "Seat 1",
        "host",
        "Admin",
        "ADMIN 2",
        "System",
        "root",
    ],
)
def test_reserved_names(name: str) -> None:
    assert reserved_problem(name) is not None


@pytest.mark.parametrize("name", ["Ann", "Robot", "Botticelli", "Abbot", "Hostess", "Ada <b>", "Playerone", "Guest"])
def test_ordinary_names(name: str) -> None:
    assert reserved_problem(name) is None


def open_table(client: Any) -> str:
    client.cookies.clear()
    answer = client.post("/api/tables", json={"game": "tiny-showdown", "players": 3, "sit": False})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def test_guests_may_not_sit_under_reserved_or_accounts_names(serve: Any, database: str) -> None:
    n = Names()
    with serve() as client:
        sign_up(client, n.ann)
        table_id = open_table(client)
        client.cookies.clear()
        for name, why in (
            ("bot heuristic", "reserved for bots"),
            ("Bot Mallory", "reserved for bots"),
            ("heuristic", "reserved for bots"),
            ("Player 3", "reserved for seats without a name"),
            ("Admin", "reserved"),
            ("system", "reserved"),
            (n.ann.upper(), "is an account's name: sign in to use it"),
            (f" {n.ann.lower()} ", "is an account's name"),
        ):
            joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": name})
            assert joined.status_code == 400 and why in joined.json()["error"], (name, joined.text)
            created = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "name": name})
            assert created.status_code == 400 and why in created.json()["error"], (name, created.text)
        seats = rows(database, sa.select(schema.seats.c.name).where(schema.seats.c.table_id == table_id))
        assert all(seat["name"] is None for seat in seats), "nothing was taken"
        # the seat's own default name is what a guest would get anyway; other names are fine
        assert (
            client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "player 2"}).json()["table"]["seats"][
                1
            ]["name"]
            == "Player 2"
        )
        client.cookies.clear()
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "Robot Ann"})
        assert joined.status_code == 200 and joined.json()["table"]["seats"][2]["name"] == "Robot Ann"
        # signed in, the account sits under its own name
        client.cookies.clear()
        client.post("/api/session", json={"name": n.ann, "password": PASSWORD})
        mine = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2})
        assert mine.status_code == 201 and mine.json()["table"]["seats"][0]["name"] == n.ann


def test_reserved_names_are_refused_at_sign_up(serve: Any) -> None:
    with serve() as client:
        for name in ("bot heuristic", "Player 7", "Administrator", "Heuristic"):
            answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 400 and "reserved" in answer.json()["error"], answer.text
