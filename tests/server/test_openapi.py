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
from server.wire import BROWSER
from shadowtable.server.app import create_app

FOLDER = Path(tempfile.mkdtemp(prefix="shadowtable-openapi-"))
APP = create_app(config_for(str(FOLDER / "server.db")))
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
        client.headers.update(BROWSER)  # it keeps the seat cookies, as a browser does
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
