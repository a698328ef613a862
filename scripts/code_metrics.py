"""Size and shape figures of the source tree: lines, functions over 60 lines, ``Any`` and
``dict[str, Any]`` uses.

    python scripts/code_metrics.py [SRC_DIR]   # default: src/shadowtable
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path


def long_functions(path: Path, limit: int = 60) -> list[tuple[str, int]]:
    """``(qualified name, lines)`` of every function in ``path`` longer than ``limit`` lines."""
    found: list[tuple[str, int]] = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                found.append((f"{path}:{node.lineno} {node.name}", length))
    return found


def figures(root: Path) -> dict[str, int]:
    """The figures of every ``.py`` file under ``root``."""
    files = sorted(root.rglob("*.py"))
    text = [f.read_text() for f in files]
    long = [item for f in files for item in long_functions(f)]
    return {
        "files": len(files),
        "lines": sum(t.count("\n") for t in text),
        "functions_over_60": len(long),
        "functions_over_100": sum(1 for _, n in long if n > 100),
        "Any": sum(len(re.findall(r"\bAny\b", t)) for t in text),
        "dict[str, Any]": sum(t.count("dict[str, Any]") for t in text),
    }


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "src/shadowtable")
    for name, value in figures(root).items():
        print(f"{name:>18}: {value}")
    if "-v" in sys.argv:
        for where, n in sorted((i for f in sorted(root.rglob("*.py")) for i in long_functions(f)), key=lambda x: -x[1]):
            print(f"{n:5d} {where}")


if __name__ == "__main__":
    main()
