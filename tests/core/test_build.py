"""Which build runs: the compiled one (mypyc extension modules) or the pure-Python one.

CI sets ``SHADOWTABLE_REQUIRE_COMPILED=1`` for the main run, so a compiled build that silently
fell back to pure Python fails here, and ``SHADOWTABLE_REQUIRE_PURE=1`` for the run on the pure
copy of the source (docs/performance.md)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

import shadowtable
from shadowtable.cli import main

ENGINE_MODULES = (
    "shadowtable.core.kernel",
    "shadowtable.core.rng",
    "shadowtable.games.shadow_planet.observe",
    "shadowtable.games.shadow_planet.rules.steps",
    "shadowtable.games.shadow_planet.state",
    "shadowtable.games.shadowlord.rules.battle",
    "shadowtable.games.shadowlord.tasks",
    "shadowtable.bots.ismcts",
    "shadowtable.rl.encoding",
)
"""A sample of the compiled modules (setup.py lists them all)."""


def _is_extension(module_name: str) -> bool:
    return not str(importlib.import_module(module_name).__file__).endswith((".py", ".pyc"))


def test_the_engine_modules_are_all_compiled_or_all_source() -> None:
    kinds = {name: _is_extension(name) for name in ENGINE_MODULES}
    assert set(kinds.values()) == {shadowtable.compiled()}, kinds


def test_modules_outside_the_engines_stay_python_source() -> None:
    assert not _is_extension("shadowtable.core.runner")
    assert not _is_extension("shadowtable.cli")


def _required(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


@pytest.mark.skipif(not _required("SHADOWTABLE_REQUIRE_COMPILED"), reason="the compiled build is not required")
def test_the_compiled_build_is_required_and_running() -> None:
    assert shadowtable.compiled(), f"the pure-Python build runs from {Path(shadowtable.__file__).parent}"


@pytest.mark.skipif(not _required("SHADOWTABLE_REQUIRE_PURE"), reason="the pure build is not required")
def test_the_pure_build_is_required_and_running() -> None:
    assert not shadowtable.compiled(), f"the compiled build runs from {Path(shadowtable.__file__).parent}"


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"shadowtable {shadowtable.__version__}, {shadowtable.build()}, Python ")
