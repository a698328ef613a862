"""Write each game's rules ledger as package data, read from its markdown ledger:

    PYTHONPATH=src python scripts/rules_ledger.py           (from the repository root)
    PYTHONPATH=src python scripts/rules_ledger.py --check   (exit 1 if a shipped file differs)

``docs/rules/<game>.md`` -> ``data/rules_ledger.json`` in the game's package
(:func:`shadowtable.core.rules_ledger.parse_ledger`); ``tests/core/test_rules_ledger.py`` checks
the shipped files equal these, so the designer's lab shows the ledger as docs/ writes it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from shadowtable.core.registry import available_games, game_class
from shadowtable.core.rules_ledger import LEDGER_FILE, ledger_json, parse_ledger

ROOT = Path(__file__).resolve().parents[1]
COMMAND = "PYTHONPATH=src python scripts/rules_ledger.py"


def ledger_paths() -> dict[Path, Path]:
    """Each game's markdown ledger and the package file it is shipped as."""
    found = {}
    for game_id in available_games():
        source = ROOT / "docs" / "rules" / f"{game_id}.md"
        if source.exists():
            package = game_class(game_id).__module__.rpartition(".")[0]
            found[source] = ROOT / "src" / Path(*package.split(".")) / LEDGER_FILE
    return found


def expected_text(source: Path) -> str:
    return ledger_json(parse_ledger(source.read_text(encoding="utf-8")))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for source, target in ledger_paths().items():
        text = expected_text(source)
        if check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.relative_to(ROOT))
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    if stale:
        print(f"error: out of date: {', '.join(map(str, stale))}; run {COMMAND}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
