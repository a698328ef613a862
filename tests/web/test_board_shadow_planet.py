"""The Shadow Planet web board: built only from the seat's message, clickable legal actions, no leaks.

Random seeded games at 3, 4 and 5 players; at many steps (and the end) every seat and a
spectator get their ``view`` message, the board is rendered and checked against the message and
against the true state (what the seat must not see)."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest

from shadowtable.core.game import CHANCE, TERMINAL
from shadowtable.core.registry import make
from shadowtable.core.wording import DEFAULT_NAMES
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.boards.web import render_board
from shadowtable.server.views import seat_view
from shadowtable.web.boards import BoardHtml

VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
SVG_SELF_CLOSING = {"rect", "circle", "line", "path", "stop", "ellipse", "polygon", "polyline"}
WORDS_ONLY = ("done", "ride", "stay", "use ability", "skip ability", "leave section")
"""Decisions with no place on the board (they stay in the lead's list of actions in words)."""
OVERLAY_RANGES = (
    (A.GOTO, A.RIDE),  # go, enter, drive
    (A.CANCEL, A.SEAT),
    (A.COLOUR, A.USE),
    (A.RESOLVE, A.LEAVE),
    (A.ADVANCE, A.MOVE_BACK + 1),
    (A.DECK, A.NUM_ACTIONS),  # top of a deck, identity
)
"""Actions whose place is on the map itself (the SVG overlay), not in the panel."""


class Page(HTMLParser):
    """Parses the HTML, checks the tags nest properly, and collects what a reader is told."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, inside sp-rules, inside the overlay)
        self.acts: list[dict[str, str]] = []  # attributes of every element with data-act
        self.overlay_acts: set[int] = set()
        self.cards: set[int] = set()  # data-card values
        self.told: list[str] = []  # text and aria-labels/titles outside rules text
        self.all_text: list[str] = []
        self.rows: dict[tuple[str, int], list[str]] = {}  # (attribute, seat) -> text of that row
        self._row: tuple[str, int] | None = None
        self.svg_roles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        rules = (self.stack[-1][1] if self.stack else False) or "sp-rules" in a.get("class", "").split()
        overlay = (self.stack[-1][2] if self.stack else False) or "sp-overlay" in a.get("class", "").split()
        if tag == "svg":
            self.svg_roles.append(a.get("role", ""))
        if "data-act" in a:
            self.acts.append(a)
            if overlay:
                self.overlay_acts.add(int(a["data-act"]))
        if "data-card" in a:
            self.cards.add(int(a["data-card"]))
        for key in ("data-seat", "data-reveal-seat"):
            if key in a:
                self._row = (key, int(a[key]))
                self.rows[self._row] = []
        for key in ("aria-label", "title"):
            if key in a:
                (self.all_text if rules else self.told).append(a[key])
        if tag in VOID or (tag in SVG_SELF_CLOSING and self.get_starttag_text().endswith("/>")):
            return
        self.stack.append((tag, rules, overlay))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag and tag not in VOID and tag not in SVG_SELF_CLOSING:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"</{tag}> closes nothing"
        assert self.stack[-1][0] == tag, f"</{tag}> closes <{self.stack[-1][0]}>"
        self.stack.pop()
        if tag in ("tr", "li"):
            self._row = None

    def handle_data(self, data: str) -> None:
        self.all_text.append(data)
        if not (self.stack and self.stack[-1][1]):
            self.told.append(data)
        if self._row is not None:
            self.rows[self._row].append(data)


def flat(observation: dict[str, Any]) -> dict[str, Any]:
    """The public fields beside the seat's ``private`` card ids (as these checks read them)."""
    flat = {**observation["public"], "private": observation["private"], "seat": observation["seat"]}
    return flat if observation["outcome"] is None else {**flat, "outcome": observation["outcome"]}


def parse(html: BoardHtml) -> Page:
    page = Page()
    page.feed(html.board + html.panel)
    page.close()
    assert not page.stack, f"unclosed tags: {page.stack}"
    for svg in re.findall(r"<svg.*?</svg>", html.board, re.S):
        ET.fromstring(svg)  # each SVG is well-formed XML
    return page


def positions(players: int, seed: int, every: int) -> Iterator[tuple[Any, Any, bool]]:
    """(game, state, terminal) at every ``every``-th step of a random seeded game, and at its end."""
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    state = game.initial_state()
    step = 0
    while game.current_player(state) != TERMINAL:
        if step % every == 0:
            yield game, state, False
        player = game.current_player(state)
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        step += 1
    yield game, state, True


def seen_cards(message: dict[str, Any]) -> set[int]:
    """Every card id the seat's message shows (its observation and its legal actions)."""
    obs = flat(message["obs"])
    zones = obs["zones"]
    cards = set(obs["private"]) | set(obs["reveal_cards"]) | set(zones["discard"])
    for deck in zones["decks"]:
        cards |= {c for c in deck["top"] if c is not None} | set(deck["rest_known"])
    cards |= {c for c in zones["temple"] if c is not None}
    for gear in zones["gear"]:
        cards |= set(gear["known"])
    for played in zones["played"]:
        cards |= set(played)
    for action, _ in message["legal"] or []:
        if A.PLAY <= action < A.DONE:
            cards.add((action - A.PLAY) % A.NUM_CARDS_MAX)
    return cards


def check(game: Any, state: Any, seat: int | None, terminal: bool) -> dict[str, Any]:
    message = seat_view(game, state, seat, v=0, events=[], turn=0)
    html = render_board(game, message)
    page = parse(html)
    obs = flat(message["obs"])
    legal = {a: w for a, w in message["legal"] or []}
    told = " ".join(page.told)
    every_word = told + " " + " ".join(page.all_text)
    c = game.ctx.content

    # the board's text alternative
    assert page.svg_roles[0] == "img" and "<title" in html.board and "<desc" in html.board
    desc = re.search(r"<desc[^>]*>(.*?)</desc>", html.board, re.S)
    assert desc is not None
    for name in c.char_names:
        assert name in desc.group(1)
    assert f"Countdown {obs['countdown']} " in desc.group(1) and f"Threat {obs['threat']} " in desc.group(1)
    for k, mask in enumerate(obs["section_markers"]):
        for colour in range(5):
            if (mask >> colour) & 1:  # a Marker is named, not only coloured
                assert re.search(rf"{re.escape(c.section_names[k])} has [a-z, ]*\b{COLOURS[colour]}\b", desc.group(1))

    # clickable places: legal, accessible, and every placeable legal action has one
    acts = {int(a["data-act"]) for a in page.acts}
    assert acts <= set(legal), "a clickable place for an action that is not legal"
    for a in page.acts:
        assert a.get("role") == "button" and a.get("tabindex") == "0"
        assert a.get("aria-label") == DEFAULT_NAMES.shown(legal[int(a["data-act"])])  # seats named, no card ids
    for action, words in legal.items():
        if words not in WORDS_ONLY:
            assert action in acts, f"legal {words!r} has no place on the board"
        if any(low <= action < high for low, high in OVERLAY_RANGES):
            assert action in page.overlay_acts, f"{words!r} is not on the map"
    for action in legal:
        if A.GOTO <= action < A.DRIVE:  # the preview of where a move can reach
            assert "sp-reach" in html.board

    # own hand shown; nothing the message does not show
    if seat is not None and obs["seat_character"][seat] >= 0:
        ch = obs["seat_character"][seat]
        hand = [k for k, zone in enumerate(state.where) if zone == M.GEAR0 + ch]
        for k in hand:
            assert k in page.cards and c.card_name[k] in told
    shown = seen_cards(message)
    mentioned = page.cards | {int(x) for x in re.findall(r"#(\d+)\b", every_word)}
    assert mentioned <= shown, f"cards not in the message: {sorted(mentioned - shown)}"
    for ch in range(6):
        hidden = [
            k
            for k, zone in enumerate(state.where)
            if zone == M.GEAR0 + ch and k not in obs["zones"]["gear"][ch]["known"]
        ]
        assert not set(hidden) & mentioned, "another Character's hidden Gear is on the page"

    # Objectives: only what the observation reveals
    for other, objective in enumerate(obs["objectives"]):
        if objective is None:
            name = c.objective_names[state.objectives[other]]
            assert not re.search(rf"\b{name}\b", told), f"seat {other}'s hidden Objective {name} is shown"
            assert "hidden" in " ".join(page.rows[("data-seat", other)])
    if seat is None:
        assert html.goal == "" and not acts
    elif isinstance(obs["objectives"][seat], int) and obs["objectives"][seat] >= 0:
        assert c.objective_names[obs["objectives"][seat]] in html.goal
        assert c.objective_names[obs["objectives"][seat]] in told

    # the end: every seat's Objective, identity and why
    if terminal:
        assert "outcome" in obs and "Game over" in told
        for other in range(state.n):
            row = " ".join(page.rows[("data-reveal-seat", other)])
            assert c.objective_names[state.objectives[other]] in row
            assert c.char_names[state.identity[other]] in row
            assert ("won" in row) or ("lost" in row)
            assert "this seat" not in row  # the row says won or lost; its why says which side won

    # a pure function of the message
    assert render_board(game, copy.deepcopy(message)) == html
    return {"acts": len(acts), "verbs": {w.split(" ")[0] for w in legal.values()}}


COLOURS = ("yellow", "orange", "red", "white", "black")
COMMON = {"play", "done", "discard", "pick"}


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13)])
def test_random_games_render_what_each_seat_may_see(players: int, seed: int) -> None:
    checked = clicks = 0
    terminal_seen = False
    for game, state, terminal in positions(players, seed, every=7):
        deciding = game.current_player(state)
        for seat in [*range(players), None]:
            if not terminal and seat is not None and seat != deciding and (checked % 3):
                checked += 1
                continue  # most steps: the deciding seat and the spectator are enough
            clicks += check(game, state, seat, terminal)["acts"]
            checked += 1
        terminal_seen |= terminal
    assert terminal_seen and clicks > 0


