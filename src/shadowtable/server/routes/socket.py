"""The game socket ``/ws/{table_id}``: one seat's (or a spectator's) connection.

See ``docs/server.md`` for the protocol.  Refusals come after the handshake, with a close code a
page can tell apart: 4403 (another site's page), 4429 (too many sockets from one address), 4404
(no such table), 1013 (the table cannot be read now).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from shadowtable.server.clients import client_key
from shadowtable.server.config import ServerConfig
from shadowtable.server.cookies import cookie_tokens
from shadowtable.server.dependencies import ConfigDep, ServiceDep, SocketsDep
from shadowtable.server.errors import NotFound, ServiceError, Unavailable
from shadowtable.server.service import Connection, Table, TableService

log = logging.getLogger("shadowtable.server")

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def socket(
    websocket: WebSocket, table_id: str, config: ConfigDep, service: ServiceDep, sockets: SocketsDep
) -> None:
    """One seat's (or a spectator's) connection: see ``docs/server.md`` for the protocol.
    Refusals come after the handshake, with a close code a page can tell apart."""
    await websocket.accept()
    if not origin_allowed(websocket, config):
        await refuse(websocket, 4403, "this page's origin may not connect to this server")
        return
    client = client_key(websocket)
    if not sockets.take(client):
        if sockets.first_refusal(client):
            log.warning("too many sockets", extra={"event": "ws_sockets", "client": client})
        await refuse(websocket, 4429, f"too many connections from your address (at most {sockets.limit})")
        return
    try:
        await serve_socket(websocket, service, config, table_id, client)
    finally:
        sockets.give_back(client)


async def serve_socket(
    websocket: WebSocket, service: TableService, config: ServerConfig, table_id: str, client: str = ""
) -> None:
    """Pass the socket's frames of ``client`` (its address) to ``service`` until either side ends
    the connection."""
    try:
        table = await service.table(table_id)
    except NotFound:
        await refuse(websocket, 4404, "no such table")
        return
    except ServiceError as exc:
        await refuse(websocket, 1013, str(exc)[:120])
        return
    connection = Connection(
        cookie_tokens(websocket, table_id),
        client=client,
        max_messages=config.ws_outbox_messages,
        max_bytes=config.ws_outbox_bytes,
    )
    sender = asyncio.ensure_future(send_loop(websocket, connection))
    closing: list[asyncio.Future[None]] = []

    def cut_off() -> None:
        sender.cancel()  # it may wait on a client that does not read: close without it
        closing.append(asyncio.ensure_future(refuse(websocket, connection.close_code, connection.close_reason)))

    connection.on_cut_off = cut_off
    try:
        await receive_loop(websocket, service, table, connection)
    finally:
        service.disconnect(table, connection)
        connection.close()
        await finish(websocket, connection, sender, closing)


async def receive_loop(websocket: WebSocket, service: TableService, table: Table, connection: Connection) -> None:
    """Hand each frame to the service until the client leaves or the service ends the connection."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if not await service.receive(table, connection, frame):
                return
    except WebSocketDisconnect:
        pass
    except Unavailable:
        connection.push({"t": "notice", "text": "the server cannot reach its database: reconnect in a moment"})


async def finish(
    websocket: WebSocket, connection: Connection, sender: asyncio.Future[None], closing: list[asyncio.Future[None]]
) -> None:
    """Let the sender, then the closings end (5 s each at most); close the socket if still open."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(sender, 5)
    for task in closing:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
    if websocket.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            code = connection.close_code if connection.greeted or connection.close_code != 1000 else 4403
            await websocket.close(code=code, reason=connection.close_reason)


async def send_loop(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's outbox in order; at its end, close with the connection's code."""
    while True:
        text = await connection.outbox.get()
        if text is None:
            await refuse(websocket, connection.close_code, connection.close_reason)
            return
        try:
            await websocket.send_text(text)
        except Exception:  # noqa: BLE001 - the peer went away; the receive loop ends the connection
            return


async def refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Close an accepted socket with ``code`` and ``reason`` (if it is still open)."""
    if websocket.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason.encode()[:120].decode(errors="ignore"))  # 123 bytes at most


def origin_allowed(websocket: WebSocket, config: ServerConfig) -> bool:
    """No ``Origin`` (not a browser), the server's own origin, or one of the allowed ones."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in config.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    parts = urlsplit(origin)
    return parts.scheme in {"http", "https"} and parts.netloc == host
