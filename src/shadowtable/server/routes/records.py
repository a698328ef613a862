"""Finished games' records, for ``shadowtable replay`` and ``view``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from shadowtable.server.dependencies import FinishedDep, TableId
from shadowtable.server.limits import per_client
from shadowtable.server.routes.models import LIMITED

router = APIRouter()


@router.get("/api/tables/{table_id}/record", responses=LIMITED, dependencies=[per_client("replays")])
async def record(table_id: TableId, finished: FinishedDep) -> JSONResponse:
    """The full game record of a finished table, for ``shadowtable replay`` and ``view``."""
    done = await finished.get(table_id, "the record is available once the game is over")
    return JSONResponse(
        done.record,
        headers={"Content-Disposition": f'attachment; filename="{done.record["game"]}-{table_id}.json"'},
    )
