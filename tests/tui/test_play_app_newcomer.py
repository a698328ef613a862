"""What a newcomer hit: the action box kept the keyboard, the log and the rules were cut short."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import OptionList  # noqa: E402

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import GameRecord, make  # noqa: E402
from shadowtable.core.runner import Session  # noqa: E402
from shadowtable.core.wording import CARD_ID, without_card_ids  # noqa: E402
from shadowtable.tui.app import PlayApp  # noqa: E402
from shadowtable.tui.table import Table  # noqa: E402


def _tiny(seed: int = 2) -> Table:
    game = make("tiny-showdown", players=3)
    return Table(Session(game, [None, RandomBot(), RandomBot()], seed, seat_names=["human", "random", "random"]), [0])


def _planet(seed: int = 7) -> Table:
    game = make("shadow-planet", players=4)
    bots = [None] + [RandomBot() for _ in range(3)]
    return Table(Session(game, bots, seed, seat_names=["human"] + ["random"] * 3), [0])


def _text(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector).content)  # type: ignore[attr-defined]


def test_after_an_illegal_entry_q_quits_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "save.json"

    async def scenario() -> PlayApp:
        app = PlayApp(_tiny(), save_path=save)
        async with app.run_test() as pilot:
            before = list(app.table.session.actions)
            await pilot.press("slash", *"nonsense", "enter")
            await pilot.pause()
            assert "Not allowed" in _text(app, "#message")
            assert app.table.session.actions == before
            assert app.focused is app.query_one("#actions")
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
        return app

    app = asyncio.run(scenario())
    assert save.is_file() and "Game saved to" in app.exit_report
    assert GameRecord.loads(save.read_text()).actions == app.table.session.actions


def test_an_empty_submission_does_nothing() -> None:
    async def scenario() -> None:
        app = PlayApp(_tiny())
        async with app.run_test() as pilot:
            before = list(app.table.session.actions)
            state = app.table.game.state_to_json(app.table.session.state)
            await pilot.press("slash", "enter")
            await pilot.pause()
            assert _text(app, "#message") == ""
            assert app.table.session.actions == before
            assert app.table.game.state_to_json(app.table.session.state) == state
            assert app.focused is app.query_one("#actions")
            await pilot.press("r")  # single-key commands work again
            await pilot.pause()
            assert app.query_one("#help").has_class("shown")

    asyncio.run(scenario())


def test_the_log_holds_the_whole_game_and_scrolls() -> None:
    table = _planet()

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            for _ in range(6):
                await pilot.press("enter")
                await pilot.pause()
            lines = table.log(0)
            assert len(lines) > 8
            first = next(line for s, a in table.history if (line := table.game.words.event_text(s, a, 0)))
            assert lines[0] == first
            shown = _text(app, "#log-text").split("\n")
            assert shown == lines
            log = app.query_one("#log", VerticalScroll)
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # scrollable, at the end

    asyncio.run(scenario())


def test_a_resumed_game_log_starts_at_the_first_event(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    table = _planet()

    async def play_and_quit() -> list[str]:
        app = PlayApp(table, save_path=save)
        async with app.run_test(size=(160, 48)) as pilot:
            for _ in range(3):
                await pilot.press("enter")
                await pilot.pause()
            lines = table.log(0)
            await pilot.press("q")
            await pilot.pause()
        return lines

    before = asyncio.run(play_and_quit())
    record = GameRecord.loads(save.read_text())
    session = Session.resume(record, [None, RandomBot(), RandomBot(), RandomBot()])
    resumed = Table(session, [0])
    assert len(resumed.history) == len(record.actions)
    assert resumed.log(0) == before

    async def look() -> None:
        app = PlayApp(resumed)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            shown = _text(app, "#log-text").split("\n")
            assert shown[: len(before)] == before

    asyncio.run(look())


def test_the_rules_panel_shows_the_whole_quote() -> None:
    game = make("shadowlord", players=3)
    scout = Session(game, [RandomBot() for _ in range(3)], 3)
    while not scout.is_over():
        player = scout.current_player
        if player >= 0 and len(game.words.rules_help(game.observe(scout.state, player)) or "") > 1000:
            break
        scout.step()
    assert not scout.is_over()
    session = Session(game, [None, None, None], 3, seat_names=["human"] * 3)
    for action in scout.actions:
        session.apply(action)
    table = Table(session, [0, 1, 2])
    help_text = game.words.rules_help(table.observation(session.current_player))
    assert help_text is not None

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            shown = _text(app, "#help-text")
            assert shown.startswith(help_text) and "How you win" in shown[len(help_text) :]
            inner = app.query_one("#help-text")
            assert inner.size.height > 8  # wrapped over more than 8 lines, none cut off
            panel = app.query_one("#help", VerticalScroll)
            assert panel.virtual_size.height >= inner.size.height  # all of it can be scrolled to

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 36)])
def test_the_choices_keep_rows_of_their_own_on_a_small_terminal(size: tuple[int, int]) -> None:
    """At 80x24 the log took 12 rows and the choices none: a newcomer saw no choice to make."""

    async def scenario() -> None:
        game = make("shadowlord", players=2)
        table = Table(Session(game, [None, RandomBot()], 3, seat_names=["human", "random"]), [0])
        app = PlayApp(table)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            actions = app.query_one("#actions")
            shown = actions.content_region.height
            assert shown >= 4, f"{shown} rows for the choices at {size}"
            assert actions.region.bottom <= app.query_one("#bottom").region.y
            assert app.query_one("#bottom").region.height >= 5

    asyncio.run(scenario())


def test_choices_and_the_log_read_without_card_ids() -> None:
    """The browser leaves card ids out (``Search (Search 1)``, not ``... #83``) and shows choices
    that read the same once; the terminal app showed every id, and two identical cards twice."""

    async def scenario() -> None:
        table = _planet()
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            seen_twins = False
            for _ in range(30):
                if table.session.is_over():
                    break
                options = app.query_one("#actions", OptionList)
                texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
                assert not any(CARD_ID.search(text) for text in texts), texts
                assert len(texts) == len(set(texts)), texts
                named = [choice.text for group in table.choice_groups() for choice in group.choices]
                seen_twins |= len({without_card_ids(text) for text in named}) < len(named)
                await pilot.press("enter")
                await pilot.pause(0.01)
            assert seen_twins  # a hand held two cards that read the same at some decision
            assert not CARD_ID.search(_text(app, "#log-text"))
            assert not CARD_ID.search(_text(app, "#recent-text"))

    asyncio.run(scenario())
