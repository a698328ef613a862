"""The lab's new run form lists every entry of the game's rules ledger (as docs/rules writes it)
with what changes it: the switch whose documentation opens with its id, the content document's
parts, or nothing ("fixed in this engine")."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server.account_helpers import sign_up
from server.conftest import config_for
from server.wire import BROWSER
from shadowtable.core.registry import game_class
from shadowtable.core.rules_ledger import id_covers
from shadowtable.server.app import create_app
from shadowtable.web.lab_form import game_form
from shadowtable.web.lab_rules import ledger_id

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
LAB = {"lab_accounts": ["designer"], "analysis_workers": 1, "rate_lab_reads": "100000/second"}
GAMES = [("shadow-planet", 3), ("shadowlord", 2)]


def doc_ids(game_id: str) -> list[str]:
    text = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    return re.findall(r"^\|\s*([A-Z]{2,3}(?:-[A-Z0-9]+)+)\s*\|", text, flags=re.MULTILINE)


def ledger_row(page: str, entry_id: str) -> str:
    found = re.search(rf'<tr id="ledger-{re.escape(entry_id)}">(.*?)</tr>', page, flags=re.DOTALL)
    assert found, f"{entry_id} is not on the form"
    return html.unescape(found.group(1))


@pytest.fixture
def form_pages(sqlite_database: str) -> dict[str, str]:
    with TestClient(create_app(config_for(sqlite_database, **LAB)), headers=BROWSER) as client:
        sign_up(client, "designer")
        pages = {}
        for game_id, players in GAMES:
            shown = client.get(f"/lab/new?game={game_id}&players={players}")
            assert shown.status_code == 200
            pages[game_id] = shown.text
        return pages


def test_every_id_of_the_docs_is_on_the_form_with_what_changes_it(form_pages: dict[str, str]) -> None:
    for game_id, players in GAMES:
        page = form_pages[game_id]
        ids = doc_ids(game_id)
        assert len(ids) > 100 and page.count('<tr id="ledger-') == len(ids)
        switched = {}
        docs = {option.name: option.doc for option in game_class(game_id).SPEC.options}
        for option in game_form(game_id, players).options:
            prefix = ledger_id(docs[option.name])
            if prefix:
                switched.update({entry_id: option.label for entry_id in ids if id_covers(prefix, entry_id)})
        assert len(switched) >= 4, f"{game_id}: too few switched entries {switched}"
        for entry_id in ids:
            row = ledger_row(page, entry_id)
            if entry_id in switched:
                assert f"the switch \u201c{switched[entry_id]}\u201d" in row, row
            else:
                assert "the switch" not in row, row
            assert ("fixed in this engine" in row) != ("the switch" in row or "content document" in row), row


def test_printed_material_names_its_content_parts_and_a_procedure_is_fixed(form_pages: dict[str, str]) -> None:
    assert "the content document's <code>sections</code>" in html.unescape(
        ledger_row(form_pages["shadow-planet"], "SP-SEC-TEMPLE")
    )
    assert "fixed in this engine" in ledger_row(form_pages["shadow-planet"], "SP-SETUP-5")
    assert "timer" in ledger_row(form_pages["shadowlord"], "SL-D-15")
    assert "When the Power Stone Timer moves" in ledger_row(form_pages["shadowlord"], "SL-D-15")
