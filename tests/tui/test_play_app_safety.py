"""The terminal app never loses a game: odd input, unexpected errors, quitting, earlier saves."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("textual")

from shadowtable.bots import RandomBot  # noqa: E402
from shadowtable.core import GameRecord, make  # noqa: E402
from shadowtable.core.runner import Session  # noqa: E402
from shadowtable.saves import DATA_DIR_ENV, resume_command  # noqa: E402
from shadowtable.tui.app import PlayApp  # noqa: E402
from shadowtable.tui.table import Table  # noqa: E402


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saves go under ``tmp_path/data``; the working folder is ``tmp_path/cwd``."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return tmp_path / "data"


def _table(game_id: str = "shadow-planet", players: int = 4) -> Table:
    game = make(game_id, players=players)
    bots = [None] + [RandomBot() for _ in range(players - 1)]
    return Table(Session(game, bots, None, seat_names=["human"] + ["random"] * (players - 1)), [0])


def _text(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector).content)  # type: ignore[attr-defined]


def _saves(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "saves").glob("*.json"))


@pytest.mark.parametrize("typed", ["²", "①", "9" * 5000, "play #" + "9" * 5000])
def test_typing_a_superscript_digit_is_refused_and_the_app_goes_on(typed: str) -> None:
    async def scenario() -> None:
        app = PlayApp(_table())
        async with app.run_test(size=(160, 48)) as pilot:
            before = list(app.table.session.actions)
            await pilot.press("slash")
            if len(typed) == 1:
                await pilot.press(typed)  # typed key by key, as a person would
            else:
                app.query_one("#notation").value = typed  # type: ignore[attr-defined]
            assert app.query_one("#notation").value == typed  # type: ignore[attr-defined]
            await pilot.press("enter")
            await pilot.pause()
            assert "Not allowed" in _text(app, "#message")
            assert len(_text(app, "#message")) < 200
            assert app.table.session.actions == before
            assert app.is_running and app.return_code is None
            await pilot.press("slash")
            app.query_one("#notation").value = app.table.choices()[0][1]  # type: ignore[attr-defined]
            await pilot.press("enter")  # a legal move still plays
            await pilot.pause()
            assert len(app.table.session.actions) > len(before)

    asyncio.run(scenario())


def test_an_unexpected_error_saves_the_game_and_names_the_resume_command(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    table = _table()
    app = PlayApp(table)

    def broken(text: str) -> int:
        raise RuntimeError("injected failure")

    async def scenario() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("enter")  # one move through the list first
            await pilot.pause()
            monkeypatch.setattr(table, "play_text", broken)
            await pilot.press("slash", "x", "enter")
            await pilot.pause()

    with pytest.raises(RuntimeError, match="injected failure"):  # the pilot re-raises what ended the app
        asyncio.run(scenario())
    actions_before_crash = list(table.session.actions)
    assert len(actions_before_crash) > 0
    assert app.crashed and app.return_code == 1
    [save] = _saves(data_dir)
    assert "injected failure" in app.exit_report
    assert str(save) in app.exit_report
    assert resume_command(save) in app.exit_report and resume_command(save).startswith("shadowtable play --load ")
    record = GameRecord.loads(save.read_text())
    assert record.actions == actions_before_crash and record.truncated and record.seed is None
    resumed = Session.resume(record, [None, RandomBot(), RandomBot(), RandomBot()])
    assert resumed.game.state_to_json(resumed.state) == table.game.state_to_json(table.session.state)


def test_an_error_while_saving_falls_back_to_the_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "not-a-folder"))
    (tmp_path / "not-a-folder").write_text("a file where the data folder should be")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    app = PlayApp(_table())

    async def scenario() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(scenario())
    [save] = (tmp_path / "tmp").glob("shadow-planet-4p-*.json")
    assert resume_command(save) in app.exit_report


def test_quitting_saves_under_a_new_name_and_says_how_to_resume(data_dir: Path) -> None:
    old = Path("shadowtable-save.json")
    old.write_text("an earlier game\n")

    def quit_one(game_id: str, players: int) -> PlayApp:
        app = PlayApp(_table(game_id, players))
        app.started = datetime(2026, 11, 30, 17, 5)

        async def scenario() -> None:
            async with app.run_test(size=(160, 48)) as pilot:
                await pilot.press("enter")
                await pilot.pause()
                await pilot.press("q")
                await pilot.pause()

        asyncio.run(scenario())
        return app

    apps = [quit_one("shadow-planet", 4), quit_one("shadow-planet", 4), quit_one("shadowlord", 2)]
    saves = _saves(data_dir)
    assert len(saves) == 3 and old.read_text() == "an earlier game\n"
    for app in apps:
        path = app.saved_to
        assert path is not None and path in saves
        assert app.exit_report == f"Game saved to {path}\nResume it with: shadowtable play --load {path}"
        record = GameRecord.loads(path.read_text())
        assert record.actions == app.table.session.actions and record.seed is None
    assert [app.saved_to.name for app in apps if app.saved_to] == [
        "shadow-planet-4p-2026-11-30-1705.json",
        "shadow-planet-4p-2026-11-30-1705-2.json",
        "shadowlord-2p-2026-11-30-1705.json",
    ]


def test_an_explicit_save_path_that_appears_meanwhile_is_left_alone(tmp_path: Path, data_dir: Path) -> None:
    theirs = tmp_path / "theirs.json"
    app = PlayApp(_table(), save_path=theirs)

    async def scenario() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            theirs.write_text("someone else's file\n")
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(scenario())
    assert theirs.read_text() == "someone else's file\n"
    [save] = _saves(data_dir)
    assert app.saved_to == save and str(save) in app.exit_report


def test_a_resumed_game_saves_back_into_its_own_file(tmp_path: Path, data_dir: Path) -> None:
    first = PlayApp(_table())

    async def play_and_quit(app: PlayApp) -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(play_and_quit(first))
    assert first.saved_to is not None
    save = first.saved_to
    record = GameRecord.loads(save.read_text())
    session = Session.resume(record, [None, RandomBot(), RandomBot(), RandomBot()])
    second = PlayApp(Table(session, [0]), resumed_from=save)
    asyncio.run(play_and_quit(second))
    assert second.saved_to == save and _saves(data_dir) == [save]
    assert len(GameRecord.loads(save.read_text()).actions) > len(record.actions)


def test_ctrl_q_saves_too(data_dir: Path) -> None:
    app = PlayApp(_table())

    async def scenario() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("ctrl+q")
            await pilot.pause()

    asyncio.run(scenario())
    [save] = _saves(data_dir)
    assert resume_command(save) in app.exit_report
