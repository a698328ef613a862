"""The rules ledger names real functions and real tests."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LEDGER = ROOT / "docs" / "rules" / "shadowlord.md"
TESTS = Path(__file__).parent
ROW = re.compile(r"^\| (SL-[A-Z0-9-]+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$")


def rows() -> list[tuple[str, ...]]:
    return [m.groups() for line in LEDGER.read_text().splitlines() if (m := ROW.match(line))]


def test_ledger_has_unique_ids_and_valid_statuses() -> None:
    ids = [r[0] for r in rows()]
    assert len(ids) > 150 and len(ids) == len(set(ids))
    assert all(r[4].split(":")[0].split(" ")[0] in ("done", "partial", "missing") for r in rows())


def test_ledger_implementations_exist() -> None:
    for sl_id, _, impl, _, _ in rows():
        if ":" not in impl or impl.startswith("data") or impl.startswith("option"):
            continue
        module, func = impl.split(":")
        mod = importlib.import_module(f"shadowtable.games.shadowlord.{module}")
        assert hasattr(mod, func), f"{sl_id}: {impl} does not exist"


def test_ledger_tests_exist() -> None:
    for sl_id, _, _, test, status in rows():
        if status == "missing":
            continue
        file, name = test.split("::")
        text = (TESTS / file).read_text()
        assert f"def {name}(" in text, f"{sl_id}: {test} does not exist"
