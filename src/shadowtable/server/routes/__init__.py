"""The server's HTTP and WebSocket routes, one module-level ``APIRouter`` per concern.

``health``: ``/healthz``; ``games``: the games, bot levels and reference material; ``lobby``: the
listed tables; ``tables``: a table's life (create, join, return, invite, leave, start, rematch);
``records``: finished games' records; ``analyses``: their analyses (queued, then read);
``accounts``: the accounts' JSON API; ``lab``: the designer's lab's runs and downloads;
``socket``: the game socket ``/ws/{table_id}``; ``rules``:
the rules pages ``/rules/{game_id}``; ``learn``: the tutorial pages ``/learn`` (both browser
pages, included beside the pages, not among :data:`ROUTERS`).  The other browser pages are
routers of :mod:`shadowtable.web`.
"""

from __future__ import annotations

from fastapi import APIRouter

from shadowtable.server.routes import accounts, analyses, games, health, lab, lobby, records, socket, tables

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    games.router,
    lobby.router,
    tables.router,
    records.router,
    analyses.router,
    socket.router,
    accounts.router,
    lab.router,
)
"""The API's routers, in the order they are included (and listed in the OpenAPI schema)."""
