"""The terminal app driven headless with Textual's pilot."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList  # noqa: E402

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import GameRecord, make  # noqa: E402
from shadowtable.core.runner import Session  # noqa: E402
from shadowtable.tui.app import HandOver, PlayApp  # noqa: E402
from shadowtable.tui.table import Table  # noqa: E402


def _table(humans: list[int], players: int = 3, seed: int = 4) -> Table:
    game = make("tiny-showdown", players=players)
    bots = [None if s in humans else RandomBot() for s in range(players)]
    names = ["human" if s in humans else "random" for s in range(players)]
    return Table(Session(game, bots, seed, seat_names=names), humans)


def _drawn(app: PlayApp, selector: str) -> str:
    """What a widget shows, as plain text."""
    from rich.console import Console

    console = Console(width=150, record=True, file=io.StringIO())
    console.print(app.query_one(selector).content)  # type: ignore[attr-defined]
    return console.export_text()


def _text(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector).content)  # type: ignore[attr-defined]


def test_a_whole_game_against_bots_through_the_ui(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = PlayApp(_table([0]), save_path=tmp_path / "save.json")
        async with app.run_test() as pilot:
            for _ in range(10):
                if app.table.session.is_over():
                    break
                await pilot.press("enter")
                await pilot.pause()
            assert app.table.session.is_over()
            assert "Game over" in _text(app, "#status")

    asyncio.run(scenario())


def test_hot_seat_hand_over_hides_the_previous_hand() -> None:
    async def scenario() -> None:
        app = PlayApp(_table([0, 1], players=2, seed=8), hotseat=True)
        async with app.run_test() as pilot:
            assert isinstance(app.screen, HandOver)
            await pilot.press("enter")  # seat 0 takes the screen
            await pilot.pause()
            own_card = app.table.session.state.cards[0]
            board = json.loads(_text(app, "#board-text"))
            assert board["seat"] == 0 and board["cards"][0] == own_card and board["cards"][1] is None
            await pilot.press("enter")  # seat 0 passes
            await pilot.pause()
            assert isinstance(app.screen, HandOver) and app.screen.seat == 1
            assert _text(app, "#board-text") == ""
            assert app.query_one("#actions", OptionList).option_count == 0
            await pilot.press("enter")
            await pilot.pause()
            board = json.loads(_text(app, "#board-text"))
            assert board["seat"] == 1 and board["cards"][0] is None

    asyncio.run(scenario())


def test_save_quit_and_resume_land_in_the_identical_state(tmp_path: Path) -> None:
    save = tmp_path / "game.json"

    async def scenario() -> dict[str, object]:
        app = PlayApp(_table([1], seed=11), save_path=save)
        async with app.run_test() as pilot:
            await pilot.press("down", "enter")
            await pilot.pause()
            snapshot = app.table.game.state_to_json(app.table.session.state)
            await pilot.press("q")
            await pilot.pause()
        return snapshot

    snapshot = asyncio.run(scenario())
    record = GameRecord.loads(save.read_text())
    resumed = Session.resume(record, [RandomBot(), None, RandomBot()])
    assert resumed.game.state_to_json(resumed.state) == snapshot
    assert record.seats == ["random", "human", "random"]


def test_illegal_typed_input_changes_nothing() -> None:
    async def scenario() -> None:
        app = PlayApp(_table([0], seed=2))
        async with app.run_test() as pilot:
            before = list(app.table.session.actions)
            await pilot.press("slash")
            await pilot.press(*"fold", "enter")
            await pilot.pause()
            assert "Not allowed" in _text(app, "#message")
            assert app.table.session.actions == before
            assert app.focused is app.query_one("#actions")  # the box is left after any entry
            await pilot.press("slash", *"raise", "enter")
            await pilot.pause()
            assert app.table.session.actions[len(before)] == 1

    asyncio.run(scenario())


def test_watch_mode_plays_bots_to_the_end() -> None:
    async def scenario() -> None:
        app = PlayApp(_table([]), watch_delay=0.01)
        async with app.run_test() as pilot:
            for _ in range(100):
                if app.table.session.is_over():
                    break
                await pilot.pause(0.02)
            assert app.table.session.is_over()

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 3)])
def test_a_whole_real_game_through_the_ui(
    game_id: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("shadowtable.tui.app.COLLAPSE_ABOVE", 10**6)  # every Enter plays an action
    game = make(game_id, players=players)
    bots = [None] + [RandomBot() for _ in range(players - 1)]
    table = Table(Session(game, bots, 12, seat_names=["human"] + ["random"] * (players - 1)), [0])

    async def scenario() -> None:
        app = PlayApp(table, save_path=tmp_path / "save.json")
        async with app.run_test(size=(160, 48)) as pilot:
            for _ in range(3000):
                if table.session.is_over():
                    break
                await pilot.press("enter")
            await pilot.pause()
            assert table.session.is_over()
            assert "Game over" in _text(app, "#status")

    asyncio.run(scenario())
    assert set(game.returns(table.session.state)) <= {0.0, 1.0}


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 3)])
def test_a_real_game_goes_on_through_the_ui(game_id: str, players: int, tmp_path: Path) -> None:
    """The first sixty Enters (the whole game is the slow test above): every one is taken,
    and the log on screen is the seat's log of the game so far."""
    game = make(game_id, players=players)
    bots = [None] + [RandomBot() for _ in range(players - 1)]
    table = Table(Session(game, bots, 12, seat_names=["human"] + ["random"] * (players - 1)), [0])

    async def scenario() -> None:
        app = PlayApp(table, save_path=tmp_path / "save.json")
        async with app.run_test(size=(160, 48)) as pilot:
            decided = 0
            for _ in range(60):
                before = len(table.session.actions)
                await pilot.press("enter")
                await pilot.pause()
                decided += len(table.session.actions) > before
            assert decided > 30  # Enter on a group opens it, the next Enter plays
            assert _text(app, "#log-text").split("\n") == table.log(0)

    asyncio.run(scenario())


