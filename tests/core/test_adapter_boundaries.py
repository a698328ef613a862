"""Games own their adapters, and adapters read the game as any player could.

Scanned on the source (``ast``): no module outside ``games/<id>/`` imports a game's context,
rules or state; a game's adapters (heuristic bot, evaluation, encoder, action kinds, boards) import neither
its context nor its rules nor reads any ``ctx`` attribute, and no module outside the games reads
a game's ``ctx``.
Adapters read the seat's observation, ``game.words.reference()`` (through the game's ``printed``
tables), the spec and options, and the game's public modules (actions, content, ...).
Tests may import anything.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import shadowtable

SRC = Path(shadowtable.__file__).parent
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "manifest.py").exists())
INTERNALS = ("context", "rules", "state")
"""A game's internals: only the game's own package imports them."""
ADAPTER_FORBIDDEN = ("context", "rules")
"""What a game's adapters never import (the state module's constants, the observation's codes,
are allowed)."""
ADAPTERS = ("heuristic.py", "encoder.py", "evaluation.py", "kinds.py", "boards")


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool) -> Iterator[str]:
    """Every module an import statement names (``from a import b`` yields ``a`` and ``a.b``)."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def internal_of(name: str, parts: tuple[str, ...]) -> str | None:
    """The game internal ``name`` imports (``shadowlord.rules``), if any of ``parts``."""
    for game in GAMES:
        prefix = f"shadowtable.games.{game}."
        if name.startswith(prefix) and name[len(prefix) :].split(".")[0] in parts:
            return f"{game}.{name[len(prefix) :].split('.')[0]}"
    return None


def _names_a_game(node: ast.expr) -> bool:
    """``game``, ``self.game``, ``table.game``...: an expression ending in a name with ``game``."""
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return "game" in name.lower()


def context_reads(source: str, *, any_receiver: bool) -> list[int]:
    """Lines that read an attribute named ``ctx`` (``x.ctx``, ``getattr(x, "ctx")``): on anything
    when ``any_receiver``, else on a game (a command-line context is no game's)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "ctx":
            receiver = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "ctx"
        ):
            receiver = node.args[0]
        else:
            continue
        if any_receiver or _names_a_game(receiver):
            lines.append(node.lineno)
    return lines


def game_of(path: Path) -> str | None:
    inside = path.relative_to(SRC).parts
    return inside[1] if len(inside) > 2 and inside[0] == "games" else None


def is_adapter(path: Path) -> bool:
    inside = path.relative_to(SRC).parts
    return game_of(path) is not None and inside[2] in ADAPTERS


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def violations(path: Path) -> list[str]:
    """What ``path`` breaks of the boundaries (empty: nothing)."""
    source = path.read_text()
    module = module_name(path)
    own = game_of(path)
    found = []
    for name in imported_modules(source, module, path.name == "__init__.py"):
        internal = internal_of(name, INTERNALS)
        if internal is not None and internal.split(".")[0] != own:
            found.append(f"imports {name}")
        elif is_adapter(path) and internal_of(name, ADAPTER_FORBIDDEN) is not None:
            found.append(f"(an adapter) imports {name}")
    if own is None or is_adapter(path):
        found += [f"reads .ctx on line {line}" for line in context_reads(source, any_receiver=own is not None)]
    return found


def test_the_games_and_their_adapters_are_found() -> None:
    assert GAMES == ["shadow_planet", "shadowlord"]
    adapters = {str(p.relative_to(SRC)) for p in sources() if is_adapter(p)}
    for game in GAMES:
        assert f"games/{game}/heuristic.py" in adapters
        assert f"games/{game}/encoder.py" in adapters
        assert f"games/{game}/boards/web.py" in adapters
        assert f"games/{game}/boards/terminal.py" in adapters
    assert not any(is_adapter(p) for p in (SRC / "bots").rglob("*.py"))


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_crosses_a_game_boundary(path: Path) -> None:
    assert violations(path) == [], f"{path.relative_to(SRC)}: {violations(path)}"


@pytest.mark.parametrize(
    ("relative", "source", "expected"),
    [
        ("bots/x.py", "from shadowtable.games.shadowlord.context import Context", ["imports"]),
        ("bots/x.py", "from shadowtable.games.shadowlord import rules", ["imports"]),
        ("web/x.py", "import shadowtable.games.shadow_planet.state", ["imports"]),
        ("games/shadowlord/x.py", "from shadowtable.games.shadow_planet.rules.turn import f", ["imports"]),
        ("games/shadowlord/heuristic.py", "from .context import Context", ["(an adapter) imports"]),
        ("games/shadowlord/boards/web.py", "from ..rules.voting import motion_text", ["(an adapter) imports"]),
        ("games/shadow_planet/encoder.py", "rules = getattr(game, 'ctx', None)", ["reads .ctx"]),
        ("games/shadowlord/boards/web.py", "colours = game.ctx.content.colours", ["reads .ctx"]),
        ("server/x.py", "n = table.game.ctx.players", ["reads .ctx"]),
        ("games/shadowlord/heuristic.py", "from shadowtable.games.shadowlord.state import BLACK", []),
        ("games/shadowlord/render.py", "from shadowtable.games.shadowlord.context import Context", []),
        ("games/shadowlord/game.py", "x = self.ctx", []),
        ("cli.py", "ctx = getattr(exc, 'ctx', None)", []),
        ("games/shadowlord/encoder.py", "self.table = self.ctx", ["reads .ctx"]),
    ],
)
def test_the_scan_finds_what_crosses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relative: str, source: str, expected: list[str]
) -> None:
    """The scan itself, on made-up modules: each forbidden import or read is reported."""
    root = tmp_path / "shadowtable"
    path = root / relative
    path.parent.mkdir(parents=True)
    path.write_text(source + "\n")
    for game in GAMES:
        (root / "games" / game).mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(sys.modules[__name__], "SRC", root)
    found = violations(path)
    assert [any(what in line for line in found) for what in expected] == [True] * len(expected)
    assert bool(found) == bool(expected), found
