"""The lease rounds of a clustered server go on whatever one round raises: they renew the leases
and catch a table up after a lost bus message, so a round that fails must not end them."""

from __future__ import annotations

import asyncio

import pytest

from shadowtable.server.config import ServerConfig
from shadowtable.server.store import StoreError
from shadowtable.server.sync import TableSync


def _rounds_after(failures: list[BaseException], wanted: int) -> int:
    """Run the lease loop of a bare :class:`TableSync` whose first rounds raise ``failures`` in
    turn; how many rounds ran once ``wanted`` had."""
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

    return asyncio.run(run())


@pytest.mark.parametrize("failure", [RuntimeError("a bug"), KeyError("gone"), StoreError("no answer")])
def test_a_failed_lease_round_is_logged_and_the_next_round_comes(
    failure: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    rounds = _rounds_after([failure, failure], wanted=3)
    logged = [r.getMessage() for r in caplog.records if r.name == "shadowtable.server"]
    assert rounds == 3
    assert logged.count("lease round failed unexpectedly") + logged.count("lease round failed") == 2
