"""The ``[web]`` extra (what ``start.sh`` installs) holds every package the server imports.

A package imported by the server, its pages or what they load (tutorial, analysis, the portable
policy) but missing from ``[web]`` makes ``shadowtable serve`` refuse to start after a fresh
``pip install '.[web]'``; this check reads the imports from the source and the extra from
``pyproject.toml``."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVED = ("server", "web", "analysis", "tutorial", "learn/portable.py", "cli/serve.py")
THROUGH_FASTAPI = {"pydantic", "starlette"}
"""Installed with FastAPI itself, which pins their versions."""


def requirement_name(spec: str) -> str:
    """The normalised distribution name of a requirement (``uvicorn[standard]>=0.29``: ``uvicorn``)."""
    return re.split(r"[\[<>=!~ ;]", spec, maxsplit=1)[0].lower().replace("_", "-")


def served_files() -> list[Path]:
    package = ROOT / "src" / "shadowtable"
    files: list[Path] = []
    for part in SERVED:
        path = package / part
        files += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return files


def third_party_imports(path: Path) -> set[str]:
    """Top-level names of the modules ``path`` imports that are neither standard nor ours."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {name for name in names if name not in sys.stdlib_module_names and name != "shadowtable"}


def test_every_package_the_server_imports_is_in_the_web_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    offered = {requirement_name(spec) for spec in project["dependencies"] + project["optional-dependencies"]["web"]}
    distributions = importlib.metadata.packages_distributions()
    imported = set().union(*(third_party_imports(path) for path in served_files()))
    assert "fastapi" in imported and "sqlalchemy" in imported  # the check reads the real imports
    missing = {
        name: distributions.get(name, [name])
        for name in imported - THROUGH_FASTAPI
        if not any(requirement_name(dist) in offered for dist in distributions.get(name, [name]))
    }
    assert not missing, f"imported by the server but not in [web]: {missing}"
