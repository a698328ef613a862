"""Every subcommand over a table of bad inputs.

Each must print exactly one line on stderr, starting with ``error:``, exit with status 2, never
print a traceback, and leave every file as it was (no output created, emptied or changed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import shadowtable
from shadowtable.cli import main
from shadowtable.sim.parallel import BatchJob, run_batch

HUGE = "99999999999999999999999999"
SEAT_RANGE = "between 0 and 2 for 3 players"

# -- the input files, written fresh into each test's working folder ----------------------------


def _good_record() -> dict[str, object]:
    record = run_batch(BatchJob("tiny-showdown", 3, ("random",), 1, 1))[0]
    return record.to_json()


GOOD = _good_record()
GOOD_LINE = json.dumps(GOOD)


def _variant(**changes: object) -> str:
    return json.dumps({**GOOD, **changes}) + "\n"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


BAD_RECORD_FILES: dict[str, str | bytes] = {
    "missing.jsonl": "",  # not written: see _write_inputs
    "empty.jsonl": "",
    "blank.jsonl": "\n \n",
    "not-json.jsonl": "this is not JSON\n",
    "not-an-object.jsonl": "[1, 2, 3]\n",
    "bad-utf8.jsonl": GOOD_LINE.encode() + b"\n" + b'{"game": "\xff\xfe"}\n',
    "deep-document.jsonl": _nested(100_000) + "\n",
    "deep-line.jsonl": '{"metadata": ' + _nested(100_000) + "}\n",
    "deep-metadata.jsonl": GOOD_LINE[:-1] + ', "extra": ' + _nested(100_000) + "}\n",
    "metadata-list.jsonl": _variant(metadata=[1, 2]),
    "metadata-text.jsonl": _variant(metadata="roles"),
    "metadata-null.jsonl": _variant(metadata=None),
    "truncated-text.jsonl": _variant(truncated="no"),
    "truncated-number.jsonl": _variant(truncated=0),
    "options-list.jsonl": _variant(options=["rounds", 2]),
    "seed-text.jsonl": _variant(seed="7"),
    "seed-bool.jsonl": _variant(seed=True),
    "seed-negative.jsonl": _variant(seed=-1),
    "seed-too-big.jsonl": _variant(seed=2**53),
    "seed-huge.jsonl": _variant(seed=int(HUGE)),
    "seed-of-5000-digits.jsonl": GOOD_LINE[:-1] + ', "seed": ' + "9" * 5000 + "}\n",
    "returns-text.jsonl": _variant(returns="win"),
    "returns-bools.jsonl": _variant(returns=[True, False, False]),
    "returns-short.jsonl": _variant(returns=[1.0]),
    "players-text.jsonl": _variant(players="3"),
    "seats-short.jsonl": _variant(seats=["random"]),
    "actions-text.jsonl": _variant(actions="0,1,2"),
    "a-folder": "",  # a directory: see _write_inputs
}
"""Files that are not readable records at all: every command that reads records refuses them."""

UNREPLAYABLE_FILES: dict[str, str] = {
    "unknown-game.jsonl": _variant(game="chess"),
    "bad-version.jsonl": _variant(version="99"),
    "bad-action.jsonl": _variant(actions=[999_999]),
    "bad-option.jsonl": _variant(options={"rounds": 9}),
    "wrong-returns.jsonl": _variant(returns=[9.0, 9.0, 9.0]),
}
"""Well-formed records that do not replay (or replay to other returns): replay and view refuse them."""

CONTENT_FILES: dict[str, str | bytes] = {
    "content-bad-utf8.json": b'{"game": "shadowlord", "x": "\xff"}',
    "content-deep.json": '{"game": "shadowlord", "x": ' + _nested(100_000) + "}",
    "content-not-json.json": "{nope",
    "content-no-game.json": "{}",
    "content-list.json": "[1, 2]",
    "content-unknown-game.json": '{"game": "chess"}',
    "content-bad-field.json": '{"game": "shadowlord", "format": "shadowlord-content/1", "timer": 5}',
}

EXISTING = {
    "existing.jsonl": "keep me\n",
    "existing.json": '{"keep": "me"}\n',
    "existing.html": "<p>keep me</p>\n",
    "existing.csv": "keep,me\n",
    "report.html": "<p>the default report output, keep me</p>\n",
}


def _write_inputs(folder: Path) -> None:
    for name, text in {**BAD_RECORD_FILES, **UNREPLAYABLE_FILES, **CONTENT_FILES, **EXISTING}.items():
        if name == "missing.jsonl":
            continue
        if name == "a-folder":
            (folder / name).mkdir()
            continue
        data = text if isinstance(text, bytes) else text.encode()
        (folder / name).write_bytes(data)
    (folder / "good.jsonl").write_text(GOOD_LINE + "\n")


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes() for path in folder.rglob("*")}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding every input file, made the working directory; the TUIs may not start."""
    _write_inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    try:
        from shadowtable.tui.app import PlayApp
        from shadowtable.tui.replay_view import ReplayApp
    except ImportError:  # pragma: no cover - without the [tui] extra play and view fail early anyway
        return tmp_path

    def no_tui(self: object, *args: object, **kwargs: object) -> None:
        raise AssertionError("the TUI started: the bad input was not caught before it")

    monkeypatch.setattr(PlayApp, "run", no_tui)
    monkeypatch.setattr(ReplayApp, "run", no_tui)
    return tmp_path


