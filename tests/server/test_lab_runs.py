"""The designer's lab on the server: who may use it, specs checked before anything is stored, runs
played in chunks by the worker pool, stopped and resumed to the same figures, limits, odd games
opened in the replay."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from server.account_helpers import sign_up
from server.conftest import config_for
from server.wire import BROWSER
from shadowtable.lab.figures import lab_figures
from shadowtable.lab.run import play_rows, replay_record
from shadowtable.lab.spec import check_spec
from shadowtable.server import schema
from shadowtable.server.app import create_app
from shadowtable.server.lab_runs import LabRuns
from shadowtable.server.repository import lab as sql
from shadowtable.server.store import StoreError

LAB = {
    "lab_accounts": ["designer"],
    "analysis_workers": 1,
    "analysis_poll_s": 0.1,
    "lab_chunk": 4,
    "rate_lab_reads": "100000/second",
    "rate_lab_runs": "1000/minute",
}


def spec(games: int = 12, seed: int = 7, **extra: Any) -> dict[str, Any]:
    """A quick run: 3-player Shadow Planet with random bots, a baseline and one variant."""
    return {
        "game": "shadow-planet",
        "players": 3,
        "variants": [
            {"name": "baseline", "options": {}, "content": None},
            {"name": "no latch", "options": {"latched_end": False}, "content": None},
        ],
        "bots": ["level0"],
        "games": games,
        "seed": seed,
        **extra,
    }


DEADLINE = 600.0
"""How long a test waits for the lab's workers to get somewhere: a bound against hanging on a slow,
shared machine (where 120 s was too short for a run's chunks), not a claim about speed."""


def wait_for(condition: Callable[[], Any], seconds: float) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not reached within {seconds} s")


def expected_figures(data: dict[str, Any]) -> dict[str, Any]:
    """The figures the lab core computes for ``data`` played whole in this process."""
    checked = check_spec(data)
    arms = len(checked.variants) + len(checked.probes)
    rows = {arm: play_rows(checked.to_json(), arm, 0, checked.games) for arm in range(arms)}
    return lab_figures(checked, rows)


def finished(client: TestClient, run_id: str, seconds: float = DEADLINE) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        answer: dict[str, Any] = client.get(f"/api/lab/runs/{run_id}").json()
        assert answer["status"] != "failed", answer
        return answer if answer["status"] == "done" else None

    wait_for(done, seconds)
    found: dict[str, Any] = client.get(f"/api/lab/runs/{run_id}?figures=true").json()
    return found


@pytest.fixture
def lab_client(sqlite_database: str) -> Callable[..., TestClient]:
    def start(**overrides: Any) -> TestClient:
        return TestClient(create_app(config_for(sqlite_database, **{**LAB, **overrides})), headers=BROWSER)

    return start


def test_only_allowed_accounts_reach_the_lab_and_see_its_link(lab_client: Callable[..., TestClient]) -> None:
    with lab_client() as client:
        guest = client.get("/api/lab/runs")
        assert guest.status_code == 403 and "sign in" in guest.json()["error"]
        sign_up(client, "gamer")
        refused = client.get("/lab")
        assert refused.status_code == 403 and "--lab-account" in refused.text
        assert client.post("/api/lab/runs", json=spec()).status_code == 403
        assert "Designer's lab" not in client.get("/").text
        sign_up(client, "designer")
        assert client.get("/lab").status_code == 200
        assert 'id="lab-link"' in client.get("/").text


def test_every_signed_in_account_with_star_and_nobody_by_default(sqlite_database: str) -> None:
    with TestClient(create_app(config_for(sqlite_database, lab_accounts=["*"])), headers=BROWSER) as client:
        sign_up(client, "anyone")
        assert client.get("/lab").status_code == 200
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        sign_up(client, "someone")
        assert client.get("/lab").status_code == 403


def test_a_bad_spec_is_refused_naming_its_field_and_nothing_is_stored(lab_client: Callable[..., TestClient]) -> None:
    with lab_client() as client:
        sign_up(client, "designer")
        bad = spec()
        bad["variants"][1]["options"] = {"identity_ties": "coin"}
        answer = client.post("/api/lab/runs", json=bad)
        assert answer.status_code == 422
        assert answer.json()["error"].startswith("variants[1].options.identity_ties")
        content = spec()
        content["variants"][1]["content"] = {"not": "content"}
        answer = client.post("/api/lab/runs", json=content)
        assert answer.status_code == 422 and answer.json()["error"].startswith("variants[1].content")
        form = {"game": "shadow-planet", "players": "3", "games": "10", "seed": "1", "bot_0": "level0"}
        form.update(bot_1="level0", bot_2="nobot", v0_name="baseline")
        page = client.post("/lab/new", data=form)
        assert page.status_code == 422 and 'data-field="bots[2]"' in page.text
        form.update(bot_2="level0", v1_on="1", v1_edit="1", v1_content="{not json")
        page = client.post("/lab/new", data=form)
        assert page.status_code == 422 and 'data-field="variants[1].content"' in page.text
        assert "{not json" in page.text, "the form keeps what was typed"
        assert client.get("/api/lab/runs").json() == []


def test_a_run_plays_every_arm_to_the_core_figures_and_exports(serve: Callable[..., TestClient]) -> None:
    data = spec()
    with serve(**LAB) as client:  # on SQLite and PostgreSQL
        sign_up(client, "designer")
        made = client.post("/api/lab/runs", json=data)
        assert made.status_code == 201, made.text
        run = finished(client, made.json()["id"])
        assert run["done"] == [12, 12]
        assert run["result"] == expected_figures(data)
        page = client.get(f"/lab/{run['id']}")
        assert page.status_code == 200 and "<svg" in page.text and "p value" in page.text
        assert "Game length: the numbers" in page.text and page.text.count("<figure") >= 4
        assert client.get(f"/lab/{run['id']}/spec.json").json() == check_spec(data).to_json()
        csv = client.get(f"/lab/{run['id']}/rows.csv")
        assert csv.status_code == 200 and csv.text.count("\n") > 24
        assert client.get(f"/lab/{run['id']}/rows.parquet").content[:4] == b"PAR1"


@pytest.mark.slow  # 75 s: a lab run stopped and resumed
def test_stop_then_resume_gives_the_figures_of_an_uninterrupted_run(lab_client: Callable[..., TestClient]) -> None:
    data = spec(games=24, seed=11)
    with lab_client() as client:
        sign_up(client, "designer")
        run_id = client.post("/api/lab/runs", json=data).json()["id"]
        wait_for(lambda: client.get(f"/api/lab/runs/{run_id}").json()["done"][0] >= 4, 60)
        stopped = client.post(f"/api/lab/runs/{run_id}/stop")
        assert stopped.status_code == 200 and stopped.json()["status"] == "stopped"
        # the stop lands between chunks: the chunk in hand is finished first, by a worker the test run's
        # own load may starve for a while, so the bound is generous (the stop's promptness is not measured here)
        settled = wait_for(
            lambda: (s := client.get(f"/api/lab/runs/{run_id}").json())["claimed"] is False and s, DEADLINE
        )
        time.sleep(1.0)  # no chunk is taken after the stop
        again = client.get(f"/api/lab/runs/{run_id}").json()
        assert again["done"] == settled["done"] and sum(again["done"]) < 48 and again["status"] == "stopped"
        assert client.post(f"/api/lab/runs/{run_id}/stop").status_code == 409
        resumed = client.post(f"/api/lab/runs/{run_id}/resume")
        assert resumed.status_code == 200, resumed.text
        assert finished(client, run_id)["result"] == expected_figures(data)


def test_limits_runs_kept_one_running_and_games(lab_client: Callable[..., TestClient]) -> None:
    with lab_client(lab_max_runs=2, lab_max_games=50) as client:
        sign_up(client, "designer")
        too_many = client.post("/api/lab/runs", json=spec(games=51))
        assert too_many.status_code == 422 and too_many.json()["error"].startswith("games")
        first = client.post("/api/lab/runs", json=spec(games=50)).json()["id"]
        second = client.post("/api/lab/runs", json=spec(games=4))
        assert second.status_code == 409 and "queued or running" in second.json()["error"]
        client.post(f"/api/lab/runs/{first}/stop")
        wait_for(lambda: client.get(f"/api/lab/runs/{first}").json()["claimed"] is False, DEADLINE)  # after its chunk
        assert client.post("/api/lab/runs", json=spec(games=4)).status_code == 201
        wait_for(lambda: all(r["status"] in ("done", "stopped") for r in client.get("/api/lab/runs").json()), DEADLINE)
        third = client.post("/api/lab/runs", json=spec(games=4))
        assert third.status_code == 409 and "delete one first" in third.json()["error"]
        assert client.delete(f"/api/lab/runs/{first}").status_code == 204
        assert client.get(f"/api/lab/runs/{first}").status_code == 404
        assert client.post("/api/lab/runs", json=spec(games=4)).status_code == 201


def test_a_run_is_its_owners_alone(lab_client: Callable[..., TestClient]) -> None:
    with lab_client(lab_accounts=["*"]) as client:
        sign_up(client, "designer")
        run_id = client.post("/api/lab/runs", json=spec(games=4)).json()["id"]
        sign_up(client, "other")
        assert client.get(f"/api/lab/runs/{run_id}").status_code == 404
        assert client.get(f"/lab/{run_id}/spec.json").status_code == 404
        assert client.post(f"/api/lab/runs/{run_id}/stop").status_code == 404


def test_an_odd_game_opens_in_the_replay_with_the_reveal(lab_client: Callable[..., TestClient]) -> None:
    with lab_client() as client:
        sign_up(client, "designer")
        run_id = client.post("/api/lab/runs", json=spec(games=4)).json()["id"]
        odd = finished(client, run_id)["result"]["odd_games"][0]
        opened = client.post(f"/lab/{run_id}/odd/{odd['arm']}/{odd['index']}", follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"].endswith("?reveal=1")
        replay = client.get(opened.headers["location"])
        assert replay.status_code == 200, replay.text
        again = client.post(f"/lab/{run_id}/odd/{odd['arm']}/{odd['index']}", follow_redirects=False)
        assert again.headers["location"] == opened.headers["location"]  # made once
        table_id = opened.headers["location"].split("/")[2].split("?")[0]
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["actions"] == replay_record(check_spec(spec(games=4)), odd["arm"], odd["index"]).actions
        assert client.post(f"/lab/{run_id}/odd/0/3999", follow_redirects=False).status_code == 404


def test_the_new_run_form_makes_the_spec_it_shows(lab_client: Callable[..., TestClient]) -> None:
    with lab_client() as client:
        sign_up(client, "designer")
        shown = client.get("/lab/new?game=shadow-planet&players=3")
        assert shown.status_code == 200
        assert 'name="v1_opt_latched_end"' in shown.text and "lab-content" in shown.text
        assert re.search(r'id="lab-seed"[^>]*value="\d+"', shown.text), "a drawn seed is shown"
        form = {"game": "shadow-planet", "players": "3", "games": "6", "seed": "5", "v0_name": "printed rules"}
        form.update({f"bot_{seat}": "level0" for seat in range(3)})
        form.update(v1_on="1", v1_name="no latch", v1_opt_latched_end="false", v1_opt_identity_ties="choose")
        form.update(v2_name="not played", v2_opt_latched_end="false")  # v2_on unticked: left out
        form.update(p0_role="seat 0", p0_kind=client_kinds(shown.text)[0], p1_role="")
        made = client.post("/lab/new", data=form, follow_redirects=False)
        assert made.status_code == 303, made.text
        run_id = made.headers["location"].rsplit("/", 1)[1]
        stored = client.get(f"/lab/{run_id}/spec.json").json()
        assert stored["variants"] == [
            {"name": "printed rules", "options": {}, "content": None},
            {"name": "no latch", "options": {"latched_end": False}, "content": None},
        ]
        assert stored["probes"] == [{"role": "seat 0", "kind": client_kinds(shown.text)[0]}]
        assert (stored["games"], stored["seed"], stored["bots"]) == (6, 5, ["level0"] * 3)


def client_kinds(html: str) -> list[str]:
    """The kinds of action the form's first probe offers."""
    select = html.split('id="p0-kind"', 1)[1].split("</select>", 1)[0]
    return re.findall(r'<option value="([^"]+)"', select)


def test_the_database_holds_one_active_run_per_account(serve: Callable[..., TestClient]) -> None:
    with serve(**{**LAB, "analysis_workers": 0}) as client:  # on SQLite and PostgreSQL
        sign_up(client, "racer")
        lab: LabRuns = client.app.state.lab  # type: ignore[attr-defined]
        checked = check_spec(spec(games=4)).to_json()

        async def two_at_once() -> list[Any]:
            store = lab.database()
            found = await store.fetch(sa.select(schema.accounts.c.id).where(schema.accounts.c.name == "racer"))
            owner = found[0]["id"]
            inserts = [store.execute(sql.insert_run(f"race{n}", owner, checked, 2, 4, time.time())) for n in range(2)]
            return list(await asyncio.gather(*inserts, return_exceptions=True))

        outcomes = client.portal.call(two_at_once)  # type: ignore[union-attr]
        refused = [o for o in outcomes if isinstance(o, StoreError)]
        assert len(refused) == 1 and isinstance(refused[0].__cause__, sa.exc.IntegrityError), outcomes
