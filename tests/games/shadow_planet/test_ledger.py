"""The rules ledger names real functions and real tests."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LEDGER = ROOT / "docs" / "rules" / "shadow-planet.md"
TESTS = Path(__file__).parent
ROW = re.compile(r"^\| (SP-[A-Z0-9-]+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$")
FUNCTION = re.compile(r"`((?:[a-z_]+/)*[a-z_]+)\.py:([A-Za-z_]+)`")
TEST = re.compile(r"`(test_[a-z_]+\.py)::([a-z_0-9]+)`")


def rows() -> list[tuple[str, ...]]:
    return [m.groups() for line in LEDGER.read_text().splitlines() if (m := ROW.match(line))]


def test_ledger_has_unique_ids_and_valid_statuses() -> None:
    ids = [r[0] for r in rows()]
    assert len(ids) > 100 and len(ids) == len(set(ids))
    assert all(r[4].split(" ")[0] in ("done", "partial", "missing") for r in rows())


def test_ledger_implementations_exist() -> None:
    named = 0
    for sp_id, _, impl, _, _ in rows():
        for module, func in FUNCTION.findall(impl):
            mod = importlib.import_module("shadowtable.games.shadow_planet." + module.replace("/", "."))
            assert hasattr(mod, func), f"{sp_id}: {module}.py:{func} does not exist"
            named += 1
    assert named > 80


def test_ledger_tests_exist() -> None:
    for sp_id, _, _, test, _ in rows():
        for file, name in TEST.findall(test):
            assert f"def {name}(" in (TESTS / file).read_text(), f"{sp_id}: {file}::{name} does not exist"
