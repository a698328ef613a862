"""People are named: every text a page shows names seats by the table's names (``Player N``,
counted from 1, where a seat has none), never ``seat N``; choices carry no card ids; each bot has
its own name and level; the notation a person or a record types is unchanged."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.core.wording import DEFAULT_NAMES, SeatNames, bot_name
from shadowtable.server.table import Seat as StoredSeat
from shadowtable.server.table import seat_name
from shadowtable.testing import random_move
from shadowtable.web.render import view_fragments

SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)
CARD_ID = re.compile(r"(?<!&)#\d")  # not an HTML entity (&#39;)
NAMES = ["Zed", "Yara", "Xavi"]


def test_seat_names_name_every_mention_and_drop_card_ids() -> None:
    people = SeatNames.of(["Ada", ""])
    assert people(0) == "Ada" and people(1) == "Player 2" and people(4) == "Player 5"
    assert people.shown("make offer to seat 0") == "make offer to Ada"
    assert people.shown("seat 1 and seat 2 swap a card") == "Player 2 and Player 3 swap a card"
    assert people.shown("play Move (Move 1) #93") == "play Move (Move 1)"
    assert people.shown("this seat won") == "this seat won"
    same = people.choices([(5, "play Move (Move 1) #93"), (6, "play Move (Move 1) #94"), (7, "target seat 0")])
    assert same == [(5, "play Move (Move 1)"), (7, "target Ada")]


def test_bots_have_distinct_names_with_their_level() -> None:
    seats = [StoredSeat("bot", level, None, None) for level in ("heuristic", "ismcts", "random", "heuristic")]
    names = [seat_name(i, seat) for i, seat in enumerate(seats)]
    assert names == [
        "Ada (heuristic bot)",
        "Brook (ISMCTS bot)",
        "Cyd (random bot)",
        "Dara (heuristic bot)",
    ]
    assert bot_name(1, "heuristic") == "Brook (heuristic bot)"
    assert seat_name(1, StoredSeat("human", None, None, None)) == "Player 2"


def _first_state(game: Any, wanted: Any, seed: int, limit: int = 3000) -> Any:
    """The first state of a random game (from ``seed``) where ``wanted(state)`` holds."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(limit):
        if game.is_terminal(state):
            state, rng = game.initial_state(), random.Random(rng.random())
        if game.current_player(state) >= 0 and wanted(state):
            return state
        state = game.apply(state, random_move(game, state, rng)[1])
    pytest.skip("no such state in the games played")


def test_a_seat_choice_is_shown_by_name_and_its_old_notation_still_parses() -> None:
    game = make("shadowlord", players=3)

    def seat_choices(state: Any) -> list[int]:
        return [a for a in game.legal_actions(state) if " seat " in game.words.action_to_str(state, a)]

    state = _first_state(game, seat_choices, seed=3)
    action = seat_choices(state)[0]
    notation = game.words.action_to_str(state, action)
    number = int(notation.rpartition(" ")[2])
    assert game.words.parse_action(state, notation) == action  # "make offer to seat 1" as before
    shown = SeatNames.of(NAMES).shown(notation)
    assert shown.endswith(NAMES[number]) and not SEAT_NUMBER.search(shown)
    assert game.words.parse_action(state, shown, SeatNames.of(NAMES)) == action  # typed as shown
    assert game.words.parse_action(state, f"{notation.rpartition(' seat ')[0]} Player {number + 1}") == action


def test_choices_read_without_card_ids_and_the_shown_words_parse() -> None:
    game = make("shadow-planet", players=3)

    def twins(state: Any) -> bool:
        shown = [DEFAULT_NAMES.shown(game.words.action_to_str(state, a)) for a in game.legal_actions(state)]
        return len(set(shown)) < len(shown)

    state = _first_state(game, twins, seed=5)
    legal = game.legal_actions(state)
    choices = DEFAULT_NAMES.choices((a, game.words.action_to_str(state, a)) for a in legal)
    texts = [text for _, text in choices]
    assert len(texts) == len(set(texts)) < len(legal), "choices that read the same are shown once"
    assert not any(CARD_ID.search(text) for text in texts)
    for action, text in choices:
        assert game.words.parse_action(state, text) == action  # what is shown can be typed
        assert game.words.parse_action(state, game.words.action_to_str(state, action)) == action


@pytest.mark.parametrize(("title", "players"), [("shadowlord", 3), ("shadow-planet", 3)])
def test_every_page_fragment_names_seats_by_the_tables_names(title: str, players: int) -> None:
    """A seeded game rendered for every audience at every version: no ``seat N``, no card id in
    the choices, each seat's name in the log."""
    from shadowtable.bots.registry import make_bot

    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], 7, seat_names=NAMES)
    table.tell()
    info = {"status": "playing", "seats": [{"seat": i, "name": name} for i, name in enumerate(NAMES)]}
    presence = [{"seat": i, "name": name} for i, name in enumerate(NAMES)]
    logs = ""
    for _ in range(250):
        if table.is_over():
            break
        for audience in table.audiences():
            fragments = view_fragments(game, table.view(audience).to_json(presence=presence), info)
            for name, html in fragments.items():
                assert not SEAT_NUMBER.search(html), f"{name} of {audience}: {SEAT_NUMBER.search(html)}"
            assert not CARD_ID.search(fragments["actions"])
            logs += fragments["log"]
        table.step()
    for name in NAMES:
        assert name in logs


@pytest.mark.parametrize(("title", "players"), [("shadowlord", 3), ("shadow-planet", 3)])
def test_a_served_game_with_bots_names_everyone_on_the_page(client: Any, title: str, players: int) -> None:
    """A person and two bots play out a served game: the page and every frame's HTML name the
    seats (the person's name, each bot's own name and level), never ``seat N``."""
    from server.wire import Seat, play_out

    form = {"game": title, "players": str(players), "name": "Zed", "seat_1": "bot:random", "seat_2": "bot:heuristic"}
    if title == "shadowlord":
        form["opt_turn_cap"] = "10"  # a whole game's every kind of frame, not its length, is what is judged
    created = client.post("/tables", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    table = created.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{table}").text
    with client.websocket_connect(f"/ws/{table}") as socket:
        seat = Seat(socket)
        seat.send({"t": "hello", "html": True})
        seat.until("view")
        play_out(seat)
    frames = [message["html"] for message in seat.received if message["t"] == "view"]
    html = "".join(page + "".join(str(v) for v in fragments.values()) for fragments in frames)
    found = SEAT_NUMBER.search(html)
    assert frames and not found, html[max(0, found.start() - 200) : found.end() + 80] if found else ""
    assert not any(CARD_ID.search(fragments.get("actions", "")) for fragments in frames)
    results = [r for message in seat.received for r in message.get("results") or []]
    assert results and not any(SEAT_NUMBER.search(r["why"]) for r in results), results
    bots = ["Brook (random bot)", "Cyd (heuristic bot)"]
    assert seat.view is not None
    assert [p["name"] for p in seat.view["presence"]] == ["Zed", *bots]
    logs = "".join(fragments.get("log", "") for fragments in frames)
    assert all(bot in logs for bot in bots), "each bot is named in the log by its own name"


def test_a_person_may_not_pass_for_a_bot() -> None:
    from shadowtable.server.names import reserved_problem

    for name in ("Ada (heuristic bot)", "Brook (ISMCTS bot)"):
        assert reserved_problem(name) == f"name: {name!r} is reserved for bots; choose another"
    assert reserved_problem("Ada") is None