def test_same_message_same_bytes_and_spectator_has_no_goal() -> None:
    game = make("shadow-planet", players=4)
    *_, (_, state, _) = positions(4, 5, every=10_000)
    for seat in (0, 1, None):
        message = seat_view(game, state, seat, v=3, events=[], turn=9)
        first = render_board(game, message)
        again = render_board(game, seat_view(game, state, seat, v=3, events=[], turn=9))
        assert first == again
        assert (first.goal == "") == (seat is None)


def test_move_preview_highlights_only_reachable_places() -> None:
    """During the spending of Move points, the places a legal go/enter reaches are marked and clickable."""
    found = 0
    for game, state, _ in positions(4, 21, every=1):
        if game.current_player(state) < 0:
            continue
        message = seat_view(game, state, game.current_player(state), v=0, events=[], turn=0)
        if message["pending"]["kind"] != "spend_move_points":
            continue
        html = render_board(game, message)
        targets = [w for a, w in message["legal"] if A.GOTO <= a < A.DRIVE]
        reach = html.board.count('class="sp-location sp-reach"') + html.board.count('class="sp-section sp-reach"')
        assert reach == len(targets)
        found += 1
    assert found


@pytest.mark.parametrize(("players", "seed"), [(3, 16), (3, 36), (4, 21)])
def test_every_decision_of_a_game_has_its_places(players: int, seed: int) -> None:
    """Games chosen to reach Section payments, Vehicles, deck tops, Robot swaps, identities: the
    deciding seat's board at every one of its decisions."""
    verbs: set[str] = set()
    for game, state, terminal in positions(players, seed, every=1):
        seat = game.current_player(state)
        if seat < 0:
            continue
        words = {game.words.action_to_str(state, a).split(" ")[0] for a in game.legal_actions(state)}
        if words - COMMON:  # the common card plays and picks are covered by the test above
            verbs |= check(game, state, seat, terminal)["verbs"]
    assert {"go", "enter", "resolve", "seat", "marker", "cancel", "advance"} <= verbs


def test_before_the_first_turn_the_board_says_the_game_is_setting_up() -> None:
    """A table waiting for its players shows the setup's chance node: its words say so, not "Chance"."""
    game = make("shadow-planet", players=3)
    state = game.initial_state()
    panel = render_board(game, seat_view(game, state, 0, v=0, events=[], turn=0)).panel
    assert "Setting up: before the first turn" in panel and "Chance" not in panel
    rng = random.Random(2)
    while game.current_player(state) != CHANCE or game.observe_typed(state, 0).public.round == 0:
        player = game.current_player(state)
        outcomes = game.chance_outcomes(state) if player == CHANCE else []
        state = game.apply(state, outcomes[0][0] if outcomes else rng.choice(game.legal_actions(state)))
    panel = render_board(game, seat_view(game, state, 0, v=0, events=[], turn=0)).panel
    assert "Chance: a card is drawn" in panel and "Setting up" not in panel
