"""A rematch keeps each seat for the player who held it in the finished game: only they (their
account, or their seat's token at the finished table) take it, until they decline it or the
reservation ends; bots stay bots."""

from __future__ import annotations

from typing import Any

from server.account_helpers import Names, log_in, seat0_wins, sign_up, table_of
from server.wire import create

KEPT = "is kept for the player who held it in the last game"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finished_pair(client: Any) -> tuple[str, str, str]:
    """A finished tiny game of two guests: its id and their tokens (no cookies left)."""
    table_id, token0, token1 = table_of(client, None, None)
    seat0_wins(client, table_id, token0, token1)
    client.cookies.clear()
    return table_id, token0, token1


def rematch_of(client: Any, table_id: str, token: str) -> dict[str, Any]:
    answer = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    body: dict[str, Any] = answer.json()
    return body


def test_a_stranger_cannot_take_a_kept_seat_and_its_former_holder_can(serve: Any) -> None:
    with serve() as client:
        old, token0, token1 = finished_pair(client)
        new = rematch_of(client, old, token0)
        assert all(seat["reserved_until"] for seat in new["seats"])
        for wanted in ({"seat": 1, "name": "Mallory"}, {"name": "Mallory"}):
            taken = client.post(f"/api/tables/{new['id']}/join", json=wanted)
            assert taken.status_code == 409 and KEPT in taken.json()["error"], taken.text
        # the other player's token of the finished table is not seat 1's
        wrong = client.post(f"/api/tables/{new['id']}/join", json={"seat": 1}, headers=bearer(token0))
        assert wrong.status_code == 409 and KEPT in wrong.json()["error"]
        client.cookies.clear()
        back = client.post(f"/api/tables/{new['id']}/join", json={}, headers=bearer(token1))
        assert back.status_code == 200 and back.json()["seat"] == 1, back.text
        assert back.json()["table"]["seats"][1]["reserved_until"] is None
        client.cookies.clear()
        assert client.post(f"/api/tables/{new['id']}/start", headers=bearer(back.json()["token"])).status_code == 409
        client.cookies.clear()
        first = client.post(f"/api/tables/{new['id']}/join", json={"seat": 0}, headers=bearer(token0))
        assert first.status_code == 200 and first.json()["table"]["status"] == "playing"


def test_the_browser_cookie_of_the_finished_table_takes_the_seat_on_the_page(serve: Any) -> None:
    with serve() as client:
        old, token0, token1 = finished_pair(client)
        client.cookies.set("shadowtable_seats", f"{old}:{token0}")
        answer = client.post(f"/t/{old}/rematch", follow_redirects=False)
        assert answer.status_code == 303
        new_id = answer.headers["location"].removeprefix("/t/")
        info = client.get(f"/api/tables/{new_id}").json()
        assert info["seats"][0]["taken"] and info["seats"][1]["reserved_until"]
        # the former holder of seat 1, on the page of the rematch: it is kept for them
        client.cookies.clear()
        client.cookies.set("shadowtable_seats", f"{old}:{token1}")
        page = client.get(f"/t/{new_id}").text
        assert "kept for you from the last game" in page and f'action="/t/{new_id}/decline"' in page
        client.cookies.clear()
        stranger = client.get(f"/t/{new_id}").text
        assert "kept for its player from the last game" in stranger and "/decline" not in stranger
        assert "only they can take it now" in client.get(f"/t/{new_id}/seat/1").text
        refused = client.post(f"/t/{new_id}/join", data={"seat": "1"}, follow_redirects=False)
        assert refused.status_code == 409 and KEPT in refused.text


def test_declining_frees_the_seat_for_anyone(serve: Any) -> None:
    with serve() as client:
        old, token0, token1 = finished_pair(client)
        new = rematch_of(client, old, token0)
        nobody = client.post(f"/api/tables/{new['id']}/decline")
        assert nobody.status_code == 409 and "no seat of this table is kept for you" in nobody.json()["error"]
        declined = client.post(f"/api/tables/{new['id']}/decline", headers=bearer(token1))
        assert declined.status_code == 200, declined.text
        assert [s["reserved_until"] is None for s in declined.json()["seats"]] == [False, True]
        client.cookies.clear()
        taken = client.post(f"/api/tables/{new['id']}/join", json={"name": "Mallory"})
        assert taken.status_code == 200 and taken.json()["seat"] == 1, taken.text


def test_a_reservation_ends_after_its_time(serve: Any) -> None:
    with serve(rematch_keep_s=0.0) as client:
        old, token0, _token1 = finished_pair(client)
        new = rematch_of(client, old, token0)
        assert [s["reserved_until"] for s in new["seats"]] == [None, None]
        taken = client.post(f"/api/tables/{new['id']}/join", json={"seat": 1, "name": "Mallory"})
        assert taken.status_code == 200, taken.text


def test_an_account_takes_its_kept_seat_from_any_browser_and_bots_stay_bots(serve: Any) -> None:
    with serve() as client:
        names = Names()
        sign_up(client, names.ann)
        old, token0, _ = table_of(client, names.ann, None, seats=["human", "bot:random"])
        with client.websocket_connect(f"/ws/{old}") as ws:
            from server.wire import Seat, play_out

            seat = Seat(ws)
            seat.hello(token0)
            play_out(seat)
        new = rematch_of(client, old, token0)
        assert new["seats"][1]["kind"] == "bot" and new["seats"][1]["reserved_until"] is None
        assert new["seats"][0]["reserved_until"]
        assert client.post(f"/api/tables/{new['id']}/join", json={"name": "Mallory"}).status_code == 409
        log_in(client, names.ann)  # no seat cookie: the account alone
        taken = client.post(f"/api/tables/{new['id']}/join", json={})
        assert taken.status_code == 200 and taken.json()["seat"] == 0, taken.text
        assert taken.json()["table"]["status"] == "playing"


def test_a_seat_left_in_play_is_not_kept(serve: Any) -> None:
    with serve() as client:
        answer = create(client, game="tiny-showdown", players=2, seats=["human", "human"], options={"rounds": 1})
        old = answer["table"]["id"]
        client.cookies.clear()
        token1 = client.post(f"/api/tables/{old}/join", json={}).json()["token"]
        client.cookies.clear()
        assert client.post(f"/api/tables/{old}/leave", headers=bearer(token1)).status_code == 200
        with client.websocket_connect(f"/ws/{old}") as ws:
            from server.wire import Seat, play_out

            seat = Seat(ws)
            seat.hello(answer["token"])
            play_out(seat)
        new = rematch_of(client, old, answer["token"])
        assert [bool(s["reserved_until"]) for s in new["seats"]] == [True, False]
