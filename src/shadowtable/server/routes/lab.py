"""The designer's lab's JSON API and downloads, for the accounts the operator allows (403 for the
others): start a run from a specification, read where it stands, stop, resume and delete it,
download its settings (``spec.json``, re-runnable with ``shadowtable lab run``) and its rows as
CSV or Parquet.  A run is its owner's alone: another account's is 404."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from shadowtable.server import lab_work
from shadowtable.server.accounts import Account
from shadowtable.server.dependencies import CurrentAccount
from shadowtable.server.errors import Conflict
from shadowtable.server.lab_runs import LabRuns
from shadowtable.server.limits import per_client
from shadowtable.server.routes.models import LIMITED

router = APIRouter(tags=["lab"])

RUN_ID = r"^[A-Za-z0-9_-]{1,32}$"
RunId = Annotated[str, Path(pattern=RUN_ID, max_length=32)]
EXPORTS = {"csv": "text/csv; charset=utf-8", "parquet": "application/vnd.apache.parquet"}


def lab_of(connection: HTTPConnection) -> LabRuns:
    """The lab runs of the application serving ``connection``."""
    lab: LabRuns = connection.app.state.lab
    return lab


LabDep = Annotated[LabRuns, Depends(lab_of)]


def lab_account(lab: LabDep, account: CurrentAccount) -> Account:
    """The signed-in account if it may use the lab (403 otherwise)."""
    return lab.check_allowed(account)


LabAccount = Annotated[Account, Depends(lab_account)]
READS = [per_client("lab_reads")]


@router.post("/api/lab/runs", status_code=201, responses=LIMITED, dependencies=[per_client("lab_runs")])
async def start_run(lab: LabDep, account: LabAccount, spec: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Check a specification whole and queue it as a new run (422 naming the bad field, and
    nothing stored; 409 past the account's limits)."""
    run_id = await lab.create(account, spec)
    return await lab.status(account, run_id)


@router.get("/api/lab/runs", responses=LIMITED, dependencies=READS)
async def list_runs(lab: LabDep, account: LabAccount) -> list[dict[str, Any]]:
    """The account's runs, newest first."""
    return await lab.runs(account)


@router.get("/api/lab/runs/{run_id}", responses=LIMITED, dependencies=READS)
async def run_status(run_id: RunId, lab: LabDep, account: LabAccount, figures: bool = False) -> dict[str, Any]:
    """Where a run stands (with ``figures=true``: its spec and, once done, its figures)."""
    return await (lab.run(account, run_id) if figures else lab.status(account, run_id))


@router.post("/api/lab/runs/{run_id}/stop", responses=LIMITED, dependencies=READS)
async def stop_run(run_id: RunId, lab: LabDep, account: LabAccount) -> dict[str, Any]:
    """Stop a queued or running run after the chunk of games under way."""
    return await lab.stop(account, run_id)


@router.post("/api/lab/runs/{run_id}/resume", responses=LIMITED, dependencies=[per_client("lab_runs")])
async def resume_run(run_id: RunId, lab: LabDep, account: LabAccount) -> dict[str, Any]:
    """Queue a stopped or failed run again: it plays only the games it lacks."""
    return await lab.resume(account, run_id)


@router.delete("/api/lab/runs/{run_id}", status_code=204, responses=LIMITED, dependencies=READS)
async def delete_run(run_id: RunId, lab: LabDep, account: LabAccount) -> Response:
    """Delete a run that is not queued nor running, with its rows."""
    await lab.delete(account, run_id)
    return Response(status_code=204)


@router.get("/lab/{run_id}/spec.json", include_in_schema=False, dependencies=READS)
async def run_spec(run_id: RunId, lab: LabDep, account: LabAccount) -> Response:
    """The run's settings as a file ``shadowtable lab run`` plays again (the same seeds)."""
    run = await lab.run(account, run_id)
    body = json.dumps(run["spec"], indent=1)
    disposition = f'attachment; filename="lab-{run_id}-spec.json"'
    return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})


@router.get("/lab/{run_id}/rows.{kind}", include_in_schema=False, dependencies=[per_client("lab_runs")])
async def run_rows(run_id: RunId, kind: str, lab: LabDep, account: LabAccount) -> Response:
    """The run's rows (one line per seat of each game stored) as CSV or Parquet."""
    if kind not in EXPORTS:
        raise Conflict("the rows are exported as rows.csv or rows.parquet")
    run = await lab.run(account, run_id)
    rows = await lab.rows(run_id, run["done"])
    body = await lab.workers.run(lab_work.export_of, run["spec"], rows, kind)
    disposition = f'attachment; filename="lab-{run_id}-rows.{kind}"'
    return Response(body, media_type=EXPORTS[kind], headers={"Content-Disposition": disposition})
