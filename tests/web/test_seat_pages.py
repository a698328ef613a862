"""The pages of a seat vacated in play (no Sit for anyone, "Take my seat back" for its player, the
host's single-use invite link) and of a second seat (asked first, never orphaning the first)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")


class Browsers:
    """Several browsers on one test client: each keeps its own cookies (one server, one event loop)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}
        self.current = "ada"

    def __call__(self, name: str) -> Any:
        """The client, now holding the cookies of browser ``name``."""
        if name != self.current:
            self.jars[self.current] = dict(self.client.cookies)
            self.client.cookies.clear()
            for key, value in self.jars.get(name, {}).items():
                self.client.cookies.set(key, value)
            self.current = name
        return self.client


def table_in_play(as_: Browsers) -> str:
    """Ada creates a Shadowlord! table for two; Bo (browser ``bo``) takes seat 1: in play."""
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "human"}
    table: str = as_("ada").post("/tables", data=form, follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    joined = as_("bo").post(f"/t/{table}/join", data={"seat": "1", "name": "Bo"}, follow_redirects=False)
    assert joined.status_code == 303
    assert as_("ada").get(f"/api/tables/{table}").json()["status"] == "playing"
    return table


def test_a_seat_left_in_play_offers_no_sit_and_its_player_takes_it_back(client: Any) -> None:
    as_ = Browsers(client)
    table = table_in_play(as_)
    assert as_("bo").post(f"/t/{table}/leave", follow_redirects=False).status_code == 303
    mine = as_("bo").get(f"/t/{table}").text
    assert "You left this seat; a bot plays it" in mine and "Take my seat back" in mine
    assert "watching" in mine
    # a stranger: no link, no button, and the form is refused
    page = as_("stranger").get(f"/t/{table}").text
    assert f"/t/{table}/seat/1" not in page and "take it" not in page
    assert "Take my seat back" not in page
    offer = as_("stranger").get(f"/t/{table}/seat/1").text
    assert "Sit at seat" not in offer and "A bot plays this seat since its player left it" in offer
    tried = as_("stranger").post(f"/t/{table}/join", data={"seat": "1", "name": "Mallory"}, follow_redirects=False)
    assert tried.status_code == 409 and "only that player, or someone the table" in tried.text
    assert "shadowtable_seat" not in tried.headers.get("set-cookie", "")
    assert as_("stranger").post(f"/t/{table}/return", follow_redirects=False).status_code == 403
    # the leaver's button
    assert as_("bo").post(f"/t/{table}/return", follow_redirects=False).status_code == 303
    assert "you: Bo</span>" in as_("bo").get(f"/t/{table}").text


def test_the_host_makes_an_invite_link_that_seats_one_player_once(client: Any) -> None:
    as_ = Browsers(client)
    table = table_in_play(as_)
    assert "Make an invite link" not in as_("ada").get(f"/t/{table}").text
    as_("bo").post(f"/t/{table}/leave", follow_redirects=False)
    host_page = as_("ada").get(f"/t/{table}").text
    assert "Make an invite link" in host_page
    assert "Make an invite link" not in as_("bo").get(f"/t/{table}").text, "only the host invites"
    assert as_("bo").post(f"/t/{table}/invite", data={"seat": "1"}, follow_redirects=False).status_code == 403
    made = as_("ada").post(f"/t/{table}/invite", data={"seat": "1"}, follow_redirects=False)
    assert made.status_code == 200 and made.headers["cache-control"] == "no-store"
    link = made.text.split(f"http://testserver/t/{table}/invite/", 1)[1].split('"', 1)[0]
    offer = as_("guest").get(f"/t/{table}/invite/{link}")
    assert offer.status_code == 200 and "Take this seat" in offer.text and "the seat of Player 2" in offer.text
    assert (
        offer.headers["referrer-policy"] == "same-origin"
    )  # never to other sites (no-referrer would send Origin: null)
    sat = as_("guest").post(
        f"/t/{table}/join", data={"seat": "1", "invite": link, "name": "Cy"}, follow_redirects=False
    )
    assert sat.status_code == 303
    assert "you: Cy</span>" in as_("guest").get(f"/t/{table}").text
    used = as_("late").get(f"/t/{table}/invite/{link}")
    assert used.status_code == 409 and "invite link is not valid" in used.text and "Sit at" not in used.text
    again = as_("late").post(f"/t/{table}/join", data={"seat": "1", "invite": link}, follow_redirects=False)
    assert again.status_code == 409
    assert "Take my seat back" not in as_("bo").get(f"/t/{table}").text, "the invited player holds it now"


def test_a_second_seat_from_the_same_browser_is_asked_first_and_frees_the_first(client: Any) -> None:
    form = {"game": "shadowlord", "players": "3", "name": "Ada", "seat_1": "human", "seat_2": "human"}
    table = client.post("/tables", data=form, follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    offer = client.get(f"/t/{table}/seat/2").text
    assert (
        "You already sit at this table as Player 1. Move to the seat of Player 3?" in offer
        and "Take this seat" not in offer
    )
    silent = client.post(f"/t/{table}/join", data={"seat": "2"}, follow_redirects=False)
    assert (
        silent.status_code == 409
        and "You already sit at this table as Player 1. Move to the seat of Player 3?" in silent.text
    )
    assert "set-cookie" not in silent.headers
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["taken"] for s in seats] == [True, False, False]
    moved = client.post(f"/t/{table}/join", data={"seat": "2", "move": "yes"}, follow_redirects=False)
    assert moved.status_code == 303
    page = client.get(f"/t/{table}").text
    assert "you: Ada</span>" in page and "Start now" in page
    info = client.get(f"/api/tables/{table}").json()
    assert [s["taken"] for s in info["seats"]] == [False, False, True] and info["host_seat"] == 2
    assert f"/t/{table}/seat/0" in page, "the first seat is free again, with its join link"
