"""Specs, options, the registry and the import boundaries of the pure core."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import shadowtable
from shadowtable.core import (
    InvalidOptionError,
    InvalidPlayersError,
    OptionSpec,
    UnknownGameError,
    UnknownOptionError,
    make,
)

SRC = Path(shadowtable.__file__).parent


def test_make_validates_everything() -> None:
    assert make("tiny-showdown", players=2, rounds=1).options == {"rounds": 1}
    with pytest.raises(UnknownGameError, match="available"):
        make("no-such-game", players=3)
    with pytest.raises(InvalidPlayersError, match="2 to 4 players"):
        make("tiny-showdown", players=5)
    with pytest.raises(InvalidPlayersError):
        make("tiny-showdown", players=True)
    with pytest.raises(UnknownOptionError, match="no option 'speed'"):
        make("tiny-showdown", players=3, speed=2)
    with pytest.raises(InvalidOptionError, match="must be int"):
        make("tiny-showdown", players=3, rounds="2")
    with pytest.raises(InvalidOptionError, match="<= 2"):
        make("tiny-showdown", players=3, rounds=3)


def test_option_spec_choices_and_nullable() -> None:
    opt = OptionSpec("mode", str, "a", "doc", choices=("a", "b"))
    assert opt.validate("b") == "b"
    with pytest.raises(InvalidOptionError, match="one of"):
        opt.validate("c")
    path = OptionSpec("content", str, None, "doc", nullable=True)
    assert path.validate(None) is None
    with pytest.raises(InvalidOptionError):
        OptionSpec("flag", bool, False, "doc").validate(1)


def test_available_games_lists_registered_games() -> None:
    assert "tiny-showdown" in shadowtable.available_games()


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


ADAPTERS = ("heuristic.py", "encoder.py", "evaluation.py", "boards")
"""A game's adapters (named in its manifest, imported only when used) may use a front end's
libraries; everything else in a game package is the rules core."""


def _is_adapter(path: Path) -> bool:
    inside = path.relative_to(SRC / "games").parts
    return len(inside) > 2 and inside[1] in ADAPTERS or len(inside) == 2 and inside[1] in ADAPTERS


@pytest.mark.parametrize("package", ["core", "games"])
def test_core_and_games_import_only_the_standard_library(package: str) -> None:
    allowed = set(sys.stdlib_module_names) | {"shadowtable", "__future__"}
    for path in sorted((SRC / package).rglob("*.py")):
        if package == "games" and _is_adapter(path):
            continue
        outside = _imported_roots(path) - allowed
        assert not outside, f"{path.relative_to(SRC)} imports {sorted(outside)}"


def test_games_never_import_each_other_or_front_ends() -> None:
    """Checked on import statements: a manifest names its adapters as strings, never imports them."""
    import ast

    for path in sorted((SRC / "games").rglob("*.py")):
        own = path.relative_to(SRC / "games").parts[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                for other in ("shadow_planet", "shadowlord"):
                    if other != own and path.parent != SRC / "games":
                        assert f"games.{other}" not in name, f"{path} imports {name}"
                if _is_adapter(path):
                    continue
                for front in (
                    "shadowtable.bots",
                    "shadowtable.sim",
                    "shadowtable.cli",
                    "shadowtable.tui",
                    "shadowtable.rl",
                ):
                    assert not name.startswith(front), f"{path} imports {name}"


@pytest.mark.parametrize("game", ["shadow_planet", "shadowlord"])
def test_a_game_package_imports_no_third_party_library(game: str) -> None:
    """Importing a game (its rules, observation and manifest) loads none of its adapters' libraries."""
    import subprocess

    code = (
        f"import sys, shadowtable.games.{game}.game, shadowtable.games.{game}.manifest; "
        "print(sorted({'numpy', 'rich', 'jinja2', 'torch', 'textual'} & set(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded
