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
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
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
    extras = EXTRAS.get(game_id)
    goals: tuple[Goal, ...] = ()
    endings: Table | None = None
    tables: tuple[Table, ...] = ()
    if extras is not None:
        reference = reference_game(game_id).words.reference()
        goals, endings, tables = extras(game_id, reference)
    return RulesPage(game_id, cls.SPEC.name, rule_sections(game_id), goals, endings, tables)


Extras = Callable[[str, Mapping[str, Any]], tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]]


def _links(game_id: str, titles: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    sections = list(rule_sections(game_id))
    return tuple((anchor, title) for title in titles if (anchor := find_anchor(sections, title)) is not None)


SHADOW_PLANET_ROLES = {
    "alien": "You win when the game ends on the Repair Indicator (Melita repaired), or on the Countdown with the "
    "Astronauts' Repair cards reaching the Repair Indicator, and then the Astronauts' Attack cards fall short of "
    "the Threat Indicator after you move it by your Get cards minus your Attack cards.",
    "astronaut": "You win, with the other Astronauts, when the game ends on the Repair Indicator (or on the Countdown "
    "with your Repair cards reaching the Repair Indicator) and your Attack cards reach the Threat Indicator after "
    "the Alien has moved it.",
    "guardian": "You win when the game ends on the Threat Indicator, or on the Countdown with the Astronauts' Repair "
    "cards short of the Repair Indicator. When no player holds the Guardian, the unmatched Character with the "
    "highest Initiative number is the Guardian, and if it wins, every player loses.",
}
"""How each role wins, in short (the rulebook's Determining the Winner)."""

SHADOW_PLANET_ENDINGS = (
    ("Threat reaches 8", "The Guardian wins; everyone else loses."),
    (
        "Repair reaches 0",
        "The Guardian loses. The Alien moves Threat by their Get cards minus their Attack cards; the "
        "Astronauts add up their Attack cards: at least the Threat, the Astronauts win, else the Alien.",
    ),
    (
        "Countdown reaches 0",
        "The Astronauts add up their Repair cards: short of the Repair Indicator, the Guardian wins; at "
        "least the Repair Indicator, the Alien and the Astronauts settle it as when Repair reaches 0.",
    ),
)


def shadow_planet_extras(
    game_id: str, reference: Mapping[str, Any]
) -> tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]:
    """How each Objective wins; the endings; cards, Sections, Links, Characters and Vehicles."""
    links = _links(game_id, ("5 Objectives", "End of the Game > Assign Identity", "Determining the Winner"))
    goals = tuple(
        Goal(objective_title(o), SHADOW_PLANET_ROLES[o["role"]], o["goal"].partition("\n\n")[2], links)
        for o in reference["objectives"]
    )  # fmt: skip
    endings = Table(
        "How the game ends: the first Indicator to reach its end decides (Threat, then Repair, then Countdown)",
        "endings",
        ("The game ends when", "Who wins"),
        SHADOW_PLANET_ENDINGS,
    )
    return goals, endings, shadow_planet_tables(reference)


def objective_title(objective: Mapping[str, Any]) -> str:
    """``2. Commander (an Astronaut)``: priority, name, and the role where the name is not it."""
    name, role = str(objective["name"]), str(objective["role"])
    title = f"{objective['priority']}. {name}"
    return title if name.lower() == role else f"{title} (an {role.capitalize()})"


def card_places(reference: Mapping[str, Any]) -> list[str]:
    """Where each card starts, by ``card_home`` (a Location deck, a Character's Gear, the Messages pile)."""
    tables = reference["tables"]
    places = [f"{name} deck" for name in tables["location_names"]]
    places += [f"{name}'s Gear" for name in tables["char_names"]]
    return [places[home] if 0 <= home < len(places) else "Messages pile" for home in tables["card_home"]]


