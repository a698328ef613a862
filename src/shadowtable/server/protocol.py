"""The WebSocket protocol: client frames parsed into typed messages, refusing anything else.

Client to server (JSON objects with a ``t`` field):

- ``{"t": "hello", "token": str?, "v": int?, "html": bool?}``: sit at the seat the token names
  (or watch as a spectator without one); ``v`` is the last version the client holds; ``html``
  asks for each view's HTML fragments too (the browser page).
- ``{"t": "act", "id": str|int, "turn": int, "action": int}`` or ``"notation": str`` instead of
  ``action``.
- ``{"t": "sync", "v": int}``, ``{"t": "chat", "text": str}``, ``{"t": "ping"}``.
- ``{"t": "undo", "id": str?, "count": int?}``: the seat takes back its last ``count`` decisions
  (default 1), when the table allows undo and they revealed nothing (the view's ``undo`` says how
  many it may); answered ``ack`` or ``reject`` with ``id``.
- ``{"t": "fast"}``: a seated player asks the bots to move without the table's pace delay until a
  person must decide (refused while a person must decide).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.undo import MAX_UNDO

MAX_ID = 64
MAX_NOTATION = 200
MAX_CHAT = 500
MAX_INT = 2**31 - 1


class ProtocolError(ShadowTableError):
    """A frame that is not a valid client message; ``id`` is the act id when one was readable."""

    def __init__(self, why: str, id: str | None = None) -> None:
        super().__init__(why)
        self.id = id


@dataclass(frozen=True)
class Hello:
    token: str | None
    v: int | None
    html: bool = False
    take_back: bool = False
    """Take back the seat this token's player left in play (a bot plays it meanwhile)."""


@dataclass(frozen=True)
class Act:
    id: str
    turn: int
    action: int | None
    notation: str | None


class Answer(TypedDict):
    """The server's answer to what a client sent: ``t`` is ``ack`` or ``reject`` (then ``why``,
    and for a rate exceeded ``retry_after`` seconds)."""

    t: str
    id: str | None
    why: NotRequired[str]
    retry_after: NotRequired[int]


@dataclass(frozen=True)
class Sync:
    v: int


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class FastForward:
    pass


@dataclass(frozen=True)
class Undo:
    id: str | None
    count: int = 1


Message = Hello | Act | Sync | Chat | Ping | FastForward | Undo


def parse_frame(frame: str | bytes, max_bytes: int) -> Message:
    """The message in ``frame``; :class:`ProtocolError` with a clear reason otherwise."""
    if isinstance(frame, bytes):
        raise ProtocolError("frames are JSON text, not binary")
    if len(frame.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError(f"frame too large: at most {max_bytes} bytes")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("frame is not JSON") from None
    if not _is_unicode(data):
        raise ProtocolError("frame holds text that is not valid Unicode (a lone surrogate)")
    if not isinstance(data, dict):
        raise ProtocolError("frame must be a JSON object with a 't' field")
    kind = data.get("t")
    if kind == "act":
        return _act(data)
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("hello: 'token' must be a string")
        html = data.get("html", False)
        if not isinstance(html, bool):
            raise ProtocolError("hello: 'html' must be true or false")
        take_back = data.get("take_back", False)
        if not isinstance(take_back, bool):
            raise ProtocolError("hello: 'take_back' must be true or false")
        return Hello(token, _optional_count(data, "v", "hello"), html, take_back)
    if kind == "sync":
        v = _optional_count(data, "v", "sync")
        return Sync(0 if v is None else v)
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT:
            raise ProtocolError(f"chat: 'text' must be 1 to {MAX_CHAT} characters")
        return Chat(text.strip())
    if kind == "ping":
        return Ping()
    if kind == "fast":
        return FastForward()
    if kind == "undo":
        return _undo(data)
    raise ProtocolError("unknown message type: expected hello, act, sync, chat, ping, fast or undo")


def _undo(data: dict[str, Any]) -> Undo:
    raw_id = data.get("id")
    if raw_id is not None and (isinstance(raw_id, bool) or not isinstance(raw_id, str | int)):
        raise ProtocolError("undo: 'id' must be a string or an integer")
    undo_id = None if raw_id is None else str(raw_id)
    if undo_id is not None and not 0 < len(undo_id) <= MAX_ID:
        raise ProtocolError(f"undo: 'id' must be 1 to {MAX_ID} characters")
    count = data.get("count", 1)
    if not _is_count(count) or not 1 <= count <= MAX_UNDO:
        raise ProtocolError(f"undo: 'count' must be a whole number from 1 to {MAX_UNDO}", undo_id)
    return Undo(undo_id, count)


def _act(data: dict[str, Any]) -> Act:
    raw_id = data.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, str | int):
        raise ProtocolError("act: 'id' must be a string or an integer")
    act_id = str(raw_id)
    if not 0 < len(act_id) <= MAX_ID:
        raise ProtocolError(f"act: 'id' must be 1 to {MAX_ID} characters")
    turn: Any = data.get("turn")
    if not _is_count(turn):
        raise ProtocolError("act: 'turn' must be a whole number", act_id)
    action, notation = data.get("action"), data.get("notation")
    if (action is None) == (notation is None):
        raise ProtocolError("act: give exactly one of 'action' (an id) or 'notation' (words)", act_id)
    if action is not None and not _is_count(action):
        raise ProtocolError("act: 'action' must be a legal action id", act_id)
    if notation is not None and (not isinstance(notation, str) or not 0 < len(notation) <= MAX_NOTATION):
        raise ProtocolError(f"act: 'notation' must be 1 to {MAX_NOTATION} characters", act_id)
    return Act(act_id, turn, action, notation)


def _is_unicode(data: Any) -> bool:
    """Whether every string in ``data`` can be sent back as UTF-8 (JSON escapes can carry lone
    surrogates, which would break the reply that quotes them, the store and the token check)."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        return False
    return True


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INT


def _optional_count(data: dict[str, Any], name: str, kind: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if not _is_count(value):
        raise ProtocolError(f"{kind}: '{name}' must be a whole number")
    return int(value)
