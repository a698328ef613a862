"""A game's rules ledger as data: every rule clause of its rulebook and every decision of its
decisions file, each with its ledger id, its words, its status and the section it sits under.

The ledger is written as markdown tables (``docs/rules/<game>.md``: ID | words | ... | status);
:func:`parse_ledger` reads them and ``scripts/rules_ledger.py`` ships the result as
``data/rules_ledger.json`` in the game's package, where :func:`load_ledger` reads it back.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any, Literal

from shadowtable.core.errors import ShadowTableError

LEDGER_FILE = "data/rules_ledger.json"
ROW_ID = re.compile(r"^[A-Z]{2,3}(?:-[A-Z0-9]+)+$")
"""A ledger id as a table row's first cell (``SP-OPS-MOVE-1``)."""

Kind = Literal["clause", "decision"]


@dataclass(frozen=True)
class LedgerEntry:
    """One row of the ledger: a rule clause or a decision of the decisions file."""

    id: str
    words: str
    status: str
    kind: Kind
    section: str


def kind_of(section: str) -> Kind:
    """A row under a "Decisions ..." heading is a decision of the decisions file; any other a clause."""
    return "decision" if section.lower().startswith("decisions") else "clause"


def row_cells(line: str) -> list[str]:
    """The cells of one markdown table row (``| a | b |`` -> ``["a", "b"]``), without code and bold marks."""
    return [cell.replace("`", "").replace("**", "").strip() for cell in line.strip().strip("|").split("|")]


def parse_ledger(text: str) -> tuple[LedgerEntry, ...]:
    """Every table row of a ledger whose first cell is an id, in the order written.

    Raises :class:`ShadowTableError` for an id written twice or a row with under three cells."""
    section = ""
    entries: list[LedgerEntry] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if not line.lstrip().startswith("|"):
            continue
        cells = row_cells(line)
        if not ROW_ID.match(cells[0]):
            continue
        if len(cells) < 3:
            raise ShadowTableError(f"line {number}: ledger row {cells[0]} has {len(cells)} cells, needs 3 or more")
        if cells[0] in seen:
            raise ShadowTableError(f"line {number}: ledger id {cells[0]} is written twice")
        seen.add(cells[0])
        entries.append(LedgerEntry(cells[0], cells[1], cells[-1], kind_of(section), section))
    return tuple(entries)


def ledger_json(entries: tuple[LedgerEntry, ...]) -> str:
    """The shipped file's text for ``entries``."""
    return json.dumps({"entries": [asdict(entry) for entry in entries]}, indent=1, ensure_ascii=False) + "\n"


def entry_of(raw: dict[str, Any]) -> LedgerEntry:
    kind = raw["kind"]
    if kind not in ("clause", "decision"):
        raise ValueError(f"unknown ledger kind {kind!r}")
    return LedgerEntry(str(raw["id"]), str(raw["words"]), str(raw["status"]), kind, str(raw["section"]))


def load_ledger(package: str) -> tuple[LedgerEntry, ...]:
    """The ledger a game package ships (none: empty)."""
    try:
        text = resources.files(package).joinpath(LEDGER_FILE).read_text("utf-8")
    except (OSError, ImportError, ValueError):
        return ()
    return tuple(entry_of(raw) for raw in json.loads(text)["entries"])


def id_covers(prefix: str, ledger_id: str) -> bool:
    """Whether ``prefix`` names ``ledger_id``: the same id, or a group of it (``SL-2PM`` covers ``SL-2PM-1``)."""
    return ledger_id == prefix or ledger_id.startswith(prefix + "-")
