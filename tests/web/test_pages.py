"""The browser pages over HTTP (no browser): lobby, creation form, join links, forms, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from server.wire import BROWSER, Seat, play_out  # noqa: E402
from shadowtable.server.bot_levels import offered_levels  # noqa: E402


def _create(client: Any, **fields: str) -> Any:
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "human", **fields}
    return client.post("/tables", data=form, follow_redirects=False)


def test_the_lobby_offers_both_games_and_every_bot_level(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "The Shadow Planet" in page.text and "Shadowlord!" in page.text
    assert "/static/vendor/htmx-2.0.11.min.js" in page.text
    setup = client.get("/lobby/setup", params={"game": "shadow-planet", "players": "5"})
    assert setup.status_code == 200
    assert setup.text.count('name="seat_') == 4
    for bot in ("random", "heuristic", *offered_levels("shadow-planet", 5)):  # level 2 where shown (docs/bots.md)
        assert f"bot:{bot}" in setup.text
    assert "opt_content" not in setup.text, "an option naming a server file must not be offered"
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/static/boards/shadow_planet.css").status_code == 200


def test_creating_a_table_seats_the_creator_and_shows_join_links(client: Any) -> None:
    created = _create(client)
    assert created.status_code == 303
    table = created.headers["location"].rsplit("/", 1)[1]
    assert f"shadowtable_seats={table}:" in created.headers["set-cookie"]
    assert "httponly" in created.headers["set-cookie"].lower()
    page = client.get(f"/t/{table}")
    assert "you: Ada</span>" in page.text
    assert f"/t/{table}/seat/1" in page.text, "the free seat's join link"
    assert "Start now" in page.text
    # the lobby lists it as open
    assert table in client.get("/lobby/tables", params={"status": "open"}).text


def test_a_join_link_seats_a_friend_and_the_game_starts(client: Any, tmp_path: Path) -> None:
    table = _create(client).headers["location"].rsplit("/", 1)[1]
    with TestClient(client.app, base_url="http://testserver", headers=BROWSER) as friend:
        offer = friend.get(f"/t/{table}/seat/1")
        assert "Take this seat" in offer.text
        joined = friend.post(f"/t/{table}/join", data={"seat": "1", "name": "Bo"}, follow_redirects=False)
        assert joined.status_code == 303
        page = friend.get(f"/t/{table}")
        assert "you: Bo</span>" in page.text
        assert 'data-status="playing"' in page.text
        # a taken seat's link says so and offers to watch
        assert "This seat is taken" in client.get(f"/t/{table}/seat/1").text


def test_a_spectator_page_shows_the_board_and_no_seat(client: Any) -> None:
    table = _create(client, seat_1="bot:random").headers["location"].rsplit("/", 1)[1]
    with TestClient(client.app, base_url="http://testserver", headers=BROWSER) as stranger:
        page = stranger.get(f"/t/{table}")
        assert "watching" in page.text
        assert "<svg" in page.text
        assert "data-act" not in page.text, "a spectator has nothing to click"
        assert "Leave this seat" not in page.text


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"game": "chess"}, "game: choose one of"),
        ({"players": "9"}, "players: Shadowlord! takes 2 to 4"),
        ({"players": "two"}, "players: expected a number"),
        ({"seat_1": "bot:../../etc"}, "Player 2: expected human or one of the bots"),
        ({"players": "3", "seat_1": "bot:policy"}, "Player 2: expected human or one of the bots"),  # hidden
        ({"opt_turn_cap": "many"}, "option turn_cap: expected a whole number"),
        ({"opt_turn_cap": "0"}, "turn_cap"),
        ({"opt_modified": "maybe"}, "option modified: expected yes or no"),
        ({"clock": "ten"}, "clock: expected whole seconds"),
        ({"name": "x" * 40}, "name: 1 to 32 printable characters"),
    ],
)
def test_a_bad_form_gets_one_clear_error_and_creates_nothing(
    client: Any, fields: dict[str, str], why: str, hide_shipped_policy: Any
) -> None:
    hide_shipped_policy("shadowlord", 3)
    answer = _create(client, **fields)
    assert answer.status_code == 400
    assert re.search(r"error: .*" + re.escape(why), answer.text), answer.text
    assert "Traceback" not in answer.text
    assert "None right now" in client.get("/lobby/tables", params={"status": "open"}).text


def test_options_naming_a_server_file_are_refused_over_rest(client: Any) -> None:
    answer = client.post(
        "/api/tables", json={"game": "shadowlord", "players": 2, "options": {"content": "/etc/passwd"}}
    )
    assert answer.status_code == 400
    assert "not accepted by the server" in answer.json()["error"]


def test_unknown_tables_and_seats_get_an_error_page(client: Any) -> None:
    assert client.get("/t/nosuchtable").status_code == 404
    table = _create(client).headers["location"].rsplit("/", 1)[1]
    for seat in ("7", "-1", "x", "١"):
        answer = client.get(f"/t/{table}/seat/{seat}")
        assert answer.status_code == 400 and "error: seat must be between 0 and 1" in answer.text
    taken = client.post(f"/t/{table}/join", data={"seat": "0"}, follow_redirects=False)
    assert taken.status_code == 409 and "seat 0 is not free" in taken.text
    # start, leave and rematch need the seat's cookie
    with TestClient(client.app, base_url="http://testserver", headers=BROWSER) as stranger:
        assert stranger.post(f"/t/{table}/start", follow_redirects=False).status_code == 403
        assert stranger.post(f"/t/{table}/rematch", follow_redirects=False).status_code == 403


def test_start_now_fills_free_seats_with_bots_and_leave_hands_the_seat_over(client: Any) -> None:
    table = _create(client).headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/t/{table}/start", follow_redirects=False).status_code == 303
    info = client.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing" and info["seats"][1]["kind"] == "bot"
    left = client.post(f"/t/{table}/leave", follow_redirects=False)
    assert left.status_code == 303
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["bot_playing"] is True
    assert "watching" in client.get(f"/t/{table}").text


def test_rematch_seats_the_asker_at_the_same_seat_of_a_new_table(client: Any) -> None:
    table = _create(client, seat_1="bot:random", opt_turn_cap="1").headers["location"].rsplit("/", 1)[1]
    with client.websocket_connect(f"/ws/{table}") as socket:
        seat = Seat(socket)
        seat.hello()  # the browser's cookie says whose seat it is
        play_out(seat)
    answer = client.post(f"/t/{table}/rematch", follow_redirects=False)
    assert answer.status_code == 303
    new = answer.headers["location"].rsplit("/", 1)[1]
    assert new != table
    assert "you: Ada</span>" in client.get(f"/t/{new}").text


def test_a_name_with_markup_is_shown_as_text(client: Any) -> None:
    name = "<img src=x onerror=alert(1)>"
    table = _create(client, name=name, seat_1="bot:random").headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{table}").text
    assert name not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_a_table_against_the_shipped_policy_is_offered_where_one_ships_and_plays_to_the_end(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hide_shipped_policy: Any
) -> None:
    pytest.importorskip("torch")
    from shadowtable.bots import ladder

    hide_shipped_policy("shadowlord", 3)

    monkeypatch.setenv(ladder.RESULTS_ENV, str(tmp_path))  # a results folder where the policy is shown stronger
    shown = {
        "upper": {"spec": "policy", "interval": [0.42, 0.48]},
        "lower": {"interval": [0.33, 0.36]},
        "separated": True,
    }
    for config in ("shadow-planet-4p", "shadowlord-3p"):  # none ships (hidden) for Shadowlord! with 3 players
        ladder.result_path(tmp_path, config, "policy", "heuristic").write_text(json.dumps(shown))
    offered = client.get("/lobby/setup", params={"game": "shadow-planet", "players": "4"}).text
    assert "bot:policy" in offered and "Trained policy" in offered
    for game, players in (("shadow-planet", "5"), ("shadowlord", "2"), ("shadowlord", "3")):  # no result, or none ships
        assert "bot:policy" not in client.get("/lobby/setup", params={"game": game, "players": players}).text
    seats = {f"seat_{i}": "bot:policy" for i in (1, 2, 3)}
    created = _create(client, game="shadow-planet", players="4", **seats)
    assert created.status_code == 303, created.text
    table = created.headers["location"].rsplit("/", 1)[1]
    with client.websocket_connect(f"/ws/{table}") as socket:
        seat = Seat(socket)
        seat.hello()
        over = play_out(seat)
    assert len(over["returns"]) == 4
    seats = ["human", "bot:policy", "bot:heuristic"]
    refused = client.post("/api/tables", json={"game": "shadowlord", "players": 3, "seats": seats})
    assert refused.status_code == 400 and "no policy ships for shadowlord with 3 players" in refused.json()["error"]
