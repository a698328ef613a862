"""The rules as the lab's new run form shows them: every decision a variant can switch (a game
option, in the game's words, with its rules-ledger id and allowed values) and every rule clause
the game quotes (its section, its words, its place in the rulebook), so a designer sees what a
variant may change and where the rulebook says what it changes."""

from __future__ import annotations

from dataclasses import dataclass

from shadowtable.core.registry import game_class
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
class RulesInWords:
    decisions: tuple[Decision, ...]
    clauses: tuple[Clause, ...]
    content: bool
    """Whether the game's printed material comes from a content document a variant may edit."""


def ledger_id(doc: str) -> str:
    """The rules-ledger id an option's documentation opens with (empty: none)."""
    found = LEDGER_ID.match(doc)
    return found.group(0).strip().rstrip(":") if found else ""


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
    return RulesInWords(decisions, clauses, form.content is not None)
