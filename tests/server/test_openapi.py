"""Schemathesis against the server's OpenAPI schema (in process): no 5xx, and every answer as the
schema says."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from server.conftest import config_for
from shadowtable.server.app import create_app

FOLDER = Path(tempfile.mkdtemp(prefix="shadowtable-openapi-"))
UNLIMITED = {
    "rate_tables": "",
    "rate_joins": "",
    "rate_replays": "",
    "rate_logins": "",
    "rate_signups": "",
    "rate_login_failures": "",
    "max_open_tables": 0,
    "max_free_seats": 0,
}
"""The fuzzer makes hundreds of tables and seats from one client: no per-client limits here
(``test_limits.py`` tests them; their 429 is in the schema all the same)."""
APP = create_app(config_for(str(FOLDER / "server.db"), **UNLIMITED))
schema = schemathesis.openapi.from_dict(APP.openapi())
schema.app = APP  # requests go to the app in process; its lifespan starts with the first one


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
"""No 5xx, answers as documented, and data the schema forbids refused (schemathesis's other
checks expect schema-valid data accepted, but an unknown game id is schema-valid and a 400)."""


@pytest.fixture(scope="module", autouse=True)
def _stop_the_app() -> Iterator[None]:
    yield
    asgi.shutdown_lifespans()
    shutil.rmtree(FOLDER, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
def test_every_operation_answers_as_its_schema_says(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


def tables_in_every_state() -> list[str]:
    """Tables open, in play and over (random ids mostly find none), made through the API."""
    import time

    with asgi.get_client(APP) as client:
        made = [
            client.post("/api/tables", json={"game": "tiny-showdown", "players": 3}),
            client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["human", "bot:random"]}),
            client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["bot:random"] * 2}),
        ]
        ids = [response.json()["table"]["id"] for response in made]
        for _ in range(200):
            if client.get(f"/api/tables/{ids[2]}").json()["status"] == "over":
                break
            time.sleep(0.01)
        assert [client.get(f"/api/tables/{i}").json()["status"] for i in ids] == ["open", "playing", "over"]
    return ids


TABLE_OPERATIONS = [
    (path, method.upper())
    for path, methods in APP.openapi()["paths"].items()
    if "{table_id}" in path
    for method in methods
]


@pytest.mark.parametrize(("path", "method"), TABLE_OPERATIONS)
def test_operations_on_tables_that_exist_answer_as_documented(path: str, method: str) -> None:
    tables = tables_in_every_state()

    @given(case=schema[path][method].as_strategy(), table=st.sampled_from(tables))
    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def answers_as_documented(case: schemathesis.Case, table: str) -> None:
        case.path_parameters = {**(case.path_parameters or {}), "table_id": table}
        case.call_and_validate(checks=CHECKS)

    answers_as_documented()


ARGUMENT_NAMES = ["players", "game_id", "game", "options", "content", "seed", "self", "cls", ""]


@given(
    case=schema["/api/tables"]["POST"].as_strategy(),
    name=st.sampled_from(ARGUMENT_NAMES),
    value=st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=2)),
)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_options_named_like_arguments_are_refused_not_a_server_error(
    case: schemathesis.Case, name: str, value: object
) -> None:
    """An option named like an argument of the game's constructor (``players`` above all) is a
    400 with words, never a 500."""
    if isinstance(case.body, dict):
        case.body = {**case.body, "options": {name: value}}
    case.call_and_validate(checks=CHECKS)


def test_players_in_options_is_a_400_with_words() -> None:
    with asgi.get_client(APP) as client:
        answer = client.post("/api/tables", json={"game": "tiny-showdown", "players": 2, "options": {"players": 4}})
    assert answer.status_code == 400 and "players" in answer.json()["error"]


def test_the_limits_answers_are_documented() -> None:
    """429 (over a per-client limit) where one can be answered."""
    paths = APP.openapi()["paths"]
    for path, method in [
        ("/api/tables", "post"),
        ("/api/tables/{table_id}/join", "post"),
        ("/api/tables/{table_id}/record", "get"),
        ("/api/session", "post"),
        ("/api/accounts", "post"),
    ]:
        assert "429" in paths[path][method]["responses"], (path, method)


LIMITED_APP = create_app(config_for(str(FOLDER / "limited.db"), max_open_tables=2, rate_logins="3/minute"))
limited_schema = schemathesis.openapi.from_dict(LIMITED_APP.openapi())
limited_schema.app = LIMITED_APP


@pytest.mark.parametrize(("path", "method"), [("/api/tables", "POST"), ("/api/session", "POST")])
def test_answers_over_a_limit_are_as_documented(path: str, method: str) -> None:
    """Past a limit (a few tables, a few log-ins) every answer is still one the schema names."""

    @given(case=limited_schema[path][method].as_strategy())
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def answers_as_documented(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=CHECKS)

    answers_as_documented()
