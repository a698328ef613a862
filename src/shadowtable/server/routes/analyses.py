"""The analysis of a finished table: ask for it, then read its progress and result.

A finished game is public (its replay shows every seat's view), so its analysis is too; a table
still in play has none (409), whoever asks.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.requests import HTTPConnection

from shadowtable.server.analysis_jobs import AnalysisQueue
from shadowtable.server.dependencies import TableId
from shadowtable.server.limits import per_client
from shadowtable.server.routes.models import LIMITED, AnalysisOut, AnalysisStatus, Problem

router = APIRouter()


def analyses_of(connection: HTTPConnection) -> AnalysisQueue:
    """The analysis queue of the application serving ``connection``."""
    analyses: AnalysisQueue = connection.app.state.analyses
    return analyses


AnalysesDep = Annotated[AnalysisQueue, Depends(analyses_of)]
REFUSED = {**LIMITED, 503: {"model": Problem, "description": "no analysis offered here, or the queue is full"}}


@router.post(
    "/api/tables/{table_id}/analysis",
    response_model=AnalysisStatus,
    status_code=202,
    responses=REFUSED,
    dependencies=[per_client("analyses")],
)
async def request_analysis(table_id: TableId, analyses: AnalysesDep) -> dict[str, Any]:
    """Queue the analysis of a finished table (asking again changes nothing; a failed one is
    queued afresh) and say where it stands."""
    return await analyses.request(table_id)


@router.get(
    "/api/tables/{table_id}/analysis",
    response_model=AnalysisOut,
    responses=LIMITED,
    dependencies=[per_client("analysis_reads")],
)
async def analysis(table_id: TableId, analyses: AnalysesDep) -> dict[str, Any]:
    """Where the analysis of a finished table stands, and its result once done."""
    status = await analyses.status(table_id)
    result = await analyses.result(table_id) if status["status"] == "done" else None
    return {**status, "result": result}
