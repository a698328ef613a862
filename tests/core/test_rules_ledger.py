"""Each game ships its rules ledger as data equal to what ``scripts/rules_ledger.py`` makes of
``docs/rules/<game>.md`` now, so a ledger edited without regenerating fails here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.rules_ledger import id_covers, load_ledger, parse_ledger

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "rules_ledger.py"
BUILTIN = {"shadow-planet": "shadowtable.games.shadow_planet", "shadowlord": "shadowtable.games.shadowlord"}


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_ledger_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_the_shipped_ledger_is_the_one_the_docs_write_now(game_id: str) -> None:
    source = ROOT / "docs" / "rules" / f"{game_id}.md"
    made = parse_ledger(source.read_text(encoding="utf-8"))
    assert load_ledger(BUILTIN[game_id]) == made, (
        f"data/rules_ledger.json of {game_id} differs from {source.relative_to(ROOT)}: "
        "run PYTHONPATH=src python scripts/rules_ledger.py"
    )
    assert script().main(["--check"]) == 0


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_every_id_row_of_the_docs_is_an_entry_with_its_section_and_kind(game_id: str) -> None:
    text = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    ids = re.findall(r"^\|\s*([A-Z]{2,3}(?:-[A-Z0-9]+)+)\s*\|", text, flags=re.MULTILINE)
    entries = load_ledger(BUILTIN[game_id])
    assert [entry.id for entry in entries] == ids and len(ids) > 100
    assert {entry.kind for entry in entries if "-D-" in entry.id} == {"decision"}
    assert all(entry.section and entry.words and entry.status for entry in entries)


def test_rows_parse_into_sections_kinds_and_plain_words() -> None:
    text = (
        "# Ledger\n\n## Setup\n\n| ID | Clause | Where | Status |\n|---|---|---|---|\n"
        "| XX-SET-1 | Three **ships** each | `setup.py` | done |\n"
        "## Decisions (file)\n\n| ID | Decision | Status |\n|---|---|---|\n| XX-D-1 | Timer `6` notches | partial |\n"
    )
    first, second = parse_ledger(text)
    assert (first.id, first.words, first.status, first.kind, first.section) == (
        "XX-SET-1",
        "Three ships each",
        "done",
        "clause",
        "Setup",
    )
    assert (second.words, second.kind, second.section) == ("Timer 6 notches", "decision", "Decisions (file)")


def test_an_id_written_twice_is_refused_naming_its_line() -> None:
    with pytest.raises(ShadowTableError, match="line 2: ledger id XX-1 is written twice"):
        parse_ledger("| XX-1 | a | done |\n| XX-1 | b | done |\n")


def test_a_group_id_covers_its_members_only() -> None:
    assert id_covers("SL-2PM", "SL-2PM-1") and id_covers("SP-D-PROC-1", "SP-D-PROC-1")
    assert not id_covers("SP-D-PROC-1", "SP-D-PROC-10") and not id_covers("SL-2P", "SL-2PM-1")