def card_rows(reference: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """One row per distinct card and place, with its number of copies."""
    counts: dict[tuple[str, ...], int] = {}
    for card, place in zip(reference["cards"], card_places(reference), strict=True):
        effect = str(card["text"]).partition(": ")[2] or str(card["text"])  # after "Move 2: "
        row = (card["name"], card["type"].capitalize(), str(card["value"]), effect[:1].upper() + effect[1:], place)
        counts[row] = counts.get(row, 0) + 1
    return tuple((*row, str(n)) for row, n in counts.items())


def shadow_planet_tables(reference: Mapping[str, Any]) -> tuple[Table, ...]:
    yes_no = {True: "only with a Vehicle", False: "on foot or by Vehicle"}
    return (
        Table("Operation cards", "cards", ("Card", "Type", "Value", "What it does", "Starts in", "Copies"),
              card_rows(reference)),
        Table("Sections", "sections", ("Section", "Location", "Move to enter", "Reveal", "Effect"), tuple(
            (s["name"], s["location"], str(s["entry_cost"]), p["cost"], p["effect"])
            for s in reference["sections"] for p in s["payments"])),
        Table("Links between Locations", "links", ("Between", "Move cost", "How"), tuple(
            (" - ".join(link["between"]), str(link["cost"]), yes_no[bool(link["vehicle_only"])])
            for link in reference["links"])),
        Table("Characters", "characters", ("Character", "Colour", "Starts in", "Ability (controlled)",
                                           "Ability (uncontrolled)"), tuple(
            (c["name"], c["colour"] or "none", c["start"], c["ability"] or "none", c["uncontrolled"] or "none")
            for c in reference["characters"])),
        Table("Vehicles", "vehicles", ("Vehicle", "Carries", "Move bonus"), tuple(
            (v["name"], f"up to {v['capacity']} Characters", v["bonus"]) for v in reference["vehicles"])),
    )  # fmt: skip


SHADOWLORD_WIN = (
    "When the Shadowlord and every other Star Master have been defeated, the last player left becomes 'Master of "
    "the Universe' and wins. A player whose Star Master is captured is out of the game. Once the Power Stone has been "
    "taken from the Shadowlord, the others may surrender to its owner. If the Power Stone Timer stands on the "
    "Starburst at the start of a player's turn, the Shadowlord wins and every player loses."
)


def shadowlord_extras(
    game_id: str, reference: Mapping[str, Any]
) -> tuple[tuple[Goal, ...], Table | None, tuple[Table, ...]]:
    """How a player wins; figures, Power Cards, Special Events and galaxies."""
    links = _links(game_id, ("Game End", "Capturing a Star Master", "Battling the Shadowlord in the Lost Fortress"))
    goal = Goal("Master of the Universe", SHADOWLORD_WIN, str(reference["goal"]).partition("\n\n")[2], links)
    return (goal,), None, shadowlord_tables(reference)


def galaxy_rows(reference: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """One row per kind of galaxy: what it does and which galaxies are of that kind."""
    kinds: dict[str, tuple[str, list[str]]] = {}
    for galaxy in reference["galaxies"]:
        kinds.setdefault(galaxy["kind"], (galaxy["text"], []))[1].append(galaxy["name"])
    return tuple((text, ", ".join(names)) for text, names in kinds.values())


def shadowlord_tables(reference: Mapping[str, Any]) -> tuple[Table, ...]:
    return (
        Table("Figures", "figures", ("Figure", "Kind", "Strength", "Colour"), tuple(
            (f["name"], f["kind"], str(f["strength"]), f["colour"] or "none") for f in reference["figures"])),
        Table("Power Cards", "power-cards", ("Value", "Copies", "Use"), tuple(
            (str(c["value"]), str(c["copies"]), c["text"]) for c in reference["power_cards"])),
        Table("Special Events (roll 2d8)", "special-events", ("Roll", "Event"), tuple(
            (str(e["roll"]), e["text"]) for e in reference["special_events"])),
        Table("Galaxies", "galaxies", ("Kind", "Galaxies"), galaxy_rows(reference)),
        Table("First round: where each Alliance may move", "first-round", ("Alliance", "May move to"), tuple(
            (colour.capitalize(), ", ".join(cells)) for colour, cells in reference["first_round_moves"].items())),
    )  # fmt: skip


EXTRAS: dict[str, Extras] = {"shadow-planet": shadow_planet_extras, "shadowlord": shadowlord_extras}
"""The games whose rules page adds how to win and the printed material (others show their rules)."""
