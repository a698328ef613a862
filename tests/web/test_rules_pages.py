"""The rules pages (``/rules/{game}``): the whole rulebook in anchored sections, how to win, the
printed material, links from the lobby and the table page, every decision's rule placed on its
page, nothing of any table on it; and game options in words on the creation form."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from server.wire import BROWSER  # noqa: E402
from shadowtable.core.kernel import Decision  # noqa: E402
from shadowtable.core.kernel_game import KernelGame  # noqa: E402
from shadowtable.core.registry import game_class  # noqa: E402
from shadowtable.web.forms import offered_options  # noqa: E402
from shadowtable.web.option_words import option_words, words_of  # noqa: E402
from shadowtable.web.rulebook import parse_rulebook, section_texts, split_contents  # noqa: E402
from shadowtable.web.rules_page import (  # noqa: E402
    game_package,
    package_rules,
    quoted_rule_href,
    rule_anchor,
    rule_href,
    rule_sections,
    rulebook_text,
)
from shadowtable.web.templating import render  # noqa: E402

GAMES = ("shadow-planet", "shadowlord")
ROOT = Path(__file__).resolve().parents[2]


class Ids(HTMLParser):
    """Every element id of a page, with the text inside the element that carries it."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, str] = {}
        self.open: list[tuple[str, str]] = []
        self.headings: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs).get("id")
        if tag in {"br", "input", "meta", "link", "img"}:
            if found:
                self.ids[found] = ""
            return
        self.open.append((tag, found or ""))
        if found:
            self.ids[found] = ""

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            name, _ = self.open.pop()
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, found in self.open:
            if found:
                self.ids[found] += data
        if self.open and self.open[-1][0] == "h1":
            self.headings.append(data)


def page_ids(text: str) -> Ids:
    parser = Ids()
    parser.feed(text)
    return parser


def decision_rules(game_id: str) -> set[str]:
    """Every ``rule`` a pending decision of ``game_id`` can carry: its rulebook's decisions'."""
    cls = game_class(game_id)
    assert issubclass(cls, KernelGame)
    handlers = cls.KERNEL.rulebook.handlers.values()
    return {handler.rule for handler in handlers if isinstance(handler, Decision) and handler.rule}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_page_has_every_section_of_the_rulebook_with_its_anchor(client: Any, game_id: str) -> None:
    answer = client.get(f"/rules/{game_id}")
    assert answer.status_code == 200
    ids = page_ids(answer.text)
    assert [h.strip() for h in ids.headings] == [f"Rules of {game_class(game_id).SPEC.name}"]
    sections = rule_sections(game_id)
    assert len(sections) > 20
    for section in sections:
        assert section.anchor in ids.ids, section.title
        assert ids.ids[f"{section.anchor}-h"].strip() == section.title
    # every word of the rulebook's body is on the page (the whole text, not a summary)
    text = rulebook_text(game_package(game_class(game_id)))
    assert text is not None
    body = " ".join(ids.ids[s.anchor] for s in sections)
    words = set(re.findall(r"[A-Za-z]{4,}", "\n".join(split_contents(text)[1])))
    missing = {word for word in words if word not in body}
    assert not missing, sorted(missing)[:20]
    assert "/static/rules.js" in answer.text and 'id="rules-filter"' in answer.text


def test_how_to_win_and_the_printed_material_are_on_the_pages(client: Any) -> None:
    planet = page_ids(client.get("/rules/shadow-planet").text).ids
    for role in ("Alien", "Commander", "Lieutenant", "Sergeant", "Guardian"):
        assert role in planet["how-to-win"]
    assert "Threat reaches 8" in planet["endings-caption"] or "Threat reaches 8" in planet["how-to-win"]
    for name in ("Space Suit", "Ray Gun", "Flight Deck", "Temple", "Moonette", "Crawler", "Jenna Scott"):
        assert name in planet["reference"], name
    lord = page_ids(client.get("/rules/shadowlord").text).ids
    assert "Master of the Universe" in lord["how-to-win"]
    for name in ("Shadowlord", "Red Master", "Power Cards", "Special Events", "Space Base", "Ruins"):
        assert name in lord["reference"], name


