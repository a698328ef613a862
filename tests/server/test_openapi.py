"""Schemathesis against the server's OpenAPI schema (in process): no 5xx, and every answer as the
schema says."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
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
