"""The Shadowlord! browser board: built from a seat's message only, well-formed, clickable where
an action has a place, and never showing another seat's Power Cards."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest

from shadowtable.core.game import CHANCE, TERMINAL
from shadowtable.core.registry import make
from shadowtable.core.wording import DEFAULT_NAMES
from shadowtable.games.shadowlord.actions import NF, NV, decode
from shadowtable.games.shadowlord.boards.web import render_board
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.observe import portrait_seat
from shadowtable.games.shadowlord.state import ACTIVE, State
from shadowtable.server.views import seat_view
from shadowtable.web.boards import BoardHtml

CONFIGS = [
    pytest.param(2, {}, id="2p"),
    pytest.param(2, {"modified": True}, id="2p-modified"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
]
MAX_STEPS = 1400
SAMPLE_EVERY = 23

OFFER_BLOCKS = {
    "offer_to",
    "offer_give",
    "offer_want",
    "offer_character",
    "offer_release",
    "offer_ship",
    "offer_permission_give",
    "offer_permission_want",
    "offer_truce",
    "offer_send",
    "revoke_truce",
    "revoke_permission",
}


class Elements(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(html)
    parser.close()
    return parser.tags


def policy(game: ShadowlordGame, s: State, legal: list[int], rng: random.Random) -> int:
    """Random, but starting offers and sending them often, so offers and replies come up."""
    blocks = {decode(a)[0]: a for a in legal}
    kind = type(s.stack[-1]).__name__
    if "offer_to" in blocks and rng.random() < 0.4:
        return blocks["offer_to"]
    if kind == "BuildOffer":
        items = [a for a in legal if decode(a)[0] not in ("done", "offer_send")]
        if "offer_send" in blocks and (rng.random() < 0.5 or not items):
            return blocks["offer_send"]
        return rng.choice(items or legal)
    return rng.choice(legal)


def play(game: ShadowlordGame, seed: int) -> list[State]:
    """States of one seeded random game: every SAMPLE_EVERY steps, and each step with a vote,
    an offer or a Duel in progress (at most a few of each), and the last state."""
    rng = random.Random(seed)
    s = game.initial_state()
    out: list[State] = []
    special = Counter[str]()
    for step in range(MAX_STEPS):
        p = game.current_player(s)
        if p == TERMINAL:
            break
        tags = [
            name
            for name, present in (
                ("vote", s.vote is not None),
                ("offer", s.offer is not None),
                ("duel", s.battle is not None and s.battle.duel is not None),
            )
            if present
        ]
        keep = step % SAMPLE_EVERY == 0
        for tag in tags:
            if special[tag] < 4:
                special[tag] += 1
                keep = True
        if keep:
            out.append(s)
        if p == CHANCE:
            outcomes = game.chance_outcomes(s)
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            a = policy(game, s, game.legal_actions(s), rng)
        s = game.apply(s, a)
    out.append(s)
    return out


def message(game: ShadowlordGame, s: State, seat: int | None) -> dict[str, Any]:
    return seat_view(game, s, seat, v=0, events=[], turn=0)


def check_render(game: ShadowlordGame, s: State, seat: int | None, msg: dict[str, Any], out: BoardHtml) -> None:
    legal = {a for a, _ in (msg["legal"] or [])}
    html = out.board + out.panel
    tags = elements(html)
    # the SVG parses as XML, is an image with a text alternative
    svg_text = re.search(r"<svg.*</svg>", out.board, re.S)
    assert svg_text, "no SVG board"
    svg = ET.fromstring(svg_text.group(0))
    assert svg.get("role") == "img"
    ns = "{http://www.w3.org/2000/svg}"
    title, desc = svg.find(f"{ns}title"), svg.find(f"{ns}desc")
    assert title is not None and (title.text or "").strip()
    assert desc is not None and (desc.text or "").strip()
    assert "Power Stone Timer" in (desc.text or "")
    # every clickable element is a legal action, in words, reachable by keyboard
    acts: set[int] = set()
    for tag, attrs in tags:
        if "data-act" in attrs:
            a = int(attrs["data-act"])
            assert a in legal, f"data-act {a} is not legal for seat {seat}"
            assert attrs.get("role") == "button" and attrs.get("tabindex") == "0"
            assert attrs.get("aria-label"), f"{tag} data-act={a} has no words"
            acts.add(a)
    # actions with a place are clickable
    pending = msg["pending"] or {}
    for a, _words in msg["legal"] or []:
        block, i = decode(a)
        placed = block in ("move", "galaxy", "place", "bribe", "drop", "pick", "search") or block in OFFER_BLOCKS
        if block == "figure" and s.status[i] == ACTIVE and s.loc[i] >= 0:
            placed = True
        if block in ("yes", "done") and pending.get("kind") in ("vote", "answer_offer", "build_offer"):
            placed = True
        if placed:
            assert a in acts, f"legal action {a} ({_words}) has no place on the board"
    # the seat's own cards appear, exactly; no other seat's hand or portrait cards do
    hand_seen = Counter(int(attrs["data-value"]) for _t, attrs in tags if attrs.get("data-card") == "hand")
    portrait_seen: dict[int, Counter[int]] = {}
    for _t, attrs in tags:
        if attrs.get("data-card") == "portrait":
            portrait_seen.setdefault(int(attrs["data-fig"]), Counter())[int(attrs["data-value"])] += 1
    values = game.ctx.content.card_values
    if seat is None:
        assert not hand_seen and not portrait_seen
        assert not any(attrs.get("data-card") == "commit" for _t, attrs in tags)
        assert out.goal == ""
    else:
        true_hand = Counter({values[v]: n for v, n in enumerate(s.hand[seat * NV : seat * NV + NV]) if n})
        assert hand_seen == true_hand
        for f, seen in portrait_seen.items():
            assert portrait_seat(game.ctx, s, f) == seat, f"portrait cards of another seat's {f} shown"
            assert seen == Counter({values[v]: n for v, n in enumerate(s.pcards[f * NV : f * NV + NV]) if n})
        for f in range(len(s.owner)):
            if portrait_seat(game.ctx, s, f) == seat and any(s.pcards[f * NV : f * NV + NV]) and s.status[f] in (1, 2):
                assert f in portrait_seen, f"own portrait cards of {f} missing"
        assert out.goal
        # the Attack Hand section lists the seat's own cards only
        if sum(true_hand.values()):
            assert "Your Attack Hand" in out.panel
    if s.offer is not None:
        assert "Offer from Player " in out.panel
    if s.vote is not None:
        assert "On the table:" in out.panel
    if s.end:
        assert "Game over" in out.panel


def hide_swap(game: ShadowlordGame, s: State, seat: int | None) -> State | None:
    """A state ``seat`` cannot tell from ``s``: one card of another seat's Attack Hand swapped
    with a different card of the deck (``None`` if no such swap exists)."""
    for other in range(game.players):
        if other == seat:
            continue
        for v in range(NV):
            if not s.hand[other * NV + v]:
                continue
            for w in range(NV):
                if w != v and s.deck[w]:
                    t = s.copy()
                    t.hand[other * NV + v] -= 1
                    t.hand[other * NV + w] += 1
                    t.deck[w] -= 1
                    t.deck[v] += 1
                    t.legal = None
                    return t
    return None


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_random_games_render_for_every_seat(players: int, options: dict[str, Any]) -> None:
    game = make("shadowlord", players=players, **options)
    assert isinstance(game, ShadowlordGame)
    seen = Counter[str]()
    for s in play(game, seed=players * 10 + len(options)):
        deciding = game.current_player(s)
        for seat in [*range(players), None]:
            msg = message(game, s, seat)
            out = render_board(game, msg)
            check_render(game, s, seat, msg, out)
            if seat == deciding:
                seen["decide"] += 1
        if s.vote is not None:
            seen["vote"] += 1
        if s.offer is not None:
            seen["offer"] += 1
        if s.battle is not None:
            seen["battle"] += 1
    assert seen["decide"] > 10
    assert seen["offer"] > 0 and seen["battle"] > 0
    if players > 2:
        assert seen["vote"] > 0


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_pure_and_blind_to_hidden_cards(players: int, options: dict[str, Any]) -> None:
    game = make("shadowlord", players=players, **options)
    assert isinstance(game, ShadowlordGame)
    states = play(game, seed=7 + players)
    compared = 0
    for s in states[::3]:
        for seat in [*range(players), None]:
            msg = message(game, s, seat)
            first = render_board(game, msg)
            assert render_board(game, message(game, s, seat)) == first  # same message, same bytes
            twin = hide_swap(game, s, seat)
            if twin is None or game.current_player(s) == seat:
                continue
            assert game.observe(twin, seat) == msg["obs"]
            assert render_board(game, message(game, twin, seat)) == first
            compared += 1
    assert compared > 5


def drive_to(game: ShadowlordGame, seed: int, want: str) -> State:
    """Play until the decision ``want`` (a pending kind) is up."""
    rng = random.Random(seed)
    s = game.initial_state()
    for _ in range(MAX_STEPS):
        p = game.current_player(s)
        assert p != TERMINAL, f"the game ended before a {want}"
        if p >= 0 and game.observe(s, p)["pending"]["kind"] == want:
            return s
        if p == CHANCE:
            outcomes = game.chance_outcomes(s)
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            a = policy(game, s, game.legal_actions(s), rng)
        s = game.apply(s, a)
    raise AssertionError(f"no {want} within {MAX_STEPS} steps")


def acts_of(html: str) -> dict[int, str]:
    return {int(attrs["data-act"]): attrs["aria-label"] for _t, attrs in elements(html) if "data-act" in attrs}


def test_offer_reply_shows_terms_and_accept_refuse() -> None:
    game = make("shadowlord", players=3)
    assert isinstance(game, ShadowlordGame)
    s = drive_to(game, 3, "answer_offer")
    assert s.offer is not None
    seat = s.offer.to
    msg = message(game, s, seat)
    out = render_board(game, msg)
    acts = acts_of(out.panel)
    assert "accept offer" in acts.values() and "refuse offer" in acts.values()
    assert f"Offer from {DEFAULT_NAMES(s.offer.made_by)} (" in out.panel
    # offered cards are public: every seat and a spectator see them
    values = game.ctx.content.card_values
    for v, n in enumerate(s.offer.give):
        if n:
            for viewer in [*range(3), None]:
                assert "gives Power Cards" in render_board(game, message(game, s, viewer)).panel
            assert str(values[v]) in out.panel
    # a bystander sees the offer but cannot answer it
    other = next(k for k in range(3) if k != seat)
    assert not acts_of(render_board(game, message(game, s, other)).panel)


def test_offer_building_is_grouped_and_clickable() -> None:
    game = make("shadowlord", players=4)
    assert isinstance(game, ShadowlordGame)
    s = drive_to(game, 5, "build_offer")
    seat = game.current_player(s)
    msg = message(game, s, seat)
    out = render_board(game, msg)
    acts = acts_of(out.panel)
    legal = dict((a, w) for a, w in msg["legal"])
    assert "withdraw offer" in acts.values()
    for a, w in legal.items():
        if decode(a)[0] in OFFER_BLOCKS:
            assert acts.get(a) == w
    assert "Negotiation" in out.panel


def test_vote_shows_motion_voters_and_yes_no() -> None:
    game = make("shadowlord", players=3)
    assert isinstance(game, ShadowlordGame)
    s = drive_to(game, 1, "vote")
    assert s.vote is not None
    seat = game.current_player(s)
    out = render_board(game, message(game, s, seat))
    acts = acts_of(out.panel)
    assert sorted(acts.values()) == ["vote no", "vote yes"]
    assert "On the table:" in out.panel and "Voters:" in out.panel
    spectator = render_board(game, message(game, s, None))
    assert "On the table:" in spectator.panel and not acts_of(spectator.panel)


def test_after_the_vote_the_page_shows_the_result_and_only_the_readers_own_vote() -> None:
    game = make("shadowlord", players=3)
    assert isinstance(game, ShadowlordGame)
    s = drive_to(game, 1, "vote")
    while s.vote is not None or game.current_player(s) == CHANCE:
        legal = game.legal_actions(s)
        s = game.apply(s, legal[0] if game.current_player(s) == CHANCE else legal[-1])  # "vote yes"
    assert s.last_vote is not None
    voters = s.last_vote["voters"]
    for seat in voters:
        panel = render_board(game, message(game, s, seat)).panel
        assert "Last Vote:" in panel and "passed." in panel and "You voted yes." in panel
    for seat in [k for k in range(3) if k not in voters] + [None]:
        panel = render_board(game, message(game, s, seat)).panel
        assert "Last Vote:" in panel and "You voted" not in panel


def test_moves_are_chips_and_reachable_galaxies_highlighted() -> None:
    game = make("shadowlord", players=2)
    assert isinstance(game, ShadowlordGame)
    s = drive_to(game, 2, "move")
    seat = game.current_player(s)
    msg = message(game, s, seat)
    out = render_board(game, msg)
    moves = [(a, w) for a, w in msg["legal"] if decode(a)[0] == "move"]
    assert moves
    acts = acts_of(out.board)
    for a, w in moves:
        assert acts[a].startswith(w)
        f, d = divmod(decode(a)[1], 4)
        dest = game.ctx.steps[s.loc[f]][d]
        name = game.ctx.content.galaxy_name(dest)
        assert re.search(rf'class="sl-cell[^"]*sl-reach[^"]*" data-galaxy="{name}"', out.board)


def test_last_duel_arithmetic_in_words() -> None:
    game = make("shadowlord", players=4)
    assert isinstance(game, ShadowlordGame)
    rng = random.Random(11)
    s = game.initial_state()
    while s.last_duel is None:
        p = game.current_player(s)
        assert p != TERMINAL
        if p == CHANCE:
            outcomes = game.chance_outcomes(s)
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            a = rng.choice(game.legal_actions(s))
        s = game.apply(s, a)
    out = render_board(game, message(game, s, None))
    last = s.last_duel
    for side in (0, 1):
        assert f"= {last['totals'][side]}" in out.panel
    assert f"{game.ctx.content.fig_name[last['winner']]} wins" in out.panel


def test_place_card_under_portrait_is_clickable() -> None:
    game = make("shadowlord", players=3)
    assert isinstance(game, ShadowlordGame)
    rng = random.Random(4)
    s = game.initial_state()
    for _ in range(MAX_STEPS):
        p = game.current_player(s)
        assert p != TERMINAL
        if p >= 0:
            places = [a for a in game.legal_actions(s) if decode(a)[0] == "place"]
            if places:
                msg = message(game, s, p)
                acts = acts_of(render_board(game, msg).panel)
                for a in places:
                    v, f = divmod(decode(a)[1], NF)
                    assert a in acts and game.ctx.content.fig_name[f] in acts[a]
                return
            a = policy(game, s, game.legal_actions(s), rng)
        else:
            outcomes = game.chance_outcomes(s)
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        s = game.apply(s, a)
    raise AssertionError("no card placement came up")


def test_before_the_first_turn_the_board_says_the_game_is_setting_up() -> None:
    game = make("shadowlord", players=2)
    assert isinstance(game, ShadowlordGame)
    start = game.initial_state()
    panel = render_board(game, message(game, start, None)).panel
    assert "<strong>Setting up</strong>: before the first turn." in panel and "plays -" not in panel
    assert "setting up, before the first turn; timer 6" in game.words.render(game.observe(start, 0))  # the text too
    s = start
    while s.cur < 0 or game.current_player(s) == CHANCE:  # through the setup to the first turn
        s = game.apply(
            s, game.legal_actions(s)[0] if game.current_player(s) != CHANCE else game.chance_outcomes(s)[0][0]
        )
    panel = render_board(game, message(game, s, 0)).panel
    assert "<strong>Turn 1</strong>:" in panel and "Setting up" not in panel
    text = game.words.render(game.observe(s, 0))
    assert "turn 1, " in text and "- to play" not in text