def test_an_unknown_game_has_no_rules_page(client: Any) -> None:
    answer = client.get("/rules/chess")
    assert answer.status_code == 404
    assert "error:" in answer.text and "<html" in answer.text
    assert "the rules here: The Shadow Planet, Shadowlord!" in answer.text


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_a_decision_or_event_names_links_to_its_place(client: Any, game_id: str) -> None:
    ids = page_ids(client.get(f"/rules/{game_id}").text).ids
    rules = package_rules(game_package(game_class(game_id)))
    keys = decision_rules(game_id) | set(rules)
    assert decision_rules(game_id) <= set(rules)
    assert len(keys) >= 15
    for key in sorted(keys):
        anchor = rule_anchor(game_id, key)
        assert anchor is not None and anchor in ids, key
        assert rule_href(game_id, key) == f"/rules/{game_id}#{anchor}"
        # the anchor is the place the quote names last, not a section above it
        named = rules[key]["section"].split(";")[0].split(">")[-1].strip()
        assert ids.get(f"{anchor}-h", ids[anchor]).strip().startswith(named), (key, named, ids[anchor][:60])


def test_an_unknown_rule_links_to_the_top_of_its_page() -> None:
    assert rule_anchor("shadowlord", "no-such-rule") is None
    assert rule_href("shadowlord", "no-such-rule") == "/rules/shadowlord"
    assert rule_anchor("chess", "move") is None


def test_the_rule_box_links_the_rule_it_quotes() -> None:
    rules = package_rules(game_package(game_class("shadowlord")))
    vote, cards = rules["vote"], rules["cards"]
    box = render("fragments/rule.html", rule={"section": vote["section"], "quote": vote["quote"]})
    assert 'href="/rules/shadowlord#general--voting"' in box
    # a main decision quotes the rule on cards under portraits after its own: still its own rule's place
    two = {"section": rules["move"]["section"], "quote": f"{rules['move']['quote']}\n\n{cards['section']}\n\n..."}
    assert quoted_rule_href(two) == rule_href("shadowlord", "move")
    assert quoted_rule_href({"section": "Nowhere", "quote": "not a rule"}) is None
    assert "rules" not in render("fragments/rule.html", rule=None)


def test_the_rules_page_is_the_same_for_everyone_and_holds_nothing_of_a_table(client: Any) -> None:
    stranger = TestClient(client.app, base_url="http://testserver", headers=BROWSER)  # the app is already running
    before = {game_id: stranger.get(f"/rules/{game_id}").text for game_id in GAMES}
    form = {"game": "shadow-planet", "players": "3", "name": "Ada", "seat_1": "bot:random", "seat_2": "bot:random"}
    table = client.post("/tables", data=form, follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    client.post(f"/t/{table}/start", follow_redirects=False)
    page = client.get(f"/t/{table}").text
    assert 'data-status="playing"' in page
    assert 'href="/rules/shadow-planet"' in page, "the header's link"
    assert re.search(r'<p class="rule-now"><a href="/rules/shadow-planet#[a-z0-9-]+"', page), "the rule box's link"
    for game_id in GAMES:
        seated = client.get(f"/rules/{game_id}")
        assert seated.text == before[game_id], "a seated player sees the very page a stranger saw before the game"
        assert "set-cookie" not in seated.headers
        assert table not in seated.text and "Ada" not in seated.text


def test_the_lobby_and_the_table_page_link_the_rules_pages(client: Any) -> None:
    lobby = client.get("/").text
    for game_id in GAMES:
        assert f'href="/rules/{game_id}"' in lobby
    assert 'href="/api/games"' in lobby and 'href="/docs"' in lobby
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "human"}
    table = client.post("/tables", data=form, follow_redirects=False).headers["location"]
    assert 'href="/rules/shadowlord"' in client.get(table).text