# -- the table -------------------------------------------------------------------------------------

SIM = ["simulate", "tiny-showdown", "--players", "3", "--games", "2", "--workers", "1"]
TOUR = ["tournament", "tiny-showdown", "--players", "3", "--bots", "random", "--games", "2", "--workers", "1"]
SWEEP = ["sweep", "tiny-showdown", "--players", "3", "--set", "rounds=1,2", "--games", "2", "--workers", "1"]
PLAY = ["play", "tiny-showdown", "--players", "3"]


FRESH = {"missing.jsonl", "empty.jsonl", "blank.jsonl"}
"""Files holding no game: --resume starts them afresh."""


def _cases() -> list[tuple[list[str], str]]:
    """``(argv, text the error line must contain)``; ``""`` when any clear message will do."""
    cases: list[tuple[list[str], str] | None] = [
        # the top level and `games`
        (["nosuchcommand"], "No such command"),
        (["games", "extra"], ""),
        (["games", "--nosuch"], "--nosuch"),
        # simulate: game ids, numbers, bots, options, backends, plugins
        (["simulate", "chess", "--players", "2"], "unknown game 'chess'"),
        (["simulate", "tiny-showdown"], "--players"),
        (["simulate", "tiny-showdown", "--players", "abc"], "--players"),
        (["simulate", "tiny-showdown", "--players", "2.5"], "--players"),
        *[(["simulate", "tiny-showdown", "--players", n], "2 to 4 players") for n in ("0", "1", "-3", "5", HUGE)],
        ([*SIM, "--games", "0"], "--games"),
        ([*SIM, "--games", "-4"], "--games"),
        ([*SIM, "--games", "many"], "--games"),
        ([*SIM, "--seed", "abc"], "--seed"),
        ([*SIM, "--workers", "-1"], "--workers"),
        ([*SIM, "--bots", "nobot"], "unknown bot 'nobot'"),
        ([*SIM, "--bots", "random,random"], "need 1 or 3 bots"),
        ([*SIM, "--bots", ""], "need 1 or 3 bots"),
        ([*SIM, "--bots", "ismcts:iterations=-1"], "iterations"),
        ([*SIM, "--bots", "random:x=1"], "bad parameters"),
        ([*SIM, "--bots", "ismcts:iterations"], "bad bot parameter"),
        ([*SIM, "--option", "oops"], "bad --option"),
        ([*SIM, "--option", "rounds=9"], "rounds"),
        ([*SIM, "--option", "rounds=abc"], "rounds"),
        ([*SIM, "--option", "nosuch=1"], "nosuch"),
        ([*SIM, "--backend", "foo"], "--backend"),
        ([*SIM, "--plugin", "nosuchmodule_xyz"], "nosuchmodule_xyz"),
        ([*SIM, "--plugin", ""], "--plugin"),
        ([*SIM, "--resume"], "--resume needs --out"),
        ([*SIM, "--nosuch"], "--nosuch"),
        # simulate: outputs, checked before any game
        ([*SIM, "--out", "existing.jsonl"], "--force"),
        ([*SIM, "--out", "no-such-folder/games.jsonl"], "no-such-folder"),
        ([*SIM, "--out", "a-folder"], "a-folder"),
        ([*SIM, "--out", "a-folder", "--force"], "a-folder"),
        ([*SIM, "--out", "good.jsonl", "--resume"], "another batch"),
        ([*SIM, "--out", "existing.jsonl", "--resume"], "existing.jsonl"),
        # content files given as a game option
        *[
            (["simulate", "shadowlord", "--players", "2", "--games", "1", "--option", f"content={name}"], name)
            for name in ("content-bad-utf8.json", "content-deep.json", "content-not-json.json", "missing.json")
        ],
        # tournament
        (["tournament", "chess", "--players", "2", "--bots", "random"], "unknown game 'chess'"),
        *[
            (["tournament", "tiny-showdown", "--players", n, "--bots", "random"], "2 to 4 players")
            for n in ("0", "9", HUGE)
        ],
        (["tournament", "tiny-showdown", "--players", "3"], "--bots"),
        ([*TOUR, "--bots", "nobot"], "unknown bot 'nobot'"),
        ([*TOUR, "--bots", ""], "at least one bot"),
        ([*TOUR, "--bots", "random*0"], "count of at least 1"),
        ([*TOUR, "--bots", "random*x"], "count of at least 1"),
        ([*TOUR, "--games", "0"], "--games"),
        ([*TOUR, "--workers", "-2"], "--workers"),
        ([*TOUR, "--option", "rounds=7"], "rounds"),
        ([*TOUR, "--resume"], "--resume needs --records"),
        ([*TOUR, "--out", "existing.json"], "--force"),
        ([*TOUR, "--records", "existing.jsonl"], "--force"),
        ([*TOUR, "--out", "no-such-folder/t.json"], "no-such-folder"),
        ([*TOUR, "--records", "no-such-folder/t.jsonl"], "no-such-folder"),
        ([*TOUR, "--records", "a-folder"], "a-folder"),
        ([*TOUR, "--out", "a-folder", "--force"], "a-folder"),
        ([*TOUR, "--records", "new.jsonl", "--out", "new.jsonl"], "--records"),
        ([*TOUR, "--records", "good.jsonl", "--resume"], "is not game 0 of this tournament"),
        ([*TOUR, "--records", "new.jsonl", "--out", "no-such-folder/t.json", "--resume"], "no-such-folder"),
        # sweep
        (["sweep", "chess", "--players", "2", "--set", "rounds=1"], "unknown game 'chess'"),
        (["sweep", "tiny-showdown", "--players", "0", "--set", "rounds=1"], "2 to 4 players"),
        (["sweep", "tiny-showdown", "--players", "3"], "--set"),
        ([*SWEEP, "--set", "rounds"], "bad --set"),
        ([*SWEEP, "--set", "=1"], "bad --set"),
        ([*SWEEP, "--set", "nosuch=1,2"], "nosuch"),
        ([*SWEEP, "--set", "rounds=1,7"], "rounds"),
        ([*SWEEP, "--bots", "nobot"], "unknown bot 'nobot'"),
        ([*SWEEP, "--bots", "random,random"], "need 1 or 3 bots"),
        ([*SWEEP, "--games", "0"], "--games"),
        ([*SWEEP, "--out", "existing.json"], "--force"),
        ([*SWEEP, "--out", "no-such-folder/s.json"], "no-such-folder"),
        (["sweep", "shadowlord", "--players", "2", "--set", "content.nosuch.path=1,2", "--games", "1"], "nosuch"),
        # report and export
        (["report"], "Missing argument"),
        (["report", "good.jsonl", "--out", "existing.html"], "--force"),
        (["report", "good.jsonl"], "report.html"),
        (["report", "good.jsonl", "--out", "no-such-folder/r.html"], "no-such-folder"),
        (["report", "good.jsonl", "--out", "a-folder", "--force"], "a-folder"),
        (["export", "good.jsonl"], "--out"),
        (["export", "good.jsonl", "--out", "existing.csv"], "--force"),
        (["export", "good.jsonl", "--out", "games.xlsx"], ".csv or .parquet"),
        (["export", "good.jsonl", "--out", "no-such-folder/g.csv"], "no-such-folder"),
        (["export", "good.jsonl", "--out", "a-folder", "--force"], "a-folder"),
        # replay and view: seats and indices
        *[(["replay", "good.jsonl", "--seat", s], SEAT_RANGE) for s in ("-1", "3", HUGE, f"-{HUGE}")],
        (["replay", "good.jsonl", "--seat", "x"], "--seat"),
        *[(["view", "good.jsonl", "--seat", s], SEAT_RANGE) for s in ("-1", "3", HUGE)],
        *[(["view", "good.jsonl", "--index", i], "--index") for i in ("-1", "1", HUGE)],
        # content check
        *[(["content", "check", name], "") for name in CONTENT_FILES],
        (["content", "check", "missing.json"], "missing.json"),
        (["content", "check", "a-folder"], "a-folder"),
        (["content", "check", "good.jsonl", "--game", "chess"], "chess"),
        (["content", "check"], "Missing argument"),
        # play, wherever it fails before the terminal app starts
        (["play", "chess"], "unknown game 'chess'"),
        *[(["play", "tiny-showdown", "--players", n], "2 to 4 players") for n in ("0", "1", "-1", "9", HUGE)],
        *[([*PLAY, "--seat", s], SEAT_RANGE) for s in ("-1", "3", HUGE)],
        *[([*PLAY, "--hotseat", h], SEAT_RANGE) for h in ("0,3", "-1", "1,2,3", HUGE)],
        *[([*PLAY, "--hotseat", h], "--hotseat") for h in ("x", "0;1", ",", "")],
        ([*PLAY, "--bots", "nobot"], "unknown bot 'nobot'"),
        ([*PLAY, "--bots", "random,random,random"], "need 1 or 2 bots"),
        ([*PLAY, "--option", "rounds=9"], "rounds"),
        ([*PLAY, "--option", "oops"], "bad --option"),
        ([*PLAY, "--speed", "fast"], "--speed"),
        ([*PLAY, "--seed", "x"], "--seed"),
        ([*PLAY, "--trust-edited"], "--trust-edited goes with --load"),
        *[([*PLAY, "--seed", n], "--seed must be a whole number from 0 to") for n in ("-1", str(2**53), HUGE)],
    ]
    for name in BAD_RECORD_FILES:
        cases += [
            (["replay", name], name),
            (["view", name], name),
            (["report", name, "--out", "new.html"], name),
            (["export", name, "--out", "new.csv"], name),
            (["play", "tiny-showdown", "--load", name], name),
            ([*SIM, "--out", name, "--resume"], name) if name not in FRESH else None,
            ([*TOUR, "--records", name, "--resume"], name) if name not in FRESH else None,
        ]
    for name in UNREPLAYABLE_FILES:
        cases += [(["replay", name], name), (["view", name], name)]
    return [case for case in cases if case is not None]


