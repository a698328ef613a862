"""``/healthz``: whether the server and its database answer."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import shadowtable
from shadowtable.server.dependencies import ServiceDep
from shadowtable.server.routes.models import Health

router = APIRouter()


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}})
async def healthz(service: ServiceDep) -> JSONResponse:
    """Whether the server and its database answer."""
    database = await service.store.ping()
    body = Health(ok=database, database=database, version=shadowtable.__version__, tables_in_memory=len(service.tables))
    return JSONResponse(body.model_dump(), status_code=200 if database else 503)
