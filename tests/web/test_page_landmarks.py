"""Every page over HTTP (no browser): one ``<h1>``, the favicon linked and served, the waiting
status without an emoji, and the lobby's bot pace stored with the table it creates."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

EMOJI = re.compile("[\U0001f300-\U0001faff\u2300-\u23ff\u2600-\u27bf]")
"""Pictographs, the technical symbols (the hourglass, the stopwatch) and the dingbats."""


def _create(client: Any, **fields: str) -> str:
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "human", **fields}
    created = client.post("/tables", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    return str(created.headers["location"].rsplit("/", 1)[1])


def test_every_page_has_one_h1_and_the_favicon(client: Any) -> None:
    table = _create(client)
    paths = [
        "/",
        f"/t/{table}",
        f"/t/{table}/seat/1",
        "/leaderboard",
        "/login",
        "/signup",
        "/me/tables",
        "/t/nosuchtable",
    ]
    for path in paths:
        page = client.get(path).text
        assert len(re.findall(r"<h1[\s>]", page)) == 1, path
        assert 'rel="icon"' in page and "/static/favicon.svg" in page, path
        skip = re.search(r'<a class="skip" href="#main">([^<]+)</a>', page)
        wanted = "Skip to the game" if path == f"/t/{table}" else "Skip to the main content"
        assert skip is not None and skip[1] == wanted, path
    for icon in ("favicon.svg", "favicon-turn.svg"):
        served = client.get(f"/static/{icon}")
        assert served.status_code == 200 and served.headers["content-type"].startswith("image/svg+xml")


def test_no_page_script_or_style_carries_an_emoji(client: Any) -> None:
    for path in ("/static/table.js", "/static/alerts.js", "/static/style.css", "/static/boards/shadowlord.css"):
        text = client.get(path).text
        assert not EMOJI.search(text), f"{path}: {EMOJI.findall(text)}"


@pytest.mark.parametrize(("field", "stored"), [({"pace": "relaxed"}, "relaxed"), ({}, None)])
def test_the_lobby_form_stores_the_bot_pace(client: Any, field: dict[str, str], stored: str | None) -> None:
    table = _create(client, **field)
    assert client.get(f"/api/tables/{table}").json()["pace"] == stored


def test_the_lobby_offers_the_three_paces_quick_first_chosen(client: Any) -> None:
    page = client.get("/").text
    select = re.search(r'<select name="pace">(.*?)</select>', page, re.S)
    assert select is not None
    assert re.findall(r'value="(\w+)"', select.group(1)) == ["instant", "quick", "relaxed"]
    assert re.search(r'value="quick"\s+selected', select.group(1))


def test_an_unknown_pace_from_the_form_is_refused(client: Any) -> None:
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "human", "pace": "glacial"}
    answer = client.post("/tables", data=form, follow_redirects=False)
    assert answer.status_code == 400 and "pace" in answer.text
