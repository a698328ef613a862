"""The lobby: the listed tables."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from shadowtable.server.dependencies import ServiceDep
from shadowtable.server.routes.models import UNAVAILABLE, TableOut

router = APIRouter()


@router.get("/api/tables", response_model=list[TableOut], responses=UNAVAILABLE)
async def lobby(
    service: ServiceDep,
    status: Literal["open", "playing", "over"] = "open",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    """The lobby: listed tables, newest first (``open``: waiting for players)."""
    return await service.lobby(status, limit)
