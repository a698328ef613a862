"""The rules pages: ``/rules/{game_id}``, a game's whole rulebook, how to win and its printed
material, the same for every visitor (see :mod:`shadowtable.web.rules_page`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from shadowtable.server.errors import NotFound
from shadowtable.web.forms import game_specs
from shadowtable.web.responses import PageRoute, page
from shadowtable.web.rules_page import REFERENCE_ANCHOR, WIN_ANCHOR, rules_page

router = APIRouter(include_in_schema=False, route_class=PageRoute)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules(game_id: str) -> HTMLResponse:
    """The rules page of ``game_id`` (the error page, 404, for a game this server does not offer)."""
    found, specs = rules_page(game_id), game_specs()
    if found is None:
        raise NotFound("no rules page for this game; the rules here: " + ", ".join(spec.name for spec in specs))
    others = [spec for spec in specs if spec.id != game_id]
    return page("rules.html", rules=found, others=others, win_anchor=WIN_ANCHOR, reference_anchor=REFERENCE_ANCHOR)
