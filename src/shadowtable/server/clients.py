"""Who a request or socket comes from: the key every per-client limit counts under."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def client_key(connection: HTTPConnection) -> str:
    """The client's address as the server sees it: the peer's, or the ``X-Forwarded-For`` address
    that a trusted proxy passed on (uvicorn applies ``FORWARDED_ALLOW_IPS``, default 127.0.0.1,
    before the request reaches the application).  ``"unknown"`` when the transport gives none."""
    client = connection.client
    return client.host if client is not None and client.host else "unknown"