CASES = _cases()


def _case_id(case: tuple[list[str], str]) -> str:
    return " ".join(arg if len(arg) < 30 else arg[:27] + "..." for arg in case[0]) or "(none)"


def _assert_one_error_line(code: int, out: str, err: str, expected: str) -> None:
    assert "Traceback" not in out + err
    assert out == "", "a bad input is refused before anything is shown"
    assert code == 2, f"exit status {code}; stderr: {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert lines[0].startswith("error: "), lines[0]
    assert expected in lines[0], f"{expected!r} not in {lines[0]!r}"


@pytest.mark.parametrize(("argv", "expected"), CASES, ids=[_case_id(case) for case in CASES])
def test_bad_input_gives_one_error_line_exit_2_and_changes_nothing(
    workdir: Path, argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(workdir)
    code = main(argv)
    captured = capsys.readouterr()
    _assert_one_error_line(code, captured.out, captured.err, expected)
    assert _snapshot(workdir) == before, "a bad input must leave every file as it was"


def test_play_with_no_players_names_the_games_player_range(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tiny-showdown", "--players", "0"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: tiny-showdown is for 2 to 4 players, got 0"


def test_report_without_matplotlib_names_both_install_commands(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in [name for name in sys.modules if name == "matplotlib" or name.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now raises ImportError
    before = _snapshot(workdir)
    code = main(["report", "good.jsonl", "--out", "new.html"])
    captured = capsys.readouterr()
    _assert_one_error_line(code, captured.out, captured.err, "matplotlib")
    assert "pip install 'shadowtable[report]'" in captured.err
    assert 'pip install -e ".[report]"' in captured.err
    assert _snapshot(workdir) == before


@pytest.mark.parametrize(
    ("module", "argv", "install"),
    [
        ("ray", [*SIM, "--backend", "ray"], "pip install 'shadowtable[ray]'"),
        ("pyarrow", ["export", "good.jsonl", "--out", "new.parquet"], "pip install pyarrow"),
    ],
)
def test_a_missing_extra_is_one_error_line_before_any_work(
    workdir: Path,
    module: str,
    argv: list[str],
    install: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in [name for name in sys.modules if name == module or name.startswith(f"{module}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)
    before = _snapshot(workdir)
    code = main(argv)
    captured = capsys.readouterr()
    _assert_one_error_line(code, captured.out, captured.err, install)
    assert _snapshot(workdir) == before


# -- the same through a real process: `python -m shadowtable.cli` and the console script ----------


def _environment() -> dict[str, str]:
    src = str(Path(shadowtable.__file__).parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}


def _console_script() -> str | None:
    beside = Path(sys.executable).parent / "shadowtable"
    return str(beside) if beside.exists() else shutil.which("shadowtable")


PROCESS_CASES = [
    ["replay", "bad-utf8.jsonl"],
    ["replay", "deep-line.jsonl"],
    ["replay", "metadata-list.jsonl"],
    ["simulate", "shadowlord", "--players", "2", "--games", "1", "--backend", "foo"],
    ["simulate", "shadowlord", "--players", "2", "--games", "1", "--plugin", "nosuchmodule_xyz"],
    ["simulate", "shadowlord", "--players", "2", "--games", "1", "--out", "existing.jsonl"],
    ["simulate", "shadowlord", "--players", "x"],
    ["play", "shadowlord", "--players", "0"],
]


@pytest.mark.parametrize("launcher", ["module", "console-script"])
@pytest.mark.parametrize("argv", PROCESS_CASES, ids=[" ".join(a) for a in PROCESS_CASES])
def test_bad_input_in_a_real_process(workdir: Path, argv: list[str], launcher: str) -> None:
    if launcher == "module":
        command = [sys.executable, "-m", "shadowtable.cli", *argv]
    else:
        script = _console_script()
        if script is None:
            pytest.skip("the shadowtable console script is not installed")
        command = [script, *argv]
    before = _snapshot(workdir)
    proc = subprocess.run(command, capture_output=True, text=True, check=False, env=_environment(), timeout=120)
    _assert_one_error_line(proc.returncode, proc.stdout, proc.stderr, "")
    assert _snapshot(workdir) == before
