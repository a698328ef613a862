"""The rules as the lab's new run form shows them: every decision a variant can switch (a game
option, in the game's words, with its rules-ledger id and allowed values), every rule clause
the game quotes (its section, its words, its place in the rulebook), and the whole rules ledger
(every clause of the rulebook and decision of the decisions file) by section, each entry with
the switch or the content document's parts that change it, so a designer sees what a variant
may change and what stays fixed in this engine."""

from __future__ import annotations

from dataclasses import dataclass

from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import game_class
from shadowtable.core.rules_ledger import LedgerEntry, id_covers, load_ledger
from shadowtable.web.lab_form import GameForm
from shadowtable.web.option_words import LEDGER_ID
from shadowtable.web.rules_page import game_package, known_game, package_rules, rule_href


@dataclass(frozen=True)
class Decision:
    """A decision of the rules a variant switches: the option's name, words, ledger id, values."""

    option: str
    label: str
    description: str
    ledger: str
    values: str


@dataclass(frozen=True)
class Clause:
    """A rule clause: where the rulebook writes it, its words and the link there."""

    section: str
    quote: str
    href: str


@dataclass(frozen=True)
class LedgerRow:
    """One entry of the rules ledger with what changes it: option labels, content document parts."""

    entry: LedgerEntry
    switches: tuple[str, ...]
    content_parts: tuple[str, ...]


@dataclass(frozen=True)
class LedgerSection:
    """The ledger's entries under one heading."""

    title: str
    rows: tuple[LedgerRow, ...]


@dataclass(frozen=True)
class RulesInWords:
    decisions: tuple[Decision, ...]
    clauses: tuple[Clause, ...]
    content: bool
    """Whether the game's printed material comes from a content document a variant may edit."""
    ledger: tuple[LedgerSection, ...] = ()


def ledger_id(doc: str) -> str:
    """The rules-ledger id an option's documentation opens with (empty: none)."""
    found = LEDGER_ID.match(doc)
    return found.group(0).strip().rstrip(":") if found else ""


def content_parts_by_clause(game_id: str) -> dict[str, tuple[str, ...]]:
    """Ledger id (or id group) to the content document's parts that change it, as the game's manifest names them."""
    reference = manifest_of(game_class(game_id)).content_parts
    return {} if reference is None else {key: tuple(parts) for key, parts in load(reference).items()}


def changes_of(entry_id: str, by_id: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The values of every key of ``by_id`` that covers ``entry_id`` (:func:`id_covers`), sorted, once each."""
    return tuple(sorted({value for key, values in by_id.items() if id_covers(key, entry_id) for value in values}))


def ledger_sections(
    entries: tuple[LedgerEntry, ...], switches: dict[str, tuple[str, ...]], parts: dict[str, tuple[str, ...]]
) -> tuple[LedgerSection, ...]:
    """``entries`` grouped by section in the ledger's order, each with the switches (option labels
    by ledger id) and content parts (by ledger id) that change it."""
    grouped: dict[str, list[LedgerRow]] = {}
    for entry in entries:
        row = LedgerRow(entry, changes_of(entry.id, switches), changes_of(entry.id, parts))
        grouped.setdefault(entry.section, []).append(row)
    return tuple(LedgerSection(title, tuple(rows)) for title, rows in grouped.items())


def rules_in_words(game_id: str, form: GameForm) -> RulesInWords:
    """The decisions and clauses of ``game_id`` for the form ``form`` shows."""
    docs = {option.name: option.doc for option in game_class(game_id).SPEC.options}
    decisions = tuple(
        Decision(
            option.name,
            option.label,
            option.description,
            ledger_id(docs.get(option.name, "")),
            ", ".join(words for _, words in option.choices) if option.choices else "a number",
        )
        for option in form.options
    )
    cls = known_game(game_id)
    rules = package_rules(game_package(cls)) if cls is not None else {}
    clauses = tuple(
        Clause(rule["section"], rule["quote"], rule_href(game_id, key)) for key, rule in sorted(rules.items())
    )
    switches: dict[str, tuple[str, ...]] = {}
    for decision in decisions:
        if decision.ledger:
            switches.setdefault(decision.ledger, ())
            switches[decision.ledger] += (decision.label,)
    has_content = form.content is not None
    parts = content_parts_by_clause(game_id) if has_content else {}
    entries = load_ledger(game_package(cls)) if cls is not None else ()
    return RulesInWords(decisions, clauses, has_content, ledger_sections(entries, switches, parts))
