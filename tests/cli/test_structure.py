"""The command line's shape: small functions, and settings objects that match their commands."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

import shadowtable.cli
from shadowtable.cli.serve import ServeSettings, serve
from shadowtable.cli.train import TrainCommand, train

CLI = Path(shadowtable.cli.__file__).parent


def _functions() -> list[tuple[str, int]]:
    found = []
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                found.append((f"{path.name}:{node.name}", node.end_lineno - node.lineno + 1))
    return found


def test_no_function_in_the_command_line_is_over_60_lines() -> None:
    functions = _functions()
    assert len(functions) > 30
    assert [(name, lines) for name, lines in functions if lines > 60] == []


def _parameters(command: object) -> set[str]:
    return {name for name in inspect.signature(command).parameters if name != "ctx"}  # type: ignore[arg-type]


def test_serve_settings_have_one_field_per_parameter() -> None:
    assert {f.name for f in dataclasses.fields(ServeSettings)} == _parameters(serve)


def test_train_command_has_one_field_per_parameter() -> None:
    renamed = {"option": "options", "plugin": "plugins"}
    assert {f.name for f in dataclasses.fields(TrainCommand)} == {renamed.get(p, p) for p in _parameters(train)}


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ServeSettings().port = 1  # type: ignore[misc]
