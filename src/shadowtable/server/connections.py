"""Connections: one WebSocket each, an outbox its sender drains, and who it speaks for.

A connection that stops reading is cut off once its outbox is full (close code 4429); a closing
server ends each with 1012, a refused seat with 4403.  :func:`tell_all` sends one message to every
connection of a table that said hello.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping

from shadowtable.server.outbox import Outbox
from shadowtable.server.protocol import Answer
from shadowtable.server.views import encode

OUTBOX_LIMIT = 2000
"""Messages queued for a socket before it is cut off as not reading (the default)."""
OUTBOX_BYTES = 16 * 1024 * 1024
"""Bytes queued for a socket before it is cut off as not reading (the default)."""


Message = Mapping[str, object]
"""A message to a client, before it is encoded as JSON."""


class Connection:
    """One WebSocket: an outbox drained by the socket's sender, and who it speaks for."""

    def __init__(
        self,
        cookie_tokens: dict[str, str] | None = None,
        *,
        client: str = "",
        max_messages: int = OUTBOX_LIMIT,
        max_bytes: int = OUTBOX_BYTES,
    ) -> None:
        self.outbox = Outbox(max_messages, max_bytes)
        self.key = secrets.token_hex(8)
        """This connection's name in the rate limits."""
        self.client = client
        """The client's address (``clients.client_key``): the limits it shares over its sockets."""
        self.seat: int | None = None
        self.greeted = False
        self.sent_v = 0
        self.told_over = False
        self.cut_off = False
        self.html = False
        self.cookie_tokens = cookie_tokens or {}
        self.close_code = 1000
        self.close_reason = ""
        self.on_cut_off: Callable[[], None] | None = None
        """Called once when the client stops reading (its outbox is full): the socket must close."""

    def push(self, message: Message) -> None:
        """Queue ``message``."""
        self.push_text(encode(message))

    def push_text(self, text: str, *, replaceable: bool = False) -> None:
        """Queue an encoded message (``replaceable``: an answer to ``sync``); a client that reads
        nothing until the outbox is full is cut off (it reconnects and resyncs)."""
        if self.cut_off:
            return
        if not self.outbox.put(text, replaceable=replaceable):
            self.cut_off = True
            self.end(4429, "not reading: too much is queued for this connection")
            if self.on_cut_off is not None:
                self.on_cut_off()

    def end(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is queued, with ``code`` (the first one given stays)."""
        if self.close_code == 1000:
            self.close_code, self.close_reason = code, reason
        self.outbox.end()

    def close(self) -> None:
        self.outbox.end()


def tell_all(connections: Iterable[Connection], message: Message) -> None:
    """Send ``message`` to each of ``connections`` that said hello."""
    for connection in connections:
        if connection.greeted:
            connection.push(message)


def refuse_seat(connections: Iterable[Connection], seat: int, why: str, reason: str | None = None) -> None:
    """Tell the connections of ``seat`` why it is no longer theirs, and close them (4403, with
    ``reason``, else ``why``)."""
    for connection in [c for c in connections if c.seat == seat]:
        connection.push({"t": "refused", "why": why})
        connection.end(4403, "refused: " + (why if reason is None else reason))


def reject(connection: Connection, act_id: str | None, why: str, retry_after: int | None = None) -> None:
    """Refuse what ``connection`` sent (an act, a chat line, a frame over its rate)."""
    message = Answer(t="reject", id=act_id, why=why)
    if retry_after is not None:
        message["retry_after"] = retry_after
    connection.push(message)
