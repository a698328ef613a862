"""Request size limits: the head (request line and headers) and the body, refused before they are
read whole.

A pure ASGI middleware: a declared ``Content-Length`` over the limit is refused at once (413,
nothing read); a body without one (chunked) is counted as it arrives and refused as soon as it
passes the limit, so the application never holds more than the limit of it.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shadowtable.server.security import HEADERS

SECURITY_HEADERS = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit (the framework answers 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


def head_size(scope: Scope) -> int:
    """The bytes of a request's line and headers, about as they came on the wire."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 16
    return line + sum(len(name) + len(value) + 4 for name, value in scope.get("headers", []))


def declared_length(scope: Scope) -> int | None:
    """The ``Content-Length`` of a request, if it has one (``-1``: not a number)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


async def refuse(send: Send, status: int, error: str) -> None:
    """Answer ``{"error": ...}`` with ``status`` (and the security headers: this answer is sent
    before any other middleware) and close the connection (the rest of the body is never read)."""
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SizeLimits:
    """Refuse heads over ``max_header`` bytes (431) and bodies over ``max_body`` bytes (413); 0: no
    limit."""

    def __init__(self, app: ASGIApp, max_body: int, max_header: int) -> None:
        self.app = app
        self.max_body = max_body
        self.max_header = max_header

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.max_header and head_size(scope) > self.max_header:
            await refuse(send, 431, f"the request's headers are larger than {self.max_header} bytes")
            return
        if not self.max_body:
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and (length < 0 or length > self.max_body):
            await refuse(send, 413, f"the request body is larger than {self.max_body} bytes")
            return
        limit, received, started, over = self.max_body, 0, False, False

        async def counted() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if over:  # the rest of the body is never read: the connection ends with the answer
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as exc:  # raised outside the framework's own handlers
            if started:
                raise
            await refuse(send, 413, str(exc.detail))
