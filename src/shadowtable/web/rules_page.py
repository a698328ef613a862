"""What a game's rules page shows: the whole rulebook in sections with anchors, how each role or
player wins, and the printed material (cards, Sections, figures, events) as tables.

Everything comes from what ships with the game (``data/rulebook.txt``, ``data/rules_help.json``
and ``game.words.reference()``): the page is the same for everyone, at any time, and holds
nothing of any table.  :func:`rule_href` links a pending decision's ``rule`` to the place the
rulebook writes it (the table page's "rule now" box links there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, cast

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class, make
from shadowtable.core.rules_help import load_rules_help
from shadowtable.web.rulebook import Block, Section, Text, find_anchor, parse_rulebook, slug

WIN_ANCHOR = "how-to-win"
REFERENCE_ANCHOR = "reference"


@dataclass(frozen=True)
class Table:
    """A reference table: caption, anchor, header and rows of text."""

    caption: str
    anchor: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Goal:
    """How one role (or every player) wins: in short, then the rulebook's words, with links."""

    name: str
    plain: str
    quote: str
    links: tuple[tuple[str, str], ...]
    """``(anchor, title)`` of the rulebook sections that say it."""


@dataclass(frozen=True)
class RulesPage:
    game_id: str
    name: str
    sections: tuple[Section, ...]
    goals: tuple[Goal, ...]
    endings: Table | None
    tables: tuple[Table, ...]


def game_package(cls: type[Game[Any]]) -> str:
    """The package a game class lives in (where its ``data/`` folder is)."""
    return cls.__module__.rpartition(".")[0]


def known_game(game_id: str) -> type[Game[Any]] | None:
    """The class of ``game_id`` if this process offers it (``None`` also for one that fails to load)."""
    if game_id not in available_games():
        return None
    try:
        return game_class(game_id)
    except (ShadowTableError, ImportError, AttributeError):
        return None


def rulebook_text(package: str) -> str | None:
    """``data/rulebook.txt`` of a game package, if it ships one."""
    if not package:
        return None
    try:
        found = resources.files(package).joinpath("data", "rulebook.txt")
    except ModuleNotFoundError:
        return None
    return found.read_text(encoding="utf-8") if found.is_file() else None


def package_rules(package: str) -> dict[str, dict[str, str]]:
    """The rules-help quotes of a game package (none if it has no such data)."""
    if not package:
        return {}
    try:
        rules: dict[str, dict[str, str]] = load_rules_help(package)["rules"]
    except (OSError, ImportError, KeyError, TypeError, ValueError):
        return {}
    return rules


def quoted_sections(rules: Mapping[str, Mapping[str, str]]) -> list[Section]:
    """A game without a rulebook text: one section per quoted rule."""
    return [
        Section(rule["section"], slug(key), 0, (), (Block("p", text=Text("", rule["quote"])),))
        for key, rule in rules.items()
    ]


def rule_sections(game_id: str) -> tuple[Section, ...]:
    """The rulebook of ``game_id`` in sections (its quoted rules where it ships no rulebook; none
    for a game this process does not offer)."""
    cls = known_game(game_id)
    return () if cls is None else _package_sections(game_package(cls))


@cache
def _package_sections(package: str) -> tuple[Section, ...]:
    text = rulebook_text(package)
    return tuple(parse_rulebook(text) if text is not None else quoted_sections(package_rules(package)))


def rule_anchor(game_id: str, key: str) -> str | None:
    """The anchor on the rules page of ``game_id`` where the rule ``key`` (a pending decision's
    ``rule``, a log event's) is written; ``None`` for an unknown game or rule."""
    cls = known_game(game_id)
    rule = package_rules(game_package(cls)).get(key) if cls is not None else None
    if rule is None:
        return None
    return find_anchor(list(rule_sections(game_id)), rule["section"])


def rule_href(game_id: str, key: str) -> str:
    """The link to the rule ``key`` of ``game_id``: ``/rules/<game>#<anchor>`` (the page's top for
    a rule it cannot place)."""
    anchor = rule_anchor(game_id, key)
    return f"/rules/{game_id}" + (f"#{anchor}" if anchor else "")


@cache
def _quoted_hrefs() -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for game_id in available_games():
        cls = known_game(game_id)
        for key, rule in package_rules(game_package(cls) if cls else "").items():
            found.setdefault((rule["section"].strip(), rule["quote"].strip()), rule_href(game_id, key))
    return found


def quoted_rule_href(rule: Mapping[str, str] | None) -> str | None:
    """The link to a rule shown as its ``section`` and ``quote`` (the table page's rule box; a
    quote may go on with a second rule after the first): ``None`` if no game quotes it."""
    if not rule:
        return None
    section, quote = str(rule.get("section", "")).strip(), str(rule.get("quote", "")).strip()
    for (known_section, known_quote), href in _quoted_hrefs().items():
        if known_section == section and quote.startswith(known_quote):
            return href
    return None


def reference_game(game_id: str) -> Game[Any]:
    """The game configured for its reference: the most players (every role, every colour in play)."""
    cls = game_class(game_id)
    return make(game_id, players=cls.SPEC.max_players)


def rules_page(game_id: str) -> RulesPage | None:
    """The rules page of ``game_id`` (``None``: no such game)."""
    return None if known_game(game_id) is None else _rules_page(game_id)


@cache
def _rules_page(game_id: str) -> RulesPage:
    cls = game_class(game_id)
    extras = extras_of(game_id)
    goals: tuple[Goal, ...] = ()
    endings: Table | None = None
    tables: tuple[Table, ...] = ()
    if extras is not None:
        reference = reference_game(game_id).words.reference()
        goals, endings, tables = extras(game_id, reference)
    return RulesPage(game_id, cls.SPEC.name, rule_sections(game_id), goals, endings, tables)


Extras = Callable[[str, Mapping[str, Any]], tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]]


def section_links(game_id: str, titles: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(anchor, title)`` of each rulebook section of ``game_id`` titled in ``titles`` (found ones only)."""
    sections = list(rule_sections(game_id))
    return tuple((anchor, title) for title in titles if (anchor := find_anchor(sections, title)) is not None)


def extras_of(game_id: str) -> Extras | None:
    """What ``game_id``'s rules page adds (how to win, the printed tables): the function its
    manifest names as ``rules_extras`` (``None``: its rules only)."""
    reference = manifest_of(game_class(game_id)).rules_extras
    return None if reference is None else cast(Extras, load(reference))
