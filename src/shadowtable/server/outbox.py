"""What is queued for one socket: text frames drained by its sender, bounded in count and bytes,
an answer to ``sync`` replacing the one still queued right before it."""

from __future__ import annotations

import asyncio
from collections import deque


class Outbox:
    """A bounded queue of text frames; ``None`` ends it (the sender closes the socket)."""

    def __init__(self, max_messages: int, max_bytes: int) -> None:
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self._items: deque[str | None] = deque()
        self._bytes = 0
        self._last_replaceable = False
        self._ready = asyncio.Event()

    def put(self, text: str, *, replaceable: bool = False) -> bool:
        """Queue ``text``; ``replaceable`` text takes the place of the last one queued if that was
        replaceable too.  ``False`` (nothing queued) when the bounds would be passed."""
        if replaceable and self._last_replaceable and self._items:
            old = self._items.pop()
            self._bytes -= len(old or "")
        if len(self._items) >= self.max_messages or self._bytes + len(text) > self.max_bytes:
            self._last_replaceable = False
            return False
        self._items.append(text)
        self._bytes += len(text)
        self._last_replaceable = replaceable
        self._ready.set()
        return True

    def end(self) -> None:
        """No more frames: the sender closes the socket once it reaches this."""
        self._items.append(None)
        self._last_replaceable = False
        self._ready.set()

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> str | None:
        """The next frame (waits for one); ``None``: the end."""
        while not self._items:
            self._ready.clear()
            await self._ready.wait()
        item = self._items.popleft()
        self._bytes -= len(item or "")
        if not self._items:
            self._last_replaceable = False
        return item