def test_game_options_are_shown_in_words_with_their_names_as_values(client: Any) -> None:
    for game_id in GAMES:
        spec = game_class(game_id).SPEC
        setup = client.get("/lobby/setup", params={"game": game_id, "players": str(spec.max_players)}).text
        assert not re.search(r"\b[A-Z]{2}-D-[A-Z0-9-]+", setup), "a ledger id reached the form"
        for option in offered_options(spec):
            words = option_words(game_id, option)
            assert option.name in words_of(game_id), f"option {option.name} of {game_id} has no words"
            assert f'name="opt_{option.name}"' in setup
            assert str(escape(words.label)) in setup and str(escape(words.description)) in setup
    setup = client.get("/lobby/setup", params={"game": "shadow-planet", "players": "3"}).text
    assert '<option value="lowest_initiative" >the Character with the lowest Initiative</option>' in setup
    created = client.post(
        "/tables",
        data={"game": "shadow-planet", "players": "3", "name": "Ada", "opt_identity_ties": "lowest_initiative"},
        follow_redirects=False,
    )
    assert created.status_code == 303


def test_an_option_without_words_loses_its_ledger_id() -> None:
    from shadowtable.core.spec import OptionSpec

    option = OptionSpec("new_rule", str, "a", "SP-D-PROC-9: something decided", choices=("a", "b_c"))
    words = option_words("shadow-planet", option)
    assert (words.label, words.description) == ("New rule", "something decided")
    assert words.choices == {"a": "a", "b_c": "b c"}


RULEBOOK = """A Game: Rulebook

Table of Contents

Table of Contents

• Play
  • Moving
    • Far
• End

Play

Players take turns.

Moving

Voting: One yes passes.
• Walk: one step.
  • Run: two steps.
• Important: never fly.

3 players\t4 players
5\t6

Far

Going far costs more.

End

Moving

The game ends.
"""


def test_the_rulebook_reads_into_levelled_sections_with_anchors() -> None:
    sections = parse_rulebook(RULEBOOK)
    assert [(s.title, s.level, s.anchor, s.path) for s in sections] == [
        ("Play", 0, "play", ()),
        ("Moving", 1, "moving", ("Play",)),
        ("Far", 2, "far", ("Play", "Moving")),
        ("End", 0, "end", ()),
        ("Moving", 1, "end-moving", ("End",)),
    ]
    moving = sections[1]
    assert [b.kind for b in moving.blocks] == ["p", "list", "table"]
    texts = section_texts(moving)
    assert [(t.lead, t.anchor) for t in texts] == [
        ("Voting", "moving--voting"),
        ("Walk", "moving--walk"),
        ("Run", "moving--run"),
        ("Important", "moving--important"),
    ]
    assert moving.blocks[1].items[0].children[0].text.body == "two steps."
    assert moving.blocks[2].rows == (("3 players", "4 players"), ("5", "6"))


def test_the_rulebooks_ship_inside_the_package() -> None:
    for game_id in GAMES:
        text = rulebook_text(game_package(game_class(game_id)))
        assert text is not None and "Table of Contents" in text
    assert '"*.txt"' in (ROOT / "pyproject.toml").read_text()


REFERENCE_NAMES = [("shadow-planet", "the-shadow-planet"), ("shadowlord", "shadowlord")]


@pytest.mark.parametrize(("game_id", "reference"), REFERENCE_NAMES)
def test_the_shipped_rulebook_is_the_reference_copy(game_id: str, reference: str) -> None:
    """Where the team's reference documents sit beside the repository, the package ships them unchanged."""
    original = ROOT.parent / "shared" / "rules" / f"{reference}-rulebook.txt"
    if not original.is_file():
        pytest.skip("the reference documents are not beside this checkout")
    assert rulebook_text(game_package(game_class(game_id))) == original.read_text(encoding="utf-8")
