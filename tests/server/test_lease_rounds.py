"""The lease rounds of a clustered server go on whatever one round raises: they renew the leases
and catch a table up after a lost bus message, so a round that fails must not end them."""

from __future__ import annotations

import asyncio
import logging

import pytest

from shadowtable.server.config import ServerConfig
from shadowtable.server.store import StoreError
from shadowtable.server.sync import TableSync


def _rounds_after(failures: list[BaseException], wanted: int) -> tuple[int, list[str]]:
    """Run the lease loop of a bare :class:`TableSync` whose first rounds raise ``failures`` in
    turn; how many rounds ran once ``wanted`` had, and the messages logged."""
    sync = TableSync(object(), ServerConfig(lease_s=0.03), object())  # type: ignore[arg-type]
    rounds = 0
    done = asyncio.Event()

    async def round_() -> None:
        nonlocal rounds
        rounds += 1
        if rounds >= wanted:
            done.set()
        if rounds <= len(failures):
            raise failures[rounds - 1]

    sync._lease_tick = round_  # type: ignore[method-assign]

    async def run() -> int:
        loop = asyncio.ensure_future(sync._lease_loop())
        try:
            await asyncio.wait_for(done.wait(), 5)
        finally:
            loop.cancel()
        return rounds

    records: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("shadowtable.server")
    logger.addHandler(handler)
    try:
        return asyncio.run(run()), records
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize("failure", [RuntimeError("a bug"), KeyError("gone"), StoreError("no answer")])
def test_a_failed_lease_round_is_logged_and_the_next_round_comes(failure: BaseException) -> None:
    rounds, logged = _rounds_after([failure, failure], wanted=3)
    assert rounds == 3
    assert logged.count("lease round failed unexpectedly") + logged.count("lease round failed") == 2
