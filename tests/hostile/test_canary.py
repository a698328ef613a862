"""The canary alone: the suite's yardstick works (a quiet server acknowledges its moves)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hostile.harness import CANARY_P99_MS, QUIET_FACTOR, Canary, Server


def test_the_canary_plays_and_measures_its_acks(live_server: Callable[..., Server]) -> None:
    server = live_server()

    async def main() -> Canary:
        async with Canary(server) as canary:
            await asyncio.sleep(3)
        return canary

    canary = asyncio.run(main())
    assert canary.acks >= 20, canary.summary()
    assert canary.p99_ms() < canary.bound_ms(), canary.summary()


def test_the_canary_sees_a_stalled_server(live_server: Callable[..., Server]) -> None:
    """A server stopped for a while (SIGSTOP) shows in the canary's p99: the yardstick can fail."""
    import os
    import signal

    server = live_server()

    async def main() -> Canary:
        async with Canary(server) as canary:
            await asyncio.sleep(0.5)
            os.kill(server.pid, signal.SIGSTOP)
            await asyncio.sleep(0.4)
            os.kill(server.pid, signal.SIGCONT)
            await asyncio.sleep(0.5)
        return canary

    canary = asyncio.run(main())
    assert canary.p99_ms() > canary.bound_ms(), canary.summary()


def test_the_bound_follows_a_slow_machine_and_only_then() -> None:
    canary = Canary.__new__(Canary)  # no server: the bound is arithmetic on the quiet p99
    canary.quiet_p99_ms = 12.0
    assert canary.bound_ms() == CANARY_P99_MS
    canary.quiet_p99_ms = 50.0
    assert canary.bound_ms() == QUIET_FACTOR * 50.0 > CANARY_P99_MS
