"""Adapters are found through each game's manifest: no generic module imports or names a game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shadowtable.core import available_games, game_class, make
from shadowtable.core.manifest import NO_ADAPTERS, Manifest, load, manifest_of

PACKAGE = Path(__import__("shadowtable").__file__).parent
BUILTIN = ("shadow-planet", "shadowlord")


def _game_specific_modules() -> set[str]:
    """Modules a manifest names, which are written for one game."""
    names: set[str] = set()
    for gid in BUILTIN:
        manifest = manifest_of(game_class(gid))
        refs = [
            manifest.heuristic_bot,
            manifest.encoder,
            manifest.terminal_board,
            manifest.web_board,
            *manifest.evaluations.values(),
        ]
        names |= {ref.partition(":")[0] for ref in refs if ref}
    return names


def _generic_modules() -> list[tuple[str, Path]]:
    specific = _game_specific_modules()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("shadowtable", *path.relative_to(PACKAGE).with_suffix("").parts))
        if module.startswith("shadowtable.games.") or module in specific:
            continue
        found.append((module, path))
    return found


def test_every_builtin_game_names_its_adapters_and_they_load() -> None:
    for gid in BUILTIN:
        manifest = manifest_of(game_class(gid))
        assert manifest is not NO_ADAPTERS and manifest.heuristic_bot and manifest.encoder and manifest.terminal_board
        assert manifest.web_board and manifest.length_bound
        for ref in (
            manifest.heuristic_bot,
            manifest.terminal_board,
            manifest.web_board,
            manifest.length_bound,
            *manifest.evaluations.values(),
        ):
            assert callable(load(ref))


def test_no_generic_module_imports_or_names_a_game() -> None:
    specific = _game_specific_modules()
    problems = []
    for module, path in _generic_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            imported = []
            if isinstance(node, ast.ImportFrom) and node.module:
                imported = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                imported = [a.name for a in node.names]
            for name in imported:
                if name.startswith("shadowtable.games.") or name in specific:
                    problems.append(f"{module} imports {name}")
            if isinstance(node, ast.Constant) and node.value in BUILTIN:
                problems.append(f"{module} names the game {node.value!r} (line {node.lineno})")
    assert not problems, "\n".join(problems)


def test_a_game_without_a_manifest_has_no_adapters() -> None:
    assert {gid for gid in available_games() if manifest_of(game_class(gid)) is NO_ADAPTERS} >= {"tiny-showdown"}
    assert manifest_of(type(make("tiny-showdown", players=2))) == Manifest()


def test_a_bad_reference_is_a_typed_error() -> None:
    from shadowtable.core.errors import ShadowTableError

    for bad in ("no_colon", "shadowtable.nosuchmodule:x", "shadowtable.core.manifest:nosuchname"):
        with pytest.raises(ShadowTableError):
            load(bad)


def test_typed_view_reads_an_observation_into_the_class_the_manifest_names() -> None:
    from shadowtable.core.errors import ShadowTableError
    from shadowtable.core.views import typed_view

    for gid in BUILTIN:
        game = make(gid, players=3)
        state = game.initial_state()
        view_class = load(str(manifest_of(type(game)).view))
        for seat in (None, 0, 2):
            observation = game.observe(state, seat)
            typed = typed_view(game, observation)
            assert type(typed) is view_class
            assert typed.seat == seat
            assert typed.to_json() == observation
    tiny = make("tiny-showdown", players=2)
    with pytest.raises(ShadowTableError):
        typed_view(tiny, tiny.observe(tiny.initial_state(), 0))
