"""The replay viewer steps through a record from one seat's view."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("textual")

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import make, play_game  # noqa: E402
from shadowtable.core.wording import CARD_ID  # noqa: E402
from shadowtable.tui.replay_view import ReplayApp  # noqa: E402


def test_stepping_through_a_record_as_one_seat() -> None:
    record = play_game(make("tiny-showdown", players=3), [RandomBot()] * 3, seed=6)

    async def scenario() -> None:
        app = ReplayApp(record, seat=2)
        async with app.run_test() as pilot:
            await pilot.press("right", "right", "right", "right")
            await pilot.pause()
            board = json.loads(str(app.query_one("#board-text").content))  # type: ignore[attr-defined]
            assert board["seat"] == 2 and board["cards"][0] is None and board["cards"][2] is not None
            assert str(app.query_one("#log").content).startswith("step 4 of")  # type: ignore[attr-defined]
            await pilot.press("end")
            await pilot.pause()
            final = json.loads(str(app.query_one("#board-text").content))  # type: ignore[attr-defined]
            assert None not in final["cards"]
            await pilot.press("home", "left")
            await pilot.pause()
            assert app.index == 0

    asyncio.run(scenario())


def test_the_replay_log_reads_cards_without_their_ids() -> None:
    record = play_game(make("shadow-planet", players=4), [RandomBot()] * 4, seed=5)

    async def scenario() -> None:
        app = ReplayApp(record, seat=0)
        async with app.run_test() as pilot:
            shown = []
            for _ in range(40):
                await pilot.press("right")
                await pilot.pause()
                shown.append(str(app.query_one("#log").content))  # type: ignore[attr-defined]
            assert any("(Move 1)" in text or "(Search 1)" in text for text in shown)  # cards are named
            assert not any(CARD_ID.search(text) for text in shown)

    asyncio.run(scenario())


def test_the_replay_log_tells_what_the_rules_said_as_the_table_did() -> None:
    """The rules' own lines (who plays first, a Special Event's roll) are in the replay's log, as
    they were in the table's log, not only the actions taken."""
    record = play_game(make("shadowlord", players=2), [RandomBot()] * 2, seed=3, max_steps=80)

    async def scenario() -> None:
        app = ReplayApp(record, seat=1)
        async with app.run_test(size=(120, 50)) as pilot:
            shown = []
            for _ in range(40):
                await pilot.press("right")
                await pilot.pause()
                shown.append(str(app.query_one("#log").content))  # type: ignore[attr-defined]
            assert any("plays first" in text for text in shown)
            assert any("Special Event roll" in text for text in shown)

    asyncio.run(scenario())
