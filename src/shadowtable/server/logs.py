"""Structured logs: one JSON object per line, never a token or a hidden value."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"color_message"}
_INVITE_PATH = re.compile(r"(/invite/)[^/?#\s]+")


def redact(text: str) -> str:
    """``text`` with the code of every invite link path replaced by ``…``."""
    return _INVITE_PATH.sub(r"\1…", text)


class RedactInvites(logging.Filter):
    """Keeps invite codes (single-use, in the invite links' paths) out of the access log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


class OneLineBadFrames(logging.Filter):
    """A client's malformed frame (a text frame that is not UTF-8, a broken WebSocket frame) is
    one warning line with the reason, never a traceback: a client cannot flood the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.name.startswith("uvicorn") and _client_fault(record.exc_info[1]):
            record.reason = str(record.exc_info[1])[:200]
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _client_fault(exc: BaseException | None) -> bool:
    """Whether ``exc`` is what a client's bad frame raises inside the WebSocket server."""
    if isinstance(exc, UnicodeDecodeError):
        return True
    try:
        from websockets.exceptions import WebSocketException
    except ImportError:  # pragma: no cover - the [web] extra brings it
        return False
    return isinstance(exc, WebSocketException)


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON: time, level, logger, message and the ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure(level: str = "info") -> None:
    """Send ``shadowtable`` and uvicorn logs to standard error as JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactInvites())
    handler.addFilter(OneLineBadFrames())
    for name in ("shadowtable", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(level.upper())
