"""A seat's view message as the HTML fragments of the table page.

Everything here is built from the message the seat is sent (and the table's public description),
never from a game state, so the page holds exactly what the seat's message holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from markupsafe import escape

from shadowtable.core.changes import Change
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.game import Observation as ObservationJson
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import available_games, game_class
from shadowtable.core.rules_help import load_rules_help
from shadowtable.core.table import Choice, ChoiceGroup, Decision, Told
from shadowtable.core.views import TypedObservation, typed_view, view_class
from shadowtable.core.wording import DEFAULT_NAMES, HEADLINE, SeatNames, first_per_reading
from shadowtable.tutorial.coach import Coach
from shadowtable.tutorial.lesson import lessons
from shadowtable.web.boards import BoardHtml
from shadowtable.web.templating import compile_templates, render

BoardRenderer = Callable[[Game[Any], dict[str, Any]], BoardHtml]


@dataclass(frozen=True)
class SeatMessage:
    """A ``view`` message read into the seat view's types (its ``obs`` stays the game's JSON:
    a board reads it as the game's typed observation).

    ``choices`` and ``turn`` are ``None`` unless the reader decides; ``groups`` are the
    message's groups of those choices (one per choice where it names none); ``names`` are the
    seat names of its ``presence``."""

    obs: ObservationJson
    decision: Decision | None
    choices: tuple[Choice, ...] | None
    groups: tuple[ChoiceGroup, ...]
    turn: int | None
    after: int
    events: tuple[Told, ...]
    names: Mapping[int, str]
    since: Since | None = None
    results: tuple[Mapping[str, object], ...] = ()
    yours: Mapping[str, object] | None = None
    out: str | None = None

    @classmethod
    def from_json(cls, message: Mapping[str, Any]) -> SeatMessage:
        legal = message.get("legal")
        choices = None if legal is None else tuple(Choice(int(a), str(w)) for a, w in legal)
        return cls(
            obs=message["obs"],
            decision=Decision.from_pending(message.get("pending") or None),
            choices=choices,
            groups=_groups(choices or (), message.get("groups") or []),
            turn=message.get("turn"),
            after=message.get("after") or 0,
            events=tuple(_told(event) for event in message.get("events") or []),
            names=_names(message.get("presence") or []),
            since=Since.from_json(message.get("since")),
            results=tuple(message.get("results") or ()),
            yours=message.get("yours") or None,
            out=message.get("out") or None,
        )

    @property
    def people(self) -> SeatNames:
        """How this message's seats are named: by its ``presence`` (``Player N`` where it names
        none)."""
        count = max(self.names, default=-1) + 1
        return SeatNames(tuple(self.names.get(seat, "") for seat in range(count)))

    @property
    def legal(self) -> dict[int, str]:
        """The legal actions in words, by id (empty unless the reader decides)."""
        return {choice.action: choice.text for choice in self.choices or ()}


@dataclass(frozen=True)
class Since:
    """What the seat saw when it last decided (its observation's JSON) and the events it was told
    since (a ``view`` message's ``since``, sent to pages only)."""

    obs: ObservationJson
    events: tuple[Told, ...]

    @classmethod
    def from_json(cls, since: object) -> Since | None:
        if not isinstance(since, dict) or not isinstance(since.get("obs"), dict):
            return None
        return cls(since["obs"], tuple(_told(event) for event in since.get("events") or []))


def _groups(choices: tuple[Choice, ...], groups: list[dict[str, Any]]) -> tuple[ChoiceGroup, ...]:
    """The message's groups of legal choices (those it names), or one group per choice."""
    if not groups:
        return tuple(ChoiceGroup(choice.text, (choice,)) for choice in choices)
    by_id = {choice.action: choice for choice in choices}
    return tuple(
        ChoiceGroup(group["label"], tuple(by_id[a] for a in group["actions"] if a in by_id)) for group in groups
    )


def _told(event: Mapping[str, Any]) -> Told:
    kind, text, rule = str(event.get("kind", "")), str(event.get("text", "")), str(event.get("rule") or "")
    return Told(kind, text, rule, private=event.get("private") is True)


def _names(presence: list[Any]) -> dict[int, str]:
    return {
        p["seat"]: str(p["name"])
        for p in presence
        if isinstance(p, dict) and isinstance(p.get("seat"), int) and p.get("name")
    }


def warm_pages() -> int:
    """Load every registered game's board and typed view and compile every template before the
    first request (a first render that builds them would hold up the event loop); the number of
    templates compiled."""
    packages = []
    for game_id in available_games():
        found = game_class(game_id)
        board_renderer(found)
        if manifest_of(found).view is not None:
            view_class(found).prepare()  # the typed view's readers
        package = board_package(found)
        if package is not None:
            packages.append(package)
    return compile_templates(packages)


def board_package(game_class: type[Game[Any]]) -> str | None:
    """The package of the browser board a game's manifest names (its templates, its stylesheet)."""
    reference = manifest_of(game_class).web_board
    return (reference.partition(":")[0].rpartition(".")[0] or None) if reference is not None else None


@cache
def board_renderer(game_class: type[Game[Any]]) -> BoardRenderer:
    """The browser board a game's manifest names, or its text rendering in a ``<pre>``."""
    reference = manifest_of(game_class).web_board
    if reference is not None:
        try:
            found: BoardRenderer = load(reference)
            return found
        except ShadowTableError:
            pass
    return text_board


@cache
def board_stylesheet(game_class: type[Game[Any]]) -> str | None:
    """The path under ``/static/`` of a game's board stylesheet, if it has one: ``web.css``
    beside the board's module, served as ``boards/<game package>.css``."""
    found = board_stylesheet_file(game_class)
    return f"boards/{found[0]}.css" if found is not None else None


@cache
def board_stylesheet_file(game_class: type[Game[Any]]) -> tuple[str, str] | None:
    """The board stylesheet's name (the game's package) and text, if the game has one."""
    package = board_package(game_class)
    if package is None:
        return None
    css = resources.files(package).joinpath("web.css")
    name = package.rpartition(".")[0].rpartition(".")[2] or package
    return (name, css.read_text(encoding="utf-8")) if css.is_file() else None


def board_stylesheet_text(name: str) -> str | None:
    """The text of the board stylesheet served as ``boards/<name>.css`` (a registered game's)."""
    for game_id in available_games():
        found = board_stylesheet_file(game_class(game_id))
        if found is not None and found[0] == name:
            return found[1]
    return None


def text_board(game: Game[Any], message: dict[str, Any]) -> BoardHtml:
    """The board of a game with no browser board of its own: its text rendering."""
    text = game.words.render(SeatMessage.from_json(message).obs)
    board = render("text_board.html", text=text, name=game.spec.name)
    return BoardHtml(board=board, panel="", goal="")


def rule_sections(game: Game[Any]) -> dict[str, dict[str, str]]:
    """The game's rule keys with their section and quote (empty if it has none)."""
    return _package_rules(type(game).__module__.rpartition(".")[0])


@cache
def _package_rules(package: str) -> dict[str, dict[str, str]]:
    if not package:
        return {}  # a game defined outside a package has no rules data
    try:
        rules: dict[str, dict[str, str]] = load_rules_help(package)["rules"]
    except (OSError, ImportError, KeyError, TypeError, ValueError):
        return {}
    return rules


def seat_names(table: dict[str, Any]) -> list[str]:
    return [seat["name"] for seat in table["seats"]]


def people(table: dict[str, Any]) -> SeatNames:
    """How the page names each seat of ``table`` in the game's texts."""
    return SeatNames.of(seat_names(table))


def status_line(message: SeatMessage, table: dict[str, Any]) -> dict[str, Any]:
    """Who decides now and what about, from the message's decision (public in every view)."""
    names = people(table)
    decision = message.decision
    if table["status"] == "open":
        return {"kind": "open", "text": "Waiting for players to sit down"}
    if table["status"] == "over" or decision is None:
        return {"kind": "over", "text": end_words(message)}
    deciding = decision.seat
    if deciding is None or deciding < 0:
        return {"kind": "chance", "text": "Chance decides"}
    prompt = names.shown(decision.prompt)
    if message.choices:
        return {"kind": "you", "text": f"Your decision: {prompt}"}
    who = names(deciding)
    if message.out:
        return {"kind": "out", "text": f"You are out of the game; {who} decides now: {prompt}"}
    return {"kind": "wait", "text": f"Waiting for {who}: {prompt}", "seat": deciding}


_MINE = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)
_ROUND_ENDS = re.compile(r"^round (\d+) ends\b", re.IGNORECASE)


def end_words(message: SeatMessage) -> str:
    """The end at the top of the page: the reader's own result and why, or who won."""
    if message.yours:
        return f"{HEADLINE[str(message.yours['result'])]}: {message.people.shown(str(message.yours['why']))}"
    if not message.results:
        return "The game is over"
    winners = [str(r["name"]) for r in message.results if r["result"] == "won"]
    if winners:
        return f"The game is over: {', '.join(winners)} won"
    if all(r["result"] == "drew" for r in message.results):
        return "The game is over: a draw"
    return "The game is over: nobody won"


def log_entries(game: Game[Any], events: Sequence[Told], names: SeatNames = DEFAULT_NAMES) -> list[dict[str, str]]:
    """Each told event in words (seats by ``names``, no card ids) with its cause (the rule
    section it applies, where it names one), whether it speaks of the reader (``mine``), whether
    it was told to the reader and not on the public channel (``private``) and the heading of the
    group it opens or closes: a turn begins (``start``: "Turn 3: ..."), a round ends (``end``:
    the next round's heading)."""
    sections = rule_sections(game)
    return [
        {
            "text": names.shown(event.text),
            "kind": event.kind,
            "cause": _cause(sections, event.rule),
            "mine": "1" if _MINE.search(event.text) else "",
            "private": "1" if event.private else "",
            **_group_marks(replace(event, text=names.shown(event.text))),
        }
        for event in events
    ]


def _group_marks(event: Told) -> dict[str, str]:
    """The group heading an event opens (a turn) or closes (a round), if any."""
    if event.kind == "turn" and event.text.lower().startswith("turn "):
        heading = event.text.split(";", 1)[0]
        return {"start": heading[:1].upper() + heading[1:], "end": ""}  # names keep their capitals
    ended = _ROUND_ENDS.match(event.text) if event.kind == "round" else None
    return {"start": "", "end": f"Round {int(ended.group(1)) + 1}" if ended else ""}


def _cause(sections: dict[str, dict[str, str]], rule: str) -> str:
    """The section of the rule an event names ("": none)."""
    return sections.get(rule, {}).get("section", "") if rule else ""


def log_html(game: Game[Any], events: Sequence[Told], names: SeatNames = DEFAULT_NAMES) -> str:
    """The log fragment of ``events``: one line each, every distinct line rendered once (a long
    game's whole log costs a look-up per event, not a render)."""
    return "".join(_log_line(**entry) for entry in log_entries(game, events, names))


@lru_cache(maxsize=50_000)
def _log_line(text: str, kind: str, cause: str, mine: str, private: str, start: str, end: str) -> str:
    """One ``<li>`` of the log, built with escaping alone (a long game's first render builds
    thousands; a template render each costs fifteen times as much)."""
    classes = f"event ev-{escape(kind)}" + (" group-start" if start else "") + (" group-end" if end else "")
    marks = (
        (' data-mine="1"' if mine else "")
        + (' data-private="1"' if private else "")
        + (f' data-group="{escape(start)}"' if start else "")
        + (f' data-next="{escape(end)}"' if end else "")
    )
    tag = PRIVATE_TAG if private else ""
    because = f' <span class="cause">(rule: {escape(cause)})</span>' if cause else ""
    return f'<li class="{classes}"{marks}>{tag}{escape(text)}{because}</li>\n'


PRIVATE_TAG = '<span class="tag-private" title="told to you, not to every player">private</span> '
"""The mark of a log line told to the reader alone."""


def action_groups(
    message: SeatMessage, game: Game[Any] | None = None, names: SeatNames = DEFAULT_NAMES
) -> list[dict[str, Any]]:
    """The legal actions in words (seats by ``names``, one choice per distinct text), grouped as
    the game groups them, each with what it would do (from the printed material, where ``game``
    is given and it says something)."""
    effect = _effects(game, message)
    return [
        {
            "label": names.shown(group.label),
            "actions": [
                {"id": action, "text": text, "effect": names.shown(effect(notation))}
                for action, text, notation in _shown_choices(group, names)
            ],
        }
        for group in message.groups
    ]


def _shown_choices(group: ChoiceGroup, names: SeatNames) -> list[tuple[int, str, str]]:
    """``(action, shown words, notation)`` of a group's choices, one per distinct shown text."""
    first = first_per_reading(group.choices, lambda choice: names.shown(choice.text))
    return [(choice.action, text, choice.text) for text, choice in first.items()]


def _effects(game: Game[Any] | None, message: SeatMessage) -> Callable[[str], str]:
    """What a choice's words would do, read from the printed material as the coach reads them."""
    seat = message.obs.get("seat")
    if game is None or not message.groups or not isinstance(seat, int) or game.spec.id not in lessons():
        return lambda _text: ""  # a title without a lesson has no coach to read its choices
    coach = Coach(game, seat, seat_name_list(game, message))
    rule = message.decision.rule if message.decision is not None else ""
    return lambda text: coach.choice_effect(message.obs, text, rule)


def rule_help(game: Game[Any], message: SeatMessage) -> dict[str, str] | None:
    """The rule that applies to the decision now, quoted with its section."""
    text = game.words.rules_help(message.obs).strip()
    if not text:
        return None
    section, _, quote = text.partition("\n\n")
    return {"section": section.strip(), "quote": quote.strip()}


SUMMARY_TOLD = 6
"""At most this many told lines in the summary (the log holds them all)."""

ViewChanges = Callable[[Game[Any], TypedObservation, TypedObservation, Sequence[str]], list[Change]]


@cache
def _changes_function(game_class: type[Game[Any]]) -> ViewChanges | None:
    """The game's ``changes.view_changes`` (beside its game module), if it has one."""
    package = game_class.__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        found: ViewChanges = load(f"{package}.changes:view_changes")
    except (ShadowTableError, ImportError):
        return None
    return found


def view_changes(
    game: Game[Any], before: ObservationJson, after: ObservationJson, names: Sequence[str]
) -> list[Change]:
    """What changed between two observations of one seat, in words (nothing for a game without
    a ``changes`` module or a typed view)."""
    compare = _changes_function(type(game))
    if compare is None:
        return []
    try:
        old, new = typed_view(game, before), typed_view(game, after)
    except ShadowTableError:
        return []
    return compare(game, old, new, names)


def without_repeats(lines: Sequence[str]) -> list[str]:
    """``lines`` with each line kept once, in order."""
    return list(dict.fromkeys(lines))


def seat_name_list(game: Game[Any], message: SeatMessage) -> list[str]:
    """The seat names of the message's presence, by seat (``seat N`` where it names none)."""
    return [message.names.get(seat, f"seat {seat}") for seat in range(game.players)]


@dataclass(frozen=True)
class SeatSummary:
    """ "Since your last decision": the changes between the seat's two views, the latest lines it
    was told (``earlier``: how many more the log holds)."""

    changes: tuple[Change, ...]
    told: tuple[str, ...]
    earlier: int

    @property
    def marks(self) -> str:
        """The board elements the changes name, as CSS selectors joined by ``|``."""
        return "|".join(mark for change in self.changes for mark in change.marks)


def summary(game: Game[Any], message: SeatMessage, names: SeatNames = DEFAULT_NAMES) -> SeatSummary | None:
    """What changed on the seat's board since its last decision and the latest lines it was told,
    from its own view then and now (``None`` before its first decision)."""
    since = message.since
    if since is None:
        return None
    changes = view_changes(game, since.obs, message.obs, seat_name_list(game, message))
    told = without_repeats([names.shown(event.text) for event in since.events])
    return SeatSummary(tuple(changes), tuple(told[-SUMMARY_TOLD:]), max(0, len(told) - SUMMARY_TOLD))


def view_fragments(game: Game[Any], message: dict[str, Any], table: dict[str, Any]) -> dict[str, str]:
    """The fragments of the table page for one view message (swapped in by ``table.js``)."""
    board = board_renderer(type(game))(game, message)
    seen = SeatMessage.from_json(message)
    names = people(table)
    return {
        "board": board.board,
        "panel": board.panel,
        "goal": render("fragments/goal.html", goal=board.goal),
        "status": render("fragments/status.html", status=status_line(seen, table)),
        "actions": render("fragments/actions.html", groups=action_groups(seen, game, names), turn=seen.turn),
        "rule": render("fragments/rule.html", rule=rule_help(game, seen)),
        "summary": render("fragments/summary.html", summary=summary(game, seen, names)),
        "log": log_html(game, seen.events, names),
        "log_mode": "append" if seen.after else "replace",
    }
