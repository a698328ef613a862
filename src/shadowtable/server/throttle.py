"""Rate and count limits of the WebSocket path: frames per connection, chat lines per seat, open
sockets per client (the ``limits`` library, in this process's memory)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


def rate(text: str) -> RateLimitItem:
    """A rate in ``limits`` notation (``"20/2seconds"``); ``ValueError`` if it is not one."""
    try:
        item = parse(text)
    except ValueError as exc:
        raise ValueError(f"not a rate: {text[:40]!r} (write e.g. 20/2seconds)") from exc
    if item.amount < 1:
        raise ValueError(f"not a rate: {text[:40]!r} (the amount must be at least 1)")
    return item


@dataclass(frozen=True)
class Verdict:
    """What to do with one more event: go on, refuse it (``retry_after`` s), or close the socket."""

    allowed: bool
    retry_after: int = 0
    close: bool = False


class Throttle:
    """A moving-window limit per key; with ``flood_factor`` a key that goes on past ``factor`` times
    the limit in one window is told to close."""

    def __init__(self, limit: str, flood_factor: int = 0) -> None:
        self.item = rate(limit)
        self.flood = type(self.item)(self.item.amount * flood_factor, self.item.multiples) if flood_factor > 0 else None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, key: str) -> Verdict:
        """Count one event of ``key``."""
        if self.flood is not None and not self.limiter.hit(self.flood, key):
            return Verdict(False, self.retry_after(key), close=True)
        if self.limiter.hit(self.item, key):
            return Verdict(True)
        return Verdict(False, self.retry_after(key))

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` may send again (at least 1)."""
        reset = self.limiter.get_window_stats(self.item, key).reset_time
        return max(1, math.ceil(reset - time.time()))

    def forget(self, key: str) -> None:
        """Drop what was counted for ``key`` (its socket closed)."""
        self.limiter.clear(self.item, key)
        if self.flood is not None:
            self.limiter.clear(self.flood, key)


class SocketCount:
    """Open sockets per client key, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}
        self.refusing: set[str] = set()
        """Keys refused since they last held fewer sockets (logged once per such run)."""

    def first_refusal(self, key: str) -> bool:
        """Whether this is ``key``'s first refusal since it was last under its limit."""
        if key in self.refusing:
            return False
        self.refusing.add(key)
        return True

    def take(self, key: str) -> bool:
        """Count one more socket of ``key``; ``False`` (nothing counted) past the limit."""
        held = self.open.get(key, 0)
        if held >= self.limit:
            return False
        self.open[key] = held + 1
        return True

    def give_back(self, key: str) -> None:
        self.refusing.discard(key)
        held = self.open.get(key, 0) - 1
        if held > 0:
            self.open[key] = held
        else:
            self.open.pop(key, None)