def test_hot_seat_with_a_real_game_never_shows_the_previous_hand() -> None:
    game = make("shadow-planet", players=3)
    table = Table(Session(game, [None, None, None], 5, seat_names=["ann", "bob", "cat"]), [0, 1, 2])

    async def scenario() -> None:
        app = PlayApp(table, hotseat=True)
        async with app.run_test(size=(160, 48)) as pilot:
            hand_overs = 0
            for _ in range(150):
                if hand_overs == 4:  # enough hand-overs seen: each after a different seat's turn
                    break
                if isinstance(app.screen, HandOver):
                    hand_overs += 1
                    assert _text(app, "#board-text") == "" and "hand-over" in _text(app, "#status")
                    assert app.query_one("#actions", OptionList).option_count == 0
                    await pilot.press("enter")
                    await pilot.pause()
                    continue
                seat = table.session.current_player
                assert app.shown_seat == seat and f"seat {seat}" in _text(app, "#status")
                drawn = _drawn(app, "#board-text")
                assert f"viewing as seat {seat}" in drawn
                names = game.ctx.content.objective_names  # type: ignore[attr-defined]
                secrets = table.session.state.objectives
                assert names[secrets[seat]] in drawn
                for other in range(3):
                    if other != seat:
                        assert names[secrets[other]] not in drawn  # nobody else's secret Objective
                await pilot.press("enter")
                await pilot.pause()
            assert hand_overs >= 3

    asyncio.run(scenario())


def test_u_takes_back_the_last_decision_that_revealed_nothing() -> None:
    async def scenario() -> None:
        game = make("shadowlord", players=2)
        app = PlayApp(Table(Session(game, [None, None], 3, seat_names=["human", "human"]), [0, 1]))
        async with app.run_test() as pilot:
            await pilot.press("u")  # nothing decided yet: refused, nothing changes
            await pilot.pause()
            assert "Not undone" in _text(app, "#message")
            session = app.table.session
            seen = {len(session.actions): json.dumps(game.state_to_json(session.state), sort_keys=True)}
            for _ in range(80):
                await pilot.press("enter")
                await pilot.pause()
                seen[len(session.actions)] = json.dumps(game.state_to_json(session.state), sort_keys=True)
                if app.table.undoable():
                    break
            assert app.table.undoable(), "no decision could be taken back"
            steps = len(session.actions)
            await pilot.press("u")
            await pilot.pause()
            assert "took back a move" in _text(app, "#message")
            assert len(session.actions) == steps - 1
            assert json.dumps(game.state_to_json(session.state), sort_keys=True) == seen[steps - 1]
            assert len(app.table.history) == steps - 1

    asyncio.run(scenario())
