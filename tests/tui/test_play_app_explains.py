"""The terminal app explains every move: grouped choices, what a choice names and leads to, what
happened while the player waited with the latest fight's breakdown, and how the player wins."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList  # noqa: E402

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import make  # noqa: E402
from shadowtable.core.events import game_log  # noqa: E402
from shadowtable.core.runner import Session  # noqa: E402
from shadowtable.core.table import Told  # noqa: E402
from shadowtable.tui.app import PlayApp  # noqa: E402
from shadowtable.tui.table import Table  # noqa: E402


def _text(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector).content)  # type: ignore[attr-defined]


def _shadowlord_at(stop: object, seed: int = 3) -> Table:
    """A 3-player Shadowlord! table (a person at seat 0) replayed up to the first decision of seat
    0 for which ``stop(game, state)`` holds."""
    game = make("shadowlord", players=3)
    scout = Session(game, [RandomBot() for _ in range(3)], seed)
    while not scout.is_over():
        if scout.current_player == 0 and stop(game, scout.state):  # type: ignore[operator]
            break
        scout.step()
    assert not scout.is_over()
    session = Session(game, [None, RandomBot(), RandomBot()], seed, seat_names=["you", "random", "random"])
    for action in scout.actions:
        session.apply(action)
    return Table(session, [0])


def _many_choices(game: object, state: object) -> bool:
    groups = game.words.choice_groups(state)  # type: ignore[attr-defined]
    return sum(len(g["actions"]) for g in groups) > 8 and any(len(g["actions"]) > 1 for g in groups)


def test_many_choices_are_offered_as_groups_that_open_and_close() -> None:
    table = _shadowlord_at(_many_choices)

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            options = app.query_one("#actions", OptionList)
            entries = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            total = sum(len(g.choices) for g in table.choice_groups())
            assert len(entries) < total and any(e.startswith("\u25b8") for e in entries)
            group_at = next(i for i, e in enumerate(entries) if e.startswith("\u25b8"))
            options.highlighted = group_at
            await pilot.press("enter")
            await pilot.pause()
            opened = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            assert opened[0].startswith("\u25c2 back") and len(opened) > 2
            before = list(table.session.actions)
            await pilot.press("enter")  # "back": nothing is played
            await pilot.pause()
            assert table.session.actions == before
            assert [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)] == entries

    asyncio.run(scenario())


def test_a_highlighted_choice_shows_the_card_text_and_what_follows() -> None:
    game = make("shadow-planet", players=4)
    scout = Session(game, [RandomBot() for _ in range(4)], 7)
    while not scout.is_over():
        state = scout.state
        if scout.current_player == 0 and any(
            game.words.action_to_str(state, a).startswith("play ") and game.words.preview(state, a)
            for a in game.legal_actions(state)
        ):
            break
        scout.step()
    session = Session(game, [None] + [RandomBot() for _ in range(3)], 7, seat_names=["you"] + ["random"] * 3)
    for action in scout.actions:
        session.apply(action)
    table = Table(session, [0])
    state = session.state
    play = next(a for a in game.legal_actions(state) if game.words.action_to_str(state, a).startswith("play "))
    card = int(game.words.action_to_str(state, play).rsplit("#", 1)[1])
    card_text = game.words.reference()["cards"][card]["text"]

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            options = app.query_one("#actions", OptionList)
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            if str(play) not in ids:  # inside a group: open it
                options.highlighted = next(i for i, x in enumerate(ids) if x and x.startswith("group:"))
                await pilot.press("enter")
                await pilot.pause()
                ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            options.highlighted = ids.index(str(play))
            await pilot.pause()
            detail = _text(app, "#detail")
            assert card_text in detail and "Then:" in detail

    asyncio.run(scenario())


def test_the_rules_panel_says_how_the_viewer_wins() -> None:
    table = _shadowlord_at(lambda game, state: True)

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            assert "How you win" in _text(app, "#help-text") and "Master of the Universe" in _text(app, "#help-text")

    asyncio.run(scenario())


def test_the_waiting_panel_shows_what_others_did_and_the_latest_duel() -> None:
    game = make("shadowlord", players=3)
    scout = Session(game, [RandomBot() for _ in range(3)], 11)
    duel_seen = False
    while not scout.is_over():
        if duel_seen and scout.current_player == 0:
            break
        before = scout.state
        action = scout.step()
        _, events = game.apply_recorded(before, action)
        duel_seen = duel_seen or any(e.kind == "duel" for e in events)
    assert duel_seen and not scout.is_over()
    session = Session(game, [None, RandomBot(), RandomBot()], 11, seat_names=["you", "random", "random"])
    for action in scout.actions:
        session.apply(action)
    table = Table(session, [0])
    duel = table.latest(0, frozenset({"duel"}))

    async def scenario() -> None:
        app = PlayApp(table)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            shown = _text(app, "#recent-text")
            assert "Latest fight:" in shown and duel and duel[-1].text in shown
            assert [e.text for e in table.recent(0)][0] in shown

    asyncio.run(scenario())


def test_the_log_is_the_game_log_since_the_start() -> None:
    table = _shadowlord_at(lambda game, state: len(game.legal_actions(state)) > 3)
    told_to_seat = [replace(e, private=False) for e in table.events(0)]  # marked private or not, the same events
    assert told_to_seat == [Told.from_json(e) for e in game_log(table.game, table.session.actions, 0)]
    assert table.events(None) == [Told.from_json(e) for e in game_log(table.game, table.session.actions, None)]
    assert any(e.private for e in table.events(0)) and not any(e.private for e in table.events(None))
    assert table.events(0) != table.events(1)  # each seat is told its own draws


@pytest.mark.parametrize("key", ["q", "s", "r"])
def test_single_keys_work_after_an_illegal_entry(key: str) -> None:
    table = _shadowlord_at(lambda game, state: True)

    async def scenario() -> None:
        app = PlayApp(table, save_folder=None)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("slash", *"zzz", "enter")
            await pilot.pause()
            assert "Not allowed" in _text(app, "#message")
            await pilot.press(key)
            await pilot.pause()
            if key == "q":
                assert not app.is_running and "Game saved to" in app.exit_report
            elif key == "s":
                assert "Saved to" in _text(app, "#message")
            else:
                assert app.query_one("#help").has_class("shown")

    asyncio.run(scenario())
