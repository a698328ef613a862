"""``shadowtable play``: saves with their own names, the list of saves, resuming, no seed in a save.

The Textual app is driven headless: ``PlayApp.run`` is replaced by a pilot that plays a move or
two and presses ``q``, so everything else (argument handling, saving, what is printed) is real.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from shadowtable.cli import main  # noqa: E402
from shadowtable.core import GameRecord  # noqa: E402
from shadowtable.saves import DATA_DIR_ENV  # noqa: E402
from shadowtable.tui.app import PlayApp  # noqa: E402

Keys = list[str]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return tmp_path / "data"


@pytest.fixture
def headless(monkeypatch: pytest.MonkeyPatch) -> Callable[[Keys], list[PlayApp]]:
    """Make ``PlayApp.run`` press ``keys`` headless; returns the apps that ran."""
    ran: list[PlayApp] = []

    def install(keys: Keys) -> list[PlayApp]:
        def run(self: PlayApp, *args: Any, **kwargs: Any) -> None:
            async def scenario() -> None:
                async with self.run_test(size=(160, 48)) as pilot:
                    for key in keys:
                        await pilot.press(key)
                        await pilot.pause()

            ran.append(self)
            try:
                asyncio.run(scenario())
            except Exception:  # a real run() reports the error itself and returns
                assert self.crashed

        monkeypatch.setattr(PlayApp, "run", run)
        return ran

    return install


def _saves(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "saves").glob("*.json"))


def test_play_saves_with_a_new_name_and_prints_the_resume_command(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("shadowtable-save.json").write_text("an earlier game\n")
    headless(["enter", "q"])
    assert main(["play", "shadow-planet", "--players", "4", "--bots", "random"]) == 0
    assert main(["play", "shadowlord", "--players", "2"]) == 0
    out = capsys.readouterr().out
    saves = _saves(data_dir)
    assert len(saves) == 2 and Path("shadowtable-save.json").read_text() == "an earlier game\n"
    for path in saves:
        assert f"Game saved to {path}" in out and f"Resume it with: shadowtable play --load {path}" in out
    assert saves[0].name.startswith("shadow-planet-4p-20") and saves[1].name.startswith("shadowlord-2p-20")


def test_a_played_games_save_holds_no_seed(headless: Callable[[Keys], list[PlayApp]], data_dir: Path) -> None:
    headless(["enter", "q"])
    assert main(["play", "shadow-planet", "--players", "4"]) == 0
    [path] = _saves(data_dir)
    data = json.loads(path.read_text())
    assert data["seed"] is None
    rest = {key: value for key, value in data.items() if key != "seed"}
    assert not any(word in json.dumps(rest).lower() for word in ("seed", "rng", "random_state", "entropy"))
    assert GameRecord.from_json(data).truncated


def test_resume_carries_on_and_saves_back_to_the_same_file(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headless(["enter", "q"])
    assert main(["play", "shadow-planet", "--players", "4"]) == 0
    [path] = _saves(data_dir)
    before = GameRecord.loads(path.read_text())
    capsys.readouterr()
    ran = headless(["enter", "q"])
    assert main(["play", "--load", str(path)]) == 0
    resumed = ran[-1].table.session
    assert resumed.seed is None and resumed.actions[: len(before.actions)] == before.actions
    after = GameRecord.loads(path.read_text())
    assert len(after.actions) > len(before.actions) and after.seed is None
    assert _saves(data_dir) == [path]
    assert f"Resume it with: shadowtable play --load {path}" in capsys.readouterr().out
    # the older spelling, game id first, still works; a different game id is refused
    assert main(["play", "shadow-planet", "--load", str(path)]) == 0
    assert main(["play", "shadowlord", "--load", str(path)]) == 2
    assert "is a saved game of shadow-planet, not shadowlord" in capsys.readouterr().err


def test_load_alone_lists_recent_saves_newest_first(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--load"]) == 0
    assert "No saved games in" in capsys.readouterr().out
    headless(["enter", "q"])
    assert main(["play", "shadowlord", "--players", "3"]) == 0
    assert main(["play", "shadow-planet", "--players", "5"]) == 0
    older, newer = sorted(_saves(data_dir), key=lambda p: not p.name.startswith("shadowlord"))
    now = time.time()
    os.utime(older, (now - 3600, now - 3600))
    (data_dir / "saves" / "broken.json").write_text("{not json")
    os.utime(data_dir / "saves" / "broken.json", (now - 7200, now - 7200))
    capsys.readouterr()
    assert main(["play", "--load"]) == 0
    out = capsys.readouterr().out
    assert f"Saved games in {data_dir / 'saves'}, newest first:" in out
    assert out.index(str(newer)) < out.index(str(older)) < out.index("broken.json")
    assert "shadow-planet, 5 players, you at seat 0; in progress," in out
    assert "shadowlord, 3 players, you at seat 0; in progress," in out
    assert f"shadowtable play --load {newer}" in out and "unreadable" in out


def test_an_existing_save_path_is_refused_unless_it_is_the_game_resumed(
    headless: Callable[[Keys], list[PlayApp]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = headless(["enter", "q"])
    mine = tmp_path / "mine.json"
    mine.write_text("not to be replaced\n")
    assert main(["play", "shadow-planet", "--save", str(mine)]) == 2
    assert "already exists" in capsys.readouterr().err and mine.read_text() == "not to be replaced\n"
    assert ran == []
    game = tmp_path / "game.json"
    assert main(["play", "shadow-planet", "--save", str(game)]) == 0
    first = GameRecord.loads(game.read_text())
    other = tmp_path / "other.json"
    other.write_text("another file\n")
    assert main(["play", "--load", str(game), "--save", str(other)]) == 2
    assert other.read_text() == "another file\n"
    assert main(["play", "--load", str(game), "--save", str(game)]) == 0
    assert len(GameRecord.loads(game.read_text()).actions) > len(first.actions)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play"], "name one game"),
        (["play", "--load", "/nonexistent/save.json"], "no save file /nonexistent/save.json"),
        (["play", "--load", "a", "b", "c"], "--load takes one save file"),
        (["play", "--load", "x.json", "--seed", "3"], "--seed cannot be used with --load"),
    ],
)
def test_play_refuses_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_crash_prints_where_the_game_is_saved_and_exits_1(
    headless: Callable[[Keys], list[PlayApp]],
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(self: Any, text: str) -> int:
        raise RuntimeError("injected failure")

    monkeypatch.setattr("shadowtable.tui.table.Table.play_text", broken)
    headless(["enter", "slash", "x", "enter"])
    assert main(["play", "shadow-planet"]) == 1
    [path] = _saves(data_dir)
    err = capsys.readouterr().err
    assert "RuntimeError: injected failure" in err and f"Resume it with: shadowtable play --load {path}" in err


def _edited_draw(record: GameRecord) -> list[int]:
    """The record's actions with one chance outcome (a card drawn, a die) changed to another
    outcome that was legal there, such that the whole record still replays."""
    from shadowtable.core import CHANCE
    from shadowtable.core.record import game_for_record

    game = game_for_record(record)
    states = [game.initial_state()]
    for action in record.actions[:-1]:
        states.append(game.apply(states[-1], action))
    for index in reversed(range(len(record.actions))):
        state = states[index]
        if game.current_player(state) != CHANCE:
            continue
        for other in game.legal_actions(state):
            if other == record.actions[index]:
                continue
            edited = [*record.actions[:index], other, *record.actions[index + 1 :]]
            try:
                replayed = state
                for action in edited[index:]:
                    replayed = game.apply(replayed, action)
            except Exception:  # noqa: BLE001 - a later action no longer fits: try another
                continue
            return edited
    raise AssertionError("no chance outcome could be changed")


def test_an_edited_save_is_refused_unless_trusted(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drawn card changed to another legal one: the record still replays, only the seal tells."""
    headless(["enter", "q"])
    assert main(["play", "shadow-planet", "--players", "4"]) == 0
    [path] = _saves(data_dir)
    data = json.loads(path.read_text())
    data["actions"] = _edited_draw(GameRecord.from_json(data))
    path.write_text(json.dumps(data) + "\n")
    edited = path.read_bytes()
    capsys.readouterr()
    ran = headless(["enter", "q"])
    started = len(ran)
    assert main(["play", "--load", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in captured.err
    assert "was changed after it was saved" in lines[0] and "--trust-edited" in lines[0]
    assert len(ran) == started and path.read_bytes() == edited, "refused before the app starts, file left alone"
    assert main(["play", "--load", str(path), "--trust-edited"]) == 0
    assert "warning: " in capsys.readouterr().err
    assert ran[-1].table.session.actions[: len(data["actions"])] == data["actions"]


def test_a_save_is_sealed_with_a_key_only_its_owner_can_read(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headless(["enter", "q"])
    assert main(["play", "shadowlord", "--players", "2"]) == 0
    [path] = _saves(data_dir)
    key = data_dir / "save-key"
    assert key.is_file() and key.stat().st_mode & 0o777 == 0o600
    capsys.readouterr()
    assert main(["play", "--load", str(path)]) == 0
    assert "warning" not in capsys.readouterr().err, "an untouched save loads silently"
    key.unlink()  # as if another user's save: this data folder cannot vouch for it
    assert main(["play", "--load", str(path)]) == 2
    assert "saved by another user" in capsys.readouterr().err


def test_a_save_from_before_seals_loads_with_one_warning_line(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headless(["enter", "q"])
    assert main(["play", "shadowlord", "--players", "2"]) == 0
    [path] = _saves(data_dir)
    old = {key: value for key, value in json.loads(path.read_text()).items() if key != "seal"}
    path.write_text(json.dumps(old) + "\n")
    capsys.readouterr()
    ran = headless(["enter", "q"])
    assert main(["play", "--load", str(path)]) == 0
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("warning: ") and "has no seal" in line
    assert ran[-1].table.session.actions[: len(old["actions"])] == old["actions"]
    assert json.loads(path.read_text())["seal"].startswith("hmac-sha256:"), "saved back, it is sealed"


def test_play_without_bots_named_seats_the_heuristic_or_random_where_none_plays(
    headless: Callable[[Keys], list[PlayApp]], data_dir: Path
) -> None:
    headless(["q"])
    assert main(["play", "shadowlord", "--players", "3"]) == 0
    assert main(["play", "tiny-showdown", "--players", "2"]) == 0  # no heuristic bot plays it
    assert main(["play", "shadowlord", "--players", "2", "--bots", " , "]) == 0  # blank names: none named
    seats = [json.loads(path.read_text())["seats"] for path in _saves(data_dir)]
    assert sorted(seats) == [["human", "heuristic"], ["human", "heuristic", "heuristic"], ["human", "random"]]


def test_without_a_terminal_play_and_view_refuse_in_one_line_and_save_nothing(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # piped input: not a terminal
    assert main(["play", "shadowlord", "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: shadowtable play needs a terminal") and err.count("\n") == 1
    assert _saves(data_dir) == [], "refused before it started: no save"
    record = tmp_path / "game.jsonl"
    simulate = ["simulate", "tiny-showdown", "--players", "2", "--games", "1", "--seed", "1", "--out", str(record)]
    assert main(simulate) == 0
    capsys.readouterr()
    assert main(["view", str(record)]) == 2
    assert capsys.readouterr().err.startswith("error: shadowtable view needs a terminal")
